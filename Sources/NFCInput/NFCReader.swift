import CNfc
import Glibc
import Posix

/// An NFC reader opened through libnfc: `open`, then `read(until:)` as often as needed, then
/// `close` (or let it go). It owns its own libnfc context and device, and is not Sendable: one
/// owner uses it, and every libnfc call in the process is serialised (see `LibNFC`).
///
/// Deadlines: libnfc's calls cannot be interrupted, but each is bounded by its own timeouts
/// (for a PN532: 300 ms to select, 350 ms per command, about 1.5 s for `nfc_open` on a silent
/// port). A deadline is checked before each call, so it is overrun by at most one of them.
public final class NFCReader {
    public let connection: NFCConnection
    private var context: OpaquePointer?
    private(set) var device: OpaquePointer?
    /// Held from before `nfc_open` to after `nfc_close`: one fpmod program per reader.
    private var deviceLock: NFCDeviceLock?

    /// How long to wait between polls when no card is in the field.
    public static let pollInterval: Duration = .milliseconds(100)

    private init(connection: NFCConnection, context: OpaquePointer, device: OpaquePointer, deviceLock: NFCDeviceLock?) {
        self.connection = connection
        self.context = context
        self.device = device
        self.deviceLock = deviceLock
    }

    deinit { close() }

    /// Checks the connection string and its device node, then `nfc_init`, `nfc_open`,
    /// `nfc_initiator_init`, and one try per select (`NP_INFINITE_SELECT` off), so that polling
    /// stays under our deadlines rather than the reader's.
    public static func open(_ connstring: String, deadline: ContinuousClock.Instant) throws(NFCError) -> NFCReader {
        let connection = try NFCConnection(connstring)
        if let path = connection.path {
            let status: FileStatus
            do { status = try FileSystem.status(path) } catch {
                throw error == .permissionDenied ? .permissionDenied(path) : .noSuchPort(path)
            }
            guard status.kind == .characterDevice else { throw .notADevice(path) }
            guard FileSystem.isAccessible(path, R_OK | W_OK) else { throw .permissionDenied(path) }
        }
        // Another fpmod program's reader: said so, before a byte could garble its frames.
        let deviceLock = try connection.path.map { path throws(NFCError) in try NFCDeviceLock(path: path, connection: connection) }
        guard ContinuousClock.now < deadline else { throw .notAnswering(call: "nfc_open", connection: connection) }
        let (context, device) = try LibNFC.withLock { () throws(NFCError) -> (OpaquePointer, OpaquePointer) in
            var context: OpaquePointer?
            nfc_init(&context)
            guard let context else { throw .noContext }
            guard let device = nfc_open(context, connection.connstring) else {
                nfc_exit(context)
                throw .noReader(connection)
            }
            return (context, device)
        }
        // From here the reader closes what is open if a step fails (its deinit, which takes the
        // lock: so it must not be released while the lock is held).
        let reader = NFCReader(connection: connection, context: context, device: device, deviceLock: deviceLock)
        try LibNFC.withLock { () throws(NFCError) in
            try reader.check(nfc_initiator_init(device), call: "nfc_initiator_init")
            try reader.check(nfc_device_set_property_bool(device, NP_INFINITE_SELECT, false),
                             call: "nfc_device_set_property_bool(NP_INFINITE_SELECT, false)")
        }
        return reader
    }

    /// The card in the field, polling until one comes or `deadline` passes (nil then). The card
    /// is deselected after reading (halted until it leaves the field or the field resets).
    public func read(until deadline: ContinuousClock.Instant) throws(NFCError) -> NFCCard? {
        while true {
            guard ContinuousClock.now < deadline else { return nil }
            if let card = try selectOnce() { return card }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return nil }
            CurrentProcess.sleep(for: min(Self.pollInterval, remaining))
        }
    }

    /// One `nfc_initiator_select_passive_target` at 106 kbps type A.
    private func selectOnce() throws(NFCError) -> NFCCard? {
        try selectTarget().map { Self.card(from: $0) }
    }

    /// The selection of one card, as libnfc reports it (libfreefare starts from it); the card is
    /// deselected after, so the next step selects it again by its UID.
    func selectTarget() throws(NFCError) -> nfc_iso14443a_info? {
        try LibNFC.withLock { () throws(NFCError) -> nfc_iso14443a_info? in
            guard let device else { throw .closed }
            var target = nfc_target()
            let modulation = nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106)
            let found = nfc_initiator_select_passive_target(device, modulation, nil, 0, &target)
            try check(found, call: "nfc_initiator_select_passive_target")
            guard found > 0 else { return nil }
            // Releasing the card is courtesy: the UID is read, and a failure shows on the next call.
            _ = nfc_initiator_deselect_target(device)
            return target.nti.nai
        }
    }

    /// `nfc_close` and `nfc_exit` (the PN532 is released, its field switched off and powered
    /// down by libnfc). Idempotent.
    public func close() {
        LibNFC.withLock {
            if let device { nfc_close(device) }
            if let context { nfc_exit(context) }
            device = nil
            context = nil
        }
        deviceLock?.release()
        deviceLock = nil
    }

    /// Throws the typed error for a negative libnfc result.
    func check(_ result: Int32, call: String) throws(NFCError) {
        guard result < 0 else { return }
        switch result {
        case NFC_ETIMEOUT: throw .notAnswering(call: call, connection: connection)
        case NFC_EIO: throw .garbled(call: call, connection: connection)
        default:
            let message = device.flatMap { nfc_strerror($0) }.map { String(cString: $0) } ?? "unknown error"
            throw .failed(call: call, code: result, message: message)
        }
    }

    static func card(from info: nfc_iso14443a_info) -> NFCCard {
        var info = info
        let uidCount = min(Int(info.szUidLen), 10)
        let atsCount = min(Int(info.szAtsLen), 254)
        let uid = withUnsafeBytes(of: &info.abtUid) { Array($0.prefix(uidCount)) }
        let ats = withUnsafeBytes(of: &info.abtAts) { Array($0.prefix(atsCount)) }
        let atqa = UInt16(info.abtAtqa.0) << 8 | UInt16(info.abtAtqa.1)
        return NFCCard(uid: uid, atqa: atqa, sak: info.btSak, ats: ats)
    }
}
