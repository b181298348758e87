import DESFire

/// Authentication, the EV1 session's MACs and the enciphered commands (ChangeKey,
/// GetCardUID), as the EV1 data sheet describes them and libfreefare 0.4.0 computes them.
extension SimulatedDESFire {
    /// Step one: the card's challenge, E(RndB).
    mutating func startAuthentication(command: DESFireCommand, data: [UInt8]) throws -> Outcome {
        guard data.count == 1 else { throw DESFireStatus.lengthError }
        session = nil
        let keyNumber = data[0]
        let key = try keyFor(number: keyNumber)
        // Each key answers its own authentication: legacy for DES, AES for AES (the ISO
        // variant for 3K3DES is not modelled).
        let legacy: Bool
        switch (command, key.cipher) {
        case (.authenticateLegacy, .des): legacy = true
        case (.authenticateAES, .aes128): legacy = false
        default: throw DESFireStatus.authenticationError
        }
        let size = key.cipher.blockSize
        let randomB = try randomBytes(size)
        let zero = [UInt8](repeating: 0, count: size)
        let challenge = try key.cipher.encryptCBC(key: key.bytes, iv: zero, randomB)
        // EV1 chains the IV through the exchange; legacy starts every message from zero.
        pending = .authentication(keyNumber: keyNumber, key: key, randomB: randomB, iv: legacy ? zero : challenge, legacy: legacy)
        return (.additionalFrame, challenge)
    }

    /// Step two: the host's E(RndA ‖ RndB'), checked; the card's E(RndA') back.
    mutating func finishAuthentication(keyNumber: UInt8, key: Key, randomB: [UInt8], iv: [UInt8], legacy: Bool, token: [UInt8]) throws -> Outcome {
        let cipher = key.cipher, size = cipher.blockSize
        guard token.count == 2 * size else { throw DESFireStatus.lengthError }
        let zero = [UInt8](repeating: 0, count: size)
        let plain: [UInt8]
        if legacy {
            // The host "deciphers" in send mode (P XOR previous C, then D), so the card
            // enciphers each block and XORs the previous ciphertext back out.
            var out: [UInt8] = []
            var previous = zero
            for start in stride(from: 0, to: token.count, by: size) {
                let block = Array(token[start..<(start + size)])
                let e = try cipher.encryptCBC(key: key.bytes, iv: zero, block)
                out += zip(e, previous).map { $0 ^ $1 }
                previous = block
            }
            plain = out
        } else {
            plain = try cipher.decryptCBC(key: key.bytes, iv: iv, token)
        }
        let randomA = Array(plain.prefix(size))
        guard Array(plain.suffix(size)) == Self.rotated(randomB) else { throw DESFireStatus.authenticationError }
        let answerIV = legacy ? zero : Array(token.suffix(size))
        let answer = try cipher.encryptCBC(key: key.bytes, iv: answerIV, Self.rotated(randomA))
        let sessionKey: [UInt8] = legacy
            ? Array(randomA[0..<4]) + Array(randomB[0..<4])
            : Array(randomA[0..<4]) + Array(randomB[0..<4]) + Array(randomA[12..<16]) + Array(randomB[12..<16])
        session = Session(keyNumber: keyNumber, cipher: cipher, key: sessionKey, iv: zero, legacy: legacy)
        return (.ok, answer)
    }

    /// An EV1 session's host MACs each plain command without sending the MAC: the card
    /// computes it too, to keep the chaining IV in step.
    mutating func macCommand(_ bytes: [UInt8]) throws {
        guard var session, !session.legacy else { return }
        _ = try CMAC(cipher: session.cipher, key: session.key).mac(bytes, iv: &session.iv)
        self.session = session
    }

    /// A successful answer, with its 8-byte CMAC over data ‖ status in an EV1 session.
    mutating func maced(_ data: [UInt8]) throws -> Outcome {
        guard var session, !session.legacy else { return (.ok, data) }
        let mac = try CMAC(cipher: session.cipher, key: session.key).mac(data + [DESFireStatus.ok.rawValue], iv: &session.iv)
        self.session = session
        return (.ok, data + mac.prefix(8))
    }

    /// ChangeKey in an EV1 session: `C4 keyNo E(newKey [XOR oldKey] ‖ version ‖ CRC32(C4 keyNo
    /// …) [‖ CRC32(newKey)] ‖ padding)`. Legacy sessions' ChangeKey is not modelled.
    mutating func changeKey(_ data: [UInt8]) throws -> Outcome {
        guard var session else { throw DESFireStatus.authenticationError }
        guard !session.legacy, selectedAID != 0 else { throw DESFireStatus.illegalCommand }
        guard data.count == 33 else { throw DESFireStatus.lengthError }
        let keyNumber = data[0] & 0x0F
        let app = try selectedApplication()
        guard Int(keyNumber) < app.keys.count else { throw DESFireStatus.noSuchKey }
        let access = app.keySettings >> 4
        let allowed: Bool
        if keyNumber == 0 {
            allowed = session.keyNumber == 0 && app.keySettings & 0x01 != 0
        } else if access == 0x0F {
            allowed = false
        } else if access == 0x0E {
            allowed = session.keyNumber == keyNumber
        } else {
            allowed = session.keyNumber == access
        }
        guard allowed else { throw DESFireStatus.permissionDenied }
        let enciphered = Array(data.dropFirst())
        let plain = try session.cipher.decryptCBC(key: session.key, iv: session.iv, enciphered)
        session.iv = Array(enciphered.suffix(16))
        let oldKey = app.keys[Int(keyNumber)]
        var newKey = Array(plain[0..<16])
        let version = plain[16]
        let header: [UInt8] = [0xC4, data[0]]
        let crc = Array(plain[17..<21])
        guard DESFireCRC32.bytes(header + Array(plain[0..<17])) == crc else { throw DESFireStatus.integrityError }
        var end = 21
        let changingOwnKey = session.keyNumber == keyNumber
        if !changingOwnKey {
            newKey = zip(newKey, oldKey.bytes).map { $0 ^ $1 }
            guard DESFireCRC32.bytes(newKey) == Array(plain[21..<25]) else { throw DESFireStatus.integrityError }
            end = 25
        }
        guard plain[end...].allSatisfy({ $0 == 0 }) else { throw DESFireStatus.integrityError }
        setKey(number: keyNumber, to: Key(cipher: oldKey.cipher, bytes: newKey, version: version))
        if changingOwnKey {
            // The session's key is gone: the card answers without a MAC and ends the session.
            self.session = nil
            return (.ok, [])
        }
        self.session = session
        return try maced([])
    }

    /// GetCardUID (EV1): the real UID, enciphered with CRC32(UID ‖ status) — the UID that
    /// a card with random UIDs hides from anticollision.
    mutating func cardUID() throws -> Outcome {
        guard var session, !session.legacy else { throw DESFireStatus.authenticationError }
        var plain = uid + DESFireCRC32.bytes(uid + [DESFireStatus.ok.rawValue])
        while plain.count % 16 != 0 { plain.append(0) }
        let enciphered = try session.cipher.encryptCBC(key: session.key, iv: session.iv, plain)
        session.iv = Array(enciphered.suffix(16))
        self.session = session
        return (.ok, enciphered)
    }

    /// Rotated left by one byte (RndA', RndB').
    static func rotated(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.dropFirst()) + [bytes[0]] }
}
