/// NXP AN10922 §2.2 AES-128 key diversification: a per-card key from a master key and the
/// card's data (UID, application ID, a system identifier), so that one card's key, if
/// extracted, opens nothing but that card. libfreefare 0.4.0 predates its deriver.
///
/// D = 01 ‖ M, padded with 80 00… to two blocks when shorter (AN10922 pads to 32 bytes even
/// when D would fit one block: this is where it departs from plain CMAC), the last block XORed
/// with CMAC subkey K2 if padded, K1 if not; the key is the last block of AES-CBC over D.
public enum KeyDiversification {
    public static let maximumInputLength = 31

    public static func aes128(masterKey: [UInt8], input: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard (1...maximumInputLength).contains(input.count) else { throw .notWholeBlocks(input.count) }
        let cmac = try CMAC(cipher: .aes128, key: masterKey)
        var data: [UInt8] = [0x01] + input
        let padded = data.count < 32
        if padded {
            data.append(0x80)
            while data.count < 32 { data.append(0) }
        }
        let subkey = padded ? cmac.subkey2 : cmac.subkey1
        for index in 0..<16 { data[16 + index] ^= subkey[index] }
        let encrypted = try BlockCipher.aes128.encryptCBC(key: masterKey, iv: [UInt8](repeating: 0, count: 16), data)
        return Array(encrypted.suffix(16))
    }

    /// AN10922's input for a DESFire application key: UID ‖ AID (least significant byte
    /// first, as the card sends it) ‖ system identifier.
    public static func input(uid: [UInt8], aid: UInt32, systemIdentifier: [UInt8]) -> [UInt8] {
        uid + [UInt8(aid & 0xFF), UInt8(aid >> 8 & 0xFF), UInt8(aid >> 16 & 0xFF)] + systemIdentifier
    }
}
