import DESFire
import Testing

func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

@Suite("DESFire crypto against published vectors")
struct CryptoVectorTests {
    static let rfcKey = hex("2b7e151628aed2a6abf7158809cf4f3c")

    @Test("CMAC with a zero IV is RFC 4493's AES-CMAC (empty, one block, two and a half blocks)")
    func rfc4493() throws {
        let cmac = try CMAC(cipher: .aes128, key: Self.rfcKey)
        #expect(try cmac.mac([]) == hex("bb1d6929e95937287fa37d129b756746"))
        #expect(try cmac.mac(hex("6bc1bee22e409f96e93d7e117393172a")) == hex("070a16b46b4d4144f79bdd9dd04a287c"))
        let forty = hex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411")
        #expect(try cmac.mac(forty) == hex("dfa66747de9ae63030ca32611497c827"))
    }

    @Test("the chained IV carries from one MAC to the next, as in an EV1 session")
    func chainedIV() throws {
        let cmac = try CMAC(cipher: .aes128, key: Self.rfcKey)
        var iv = [UInt8](repeating: 0, count: 16)
        let first = try cmac.mac([0x45], iv: &iv)
        #expect(iv == first)
        let second = try cmac.mac([0x45], iv: &iv)
        #expect(second != first)
    }

    @Test("AN10922 §2.2.1: AES-128 from UID 04782E21801D80, AID 3042F5 and 'NXP Abu'")
    func an10922() throws {
        let input = KeyDiversification.input(uid: hex("04782E21801D80"), aid: 0xF54230, systemIdentifier: Array("NXP Abu".utf8))
        #expect(input == hex("04782E21801D803042F54E585020416275"))
        let key = try KeyDiversification.aes128(masterKey: hex("00112233445566778899AABBCCDDEEFF"), input: input)
        #expect(key == hex("A8DD63A3B89D54B37CA802473FDA9175"))
    }

    @Test("AN10922 with a short input still pads to two blocks (AN10957's example)")
    func an10922ShortInput() throws {
        let key = try KeyDiversification.aes128(masterKey: hex("f3f9377698707b688eaf84abe39e3791"), input: hex("04deadbeeffeed"))
        #expect(key == hex("0bb408baff98b6ee9f2e1585777f6a51"))
    }

    @Test("DESFire's CRC32 is IEEE CRC-32 without the final inversion, sent little-endian")
    func crc32() {
        #expect(DESFireCRC32.checksum(Array("123456789".utf8)) == ~UInt32(0xCBF43926))
        #expect(DESFireCRC32.bytes(Array("123456789".utf8)) == [0xD9, 0xC6, 0x0B, 0x34])
    }

    @Test("single DES through libcrypto: the all-zero key's known answer")
    func des() throws {
        let zero = [UInt8](repeating: 0, count: 8)
        #expect(try BlockCipher.des.encryptCBC(key: zero, iv: zero, zero) == hex("8ca64de9c1b123a7"))
        #expect(try BlockCipher.des.decryptCBC(key: zero, iv: zero, hex("8ca64de9c1b123a7")) == zero)
    }
}
