// SerialPort
