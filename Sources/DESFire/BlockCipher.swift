import CCrypto

/// The two block ciphers a DESFire EV1 speaks here, through libcrypto's EVP interface: AES-128
/// (fpmod's application keys) and single DES (the factory PICC master key, legacy
/// authentication). Single DES is run as two-key triple DES with both halves equal, which is
/// the same permutation: OpenSSL 3 keeps single DES in its legacy provider only.
public enum BlockCipher: Sendable {
    case aes128
    case des

    public var blockSize: Int { self == .aes128 ? 16 : 8 }
    public var keySize: Int { self == .aes128 ? 16 : 8 }

    /// CBC over whole blocks, no padding; `iv` is one block.
    public func encryptCBC(key: [UInt8], iv: [UInt8], _ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try run(key: key, iv: iv, data, encrypt: true)
    }

    public func decryptCBC(key: [UInt8], iv: [UInt8], _ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try run(key: key, iv: iv, data, encrypt: false)
    }

    private func run(key: [UInt8], iv: [UInt8], _ data: [UInt8], encrypt: Bool) throws(CryptoError) -> [UInt8] {
        guard key.count == keySize else { throw .badKeyLength(key.count) }
        guard iv.count == blockSize, data.count % blockSize == 0 else { throw .notWholeBlocks(data.count) }
        if data.isEmpty { return [] }
        guard let context = EVP_CIPHER_CTX_new() else { throw .failed(call: "EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        let cipher = self == .aes128 ? EVP_aes_128_cbc() : EVP_des_ede_cbc()
        let material = self == .aes128 ? key : key + key
        guard EVP_CipherInit_ex(context, cipher, nil, material, iv, encrypt ? 1 : 0) == 1 else {
            throw .failed(call: "EVP_CipherInit_ex")
        }
        guard EVP_CIPHER_CTX_set_padding(context, 0) == 1 else { throw .failed(call: "EVP_CIPHER_CTX_set_padding") }
        var output = [UInt8](repeating: 0, count: data.count + blockSize)
        var written: Int32 = 0
        var finalWritten: Int32 = 0
        let ok = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard EVP_CipherUpdate(context, buffer.baseAddress, &written, data, Int32(data.count)) == 1 else { return false }
            return EVP_CipherFinal_ex(context, buffer.baseAddress! + Int(written), &finalWritten) == 1
        }
        guard ok else { throw .failed(call: encrypt ? "EVP_EncryptUpdate" : "EVP_DecryptUpdate") }
        return Array(output.prefix(Int(written + finalWritten)))
    }
}

/// Why a libcrypto call failed: which call, or which input it was refused for.
public enum CryptoError: Error, Equatable, CustomStringConvertible {
    case badKeyLength(Int)
    case notWholeBlocks(Int)
    case failed(call: String)

    public var description: String {
        switch self {
        case let .badKeyLength(count): "a key of \(count) bytes does not fit the cipher"
        case let .notWholeBlocks(count): "\(count) bytes are not whole cipher blocks"
        case let .failed(call): "\(call) failed (libcrypto)"
        }
    }
}

/// Random bytes from libcrypto's CSPRNG (RAND_bytes): the card's challenges.
public func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    guard RAND_bytes(&bytes, Int32(count)) == 1 else { throw .failed(call: "RAND_bytes") }
    return bytes
}
