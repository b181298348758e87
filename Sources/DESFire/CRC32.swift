/// The CRC32 of DESFire EV1's enciphered frames: the IEEE 802.3 polynomial (reflected), preset
/// FFFFFFFF, and no final inversion, sent little-endian.
public enum DESFireCRC32 {
    public static func checksum(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc
    }

    public static func bytes(_ data: [UInt8]) -> [UInt8] {
        let crc = checksum(data)
        return [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)]
    }
}
