"""Stand-in for CircuitPython's busio on plain Linux: adafruit_fingerprint only uses UART as a type hint."""


class UART:  # noqa: D101 - a type placeholder; pyserial's Serial is passed instead
    pass
