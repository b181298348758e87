import CFreefare
import CNFCTimeout
import CNfc
import DESFire
import Glibc
import Posix

/// fpmod's secure cards through libfreefare: reading a DESFire card with EV1 AES mutual
/// authentication, and enrolling one (creating fpmod's application and keying it).
///
/// Every libfreefare call runs under `LibNFC`'s lock, as the libnfc calls it makes do. Once a
/// card is found the dialog is not cut by the deadline: each exchange is bounded (libfreefare's
/// own untimed waits by `desfireExchangeBound`), and a half-finished dialog would leave the card
/// in an unknown state.
extension NFCReader {
    /// How long one DESFire command may wait for the reader and card (libfreefare 0.4.0 asks
    /// libnfc to wait for ever; CNFCTimeout bounds it process-wide). A DESFire answers in
    /// milliseconds; a PN532 that says nothing for this long is reported as not answering.
    public static var desfireExchangeBound: Duration { .milliseconds(Int(fpmod_nfc_untimed_transceive_bound_ms())) }

    /// Polls until a card comes or `deadline` passes (nil then), and tells whether it is a
    /// DESFire card holding this store's key for fpmod's application. `masterKey` is the
    /// store's DESFire master key (16 bytes): the card's key is derived from it.
    public func readSecure(until deadline: ContinuousClock.Instant, masterKey: [UInt8],
                           application: DESFireApplication = .fpmod) throws(NFCError) -> SecureCardRead? {
        try poll(until: deadline) { () throws(NFCError) -> SecureCardRead? in
            guard let info = try selectTarget() else { return nil }
            let card = Self.card(from: info)
            let key = try cardKey(masterKey: masterKey, card: card, application: application)
            let outcome = try withDESFire(info) { (tag: OpaquePointer) throws(NFCError) -> SecureCardRead in
                guard try select(tag, aid: application.aid) else { return .rejected(card, .noApplication) }
                return try authenticateAES(tag, key: key) ? .authenticated(card) : .rejected(card, .wrongKey)
            }
            // nil from withDESFire: not a DESFire card (or it left before the dialog began).
            return outcome ?? .plain(card)
        }
    }

    /// Waits for a card and puts fpmod's application on it: legacy authentication with the
    /// factory PICC master key (DES, zero), CreateApplication (one AES key), AES
    /// authentication with the new application's zero key, ChangeKey to the card's key, and
    /// AES authentication with it to confirm. Refuses a card whose PICC key is not the
    /// factory one, and one whose fpmod application has another key; never formats a card.
    /// With `uid`, only that card is written: another one on the reader is waited out.
    public func provisionSecure(until deadline: ContinuousClock.Instant, masterKey: [UInt8], uid: [UInt8]? = nil,
                                application: DESFireApplication = .fpmod) throws(NFCError) -> DESFireProvisioning? {
        try poll(until: deadline) { () throws(NFCError) -> DESFireProvisioning? in
            guard let info = try selectTarget() else { return nil }
            let card = Self.card(from: info)
            if let uid, card.uid != uid { return nil }
            let key = try cardKey(masterKey: masterKey, card: card, application: application)
            let outcome = try withDESFire(info) { (tag: OpaquePointer) throws(NFCError) -> DESFireProvisioning in
                let zeroAES = [UInt8](repeating: 0, count: 16)
                if try select(tag, aid: application.aid) {
                    if try authenticateAES(tag, key: key) { return .alreadyKeyed(card) }
                    // An enroll cut off between CreateApplication and ChangeKey leaves the zero key.
                    guard try authenticateAES(tag, key: zeroAES) else { return .keyedElsewhere(card) }
                } else {
                    guard try select(tag, aid: 0) else { throw .desfireStatus(call: "mifare_desfire_select_application(000000)", status: 0xA0) }
                    guard try authenticateLegacyFactoryKey(tag) else { return .piccKeyNotDefault(card) }
                    try createApplication(tag, application: application)
                    guard try select(tag, aid: application.aid) else {
                        throw .desfireStatus(call: "mifare_desfire_select_application", status: 0xA0)
                    }
                    guard try authenticateAES(tag, key: zeroAES) else {
                        throw .desfireStatus(call: "mifare_desfire_authenticate_aes", status: DESFireStatus.authenticationError.rawValue)
                    }
                }
                try changeKey(tag, to: key)
                guard try authenticateAES(tag, key: key) else {
                    throw .desfireStatus(call: "mifare_desfire_authenticate_aes (confirming the new key)", status: DESFireStatus.authenticationError.rawValue)
                }
                return .created(card)
            }
            return outcome ?? .notDESFire(card)
        }
    }

    // MARK: Steps

    private func poll<R>(until deadline: ContinuousClock.Instant, _ attempt: () throws(NFCError) -> R?) throws(NFCError) -> R? {
        while true {
            guard ContinuousClock.now < deadline else { return nil }
            if let result = try attempt() { return result }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return nil }
            CurrentProcess.sleep(for: min(Self.pollInterval, remaining))
        }
    }

    private func cardKey(masterKey: [UInt8], card: NFCCard, application: DESFireApplication) throws(NFCError) -> [UInt8] {
        do { return try application.cardKey(masterKey: masterKey, uid: card.uid) } catch {
            throw .failed(call: "KeyDiversification.aes128", code: -1, message: error.description)
        }
    }

    /// Runs `body` with the card as a connected libfreefare DESFire tag, all under the lock;
    /// nil when libfreefare does not take it for a DESFire card, or it left the field.
    private func withDESFire<R>(_ info: nfc_iso14443a_info, _ body: (OpaquePointer) throws(NFCError) -> R) throws(NFCError) -> R? {
        try LibNFC.withLock { () throws(NFCError) -> R? in
            guard let device else { throw .closed }
            guard let tag = freefare_tag_new(device, info) else { return nil }
            defer { freefare_free_tag(tag) }
            guard freefare_get_tag_type(tag) == DESFIRE else { return nil }
            guard mifare_desfire_connect(tag) == 0 else {
                try check(nfc_device_get_last_error(device), call: "mifare_desfire_connect")
                return nil
            }
            defer { _ = mifare_desfire_disconnect(tag) }
            return try body(tag)
        }
    }

    /// SelectApplication; false when the card has no such application.
    private func select(_ tag: OpaquePointer, aid: UInt32) throws(NFCError) -> Bool {
        guard let identifier = mifare_desfire_aid_new(aid) else { throw .failed(call: "mifare_desfire_aid_new", code: -1, message: "out of memory") }
        defer { free(UnsafeMutableRawPointer(identifier)) }
        if mifare_desfire_select_application(tag, identifier) == 0 { return true }
        if mifare_desfire_last_picc_error(tag) == DESFireStatus.applicationNotFound.rawValue { return false }
        throw failure(tag, call: "mifare_desfire_select_application")
    }

    /// EV1 AES authentication with key 0; false when the card refuses the key
    /// (AUTHENTICATION_ERROR) or fails to prove it holds it (libfreefare's RndA check).
    private func authenticateAES(_ tag: OpaquePointer, key: [UInt8]) throws(NFCError) -> Bool {
        var bytes = key
        guard let desfireKey = mifare_desfire_aes_key_new_with_version(&bytes, 0) else {
            throw .failed(call: "mifare_desfire_aes_key_new_with_version", code: -1, message: "out of memory")
        }
        defer { mifare_desfire_key_free(desfireKey) }
        return try authenticated(mifare_desfire_authenticate_aes(tag, 0, desfireKey), tag, call: "mifare_desfire_authenticate_aes")
    }

    /// Legacy authentication with the factory PICC master key (DES, all zero); false when the
    /// card's key is another.
    private func authenticateLegacyFactoryKey(_ tag: OpaquePointer) throws(NFCError) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 8)
        guard let desfireKey = mifare_desfire_des_key_new_with_version(&bytes) else {
            throw .failed(call: "mifare_desfire_des_key_new_with_version", code: -1, message: "out of memory")
        }
        defer { mifare_desfire_key_free(desfireKey) }
        return try authenticated(mifare_desfire_authenticate(tag, 0, desfireKey), tag, call: "mifare_desfire_authenticate")
    }

    private func authenticated(_ result: Int32, _ tag: OpaquePointer, call: String) throws(NFCError) -> Bool {
        if result == 0 { return true }
        let status = mifare_desfire_last_picc_error(tag)
        if status == DESFireStatus.authenticationError.rawValue { return false }
        let error = failure(tag, call: call)
        // No card status and no libnfc error: libfreefare found the card's proof wrong.
        if case .desfireAnswer = error { return false }
        throw error
    }

    private func createApplication(_ tag: OpaquePointer, application: DESFireApplication) throws(NFCError) {
        guard let identifier = mifare_desfire_aid_new(application.aid) else {
            throw .failed(call: "mifare_desfire_aid_new", code: -1, message: "out of memory")
        }
        defer { free(UnsafeMutableRawPointer(identifier)) }
        guard mifare_desfire_create_application_aes(tag, identifier, DESFireApplication.keySettings, 1) == 0 else {
            throw failure(tag, call: "mifare_desfire_create_application_aes")
        }
    }

    /// ChangeKey of key 0, the key authenticated with: the session ends with it.
    private func changeKey(_ tag: OpaquePointer, to key: [UInt8]) throws(NFCError) {
        var bytes = key
        guard let newKey = mifare_desfire_aes_key_new_with_version(&bytes, DESFireApplication.keyVersion) else {
            throw .failed(call: "mifare_desfire_aes_key_new_with_version", code: -1, message: "out of memory")
        }
        defer { mifare_desfire_key_free(newKey) }
        guard mifare_desfire_change_key(tag, 0, newKey, nil) == 0 else { throw failure(tag, call: "mifare_desfire_change_key") }
    }

    /// The typed error of a failed libfreefare call: libnfc's error first (the reader stopped
    /// answering, a garbled frame), then the card's status, then libfreefare's own refusal.
    private func failure(_ tag: OpaquePointer, call: String) -> NFCError {
        if let device {
            let code = nfc_device_get_last_error(device)
            if code < 0 {
                do { try check(code, call: call) } catch { return error }
            }
        }
        let status = mifare_desfire_last_picc_error(tag)
        if status != 0 { return .desfireStatus(call: call, status: status) }
        return .desfireAnswer(call: call)
    }
}
