/// CMAC (NIST SP 800-38B) as DESFire EV1 uses it: the MAC is computed with the CBC chaining
/// value carried from one message to the next (the session's IV), which libcrypto's EVP_MAC
/// cannot do, so it is built here over libcrypto's CBC. With a zero IV it is plain CMAC, which
/// the tests check against RFC 4493's vectors.
public struct CMAC: Sendable {
    public let cipher: BlockCipher
    let key: [UInt8]
    let subkey1: [UInt8]
    let subkey2: [UInt8]

    public init(cipher: BlockCipher, key: [UInt8]) throws(CryptoError) {
        self.cipher = cipher
        self.key = key
        let size = cipher.blockSize
        let zero = [UInt8](repeating: 0, count: size)
        let l = try cipher.encryptCBC(key: key, iv: zero, zero)
        let r: UInt8 = size == 8 ? 0x1B : 0x87
        subkey1 = Self.double(l, r)
        subkey2 = Self.double(subkey1, r)
    }

    /// The last block of the MAC'd, padded message (the full block, not truncated); `iv` becomes it.
    public func mac(_ message: [UInt8], iv: inout [UInt8]) throws(CryptoError) -> [UInt8] {
        let size = cipher.blockSize
        var padded = message
        let subkey: [UInt8]
        if message.isEmpty || message.count % size != 0 {
            padded.append(0x80)
            while padded.count % size != 0 { padded.append(0) }
            subkey = subkey2
        } else {
            subkey = subkey1
        }
        let last = padded.count - size
        for index in 0..<size { padded[last + index] ^= subkey[index] }
        let encrypted = try cipher.encryptCBC(key: key, iv: iv, padded)
        iv = Array(encrypted.suffix(size))
        return iv
    }

    /// Plain CMAC: a zero IV.
    public func mac(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        var iv = [UInt8](repeating: 0, count: cipher.blockSize)
        return try mac(message, iv: &iv)
    }

    /// The block shifted left one bit, with the reduction constant folded in when a bit falls out.
    static func double(_ block: [UInt8], _ r: UInt8) -> [UInt8] {
        var out = block
        for index in 0..<block.count {
            let next = index + 1 < block.count ? block[index + 1] >> 7 : 0
            out[index] = block[index] << 1 | next
        }
        if block[0] & 0x80 != 0 { out[block.count - 1] ^= r }
        return out
    }
}
