/// Which way an information frame travels: its TFI byte says so on the wire.
public enum PN532Direction: UInt8, Sendable {
    /// TFI D4: a command from the host controller.
    case hostToPN532 = 0xD4
    /// TFI D5: the PN532's response (its command code is the request's plus one).
    case pn532ToHost = 0xD5
}

/// One frame of the PN532's host interface (user manual UM0701-02 §6.2.1), the same on HSU
/// (UART), I2C and SPI:
///
/// - normal information frame: `00 00 FF LEN LCS TFI PD0…PDn DCS 00`, LEN counting TFI and
///   the data (1…255), LEN + LCS ≡ 0 and TFI + PD0 + … + PDn + DCS ≡ 0 (mod 256);
/// - extended information frame: `00 00 FF FF FF LENM LENL LCS TFI … DCS 00`, for longer data,
///   LENM + LENL + LCS ≡ 0;
/// - ACK `00 00 FF 00 FF 00` (command received; the host also sends it to abort a command);
/// - NACK `00 00 FF FF 00 00` (send the last response again);
/// - error frame `00 00 FF 01 FF 7F 81 00` (the PN532 found a syntax error in the command).
public enum PN532Frame: Equatable, Sendable {
    case ack
    case nack
    case applicationError
    /// `data` is the command code followed by its parameters, without TFI.
    case information(PN532Direction, [UInt8])

    /// The most data (command code and parameters, TFI excluded) one frame carries: the
    /// PN532's buffer is 265 bytes including TFI, whatever the frame kind.
    public static let maximumDataLength = 264
    /// Data longer than this (TFI included, over 255) needs an extended frame.
    public static let maximumNormalDataLength = 254

    public static let startCode: (UInt8, UInt8) = (0x00, 0xFF)
    /// The TFI of the error frame, where an information frame has D4 or D5.
    static let errorTFI: UInt8 = 0x7F

    /// The bytes on the wire, preamble and postamble included. Information frames longer than
    /// `maximumNormalDataLength` are extended frames; over `maximumDataLength` is a programming
    /// error (the PN532 cannot take them).
    public var bytes: [UInt8] {
        switch self {
        case .ack: return [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
        case .nack: return [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
        case .applicationError: return [0x00, 0x00, 0xFF, 0x01, 0xFF, Self.errorTFI, 0x81, 0x00]
        case let .information(direction, data):
            precondition(data.count <= Self.maximumDataLength, "a PN532 frame carries at most \(Self.maximumDataLength) data bytes")
            let length = data.count + 1
            var bytes: [UInt8] = [0x00, 0x00, 0xFF]
            if data.count <= Self.maximumNormalDataLength {
                bytes += [UInt8(length), Self.checksum(UInt8(length))]
            } else {
                let high = UInt8(length >> 8), low = UInt8(length & 0xFF)
                bytes += [0xFF, 0xFF, high, low, Self.checksum(high &+ low)]
            }
            bytes.append(direction.rawValue)
            bytes += data
            bytes.append(Self.checksum(data.reduce(direction.rawValue, &+)))
            bytes.append(0x00)
            return bytes
        }
    }

    /// The byte that brings `sum` to zero modulo 256 (LCS and DCS).
    public static func checksum(_ sum: UInt8) -> UInt8 { 0 &- sum }
}
