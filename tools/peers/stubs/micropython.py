"""Stand-in for MicroPython's micropython module: const() is the identity on CPython."""


def const(value):
    return value
