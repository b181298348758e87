import DESFire

/// A MIFARE DESFire EV1 (4 KB) as its ISO 14443-4 layer sees it, without I/O: one command in,
/// one answer out. It keeps what a real card keeps — the PICC master key and its settings, the
/// applications with their keys — and what a session holds: the selected application, the
/// authenticated key and session key, and the chaining IV of EV1 secure messaging.
///
/// It answers the commands libfreefare 0.4.0 sends for reading a card's version, listing,
/// creating and selecting applications, authenticating (legacy DES and EV1 AES), changing an
/// application key and reading the real UID, with the status codes a card gives: anything it
/// does not model answers ILLEGAL_COMMAND_CODE, as a card answers a code it does not know.
///
/// Commands come ISO 7816 wrapped (`90 code 00 00 [Lc data] 00`, answered `data 91 status`, as
/// libfreefare sends them) or native (`code data`, answered `status data`).
public struct SimulatedDESFire: Equatable, Sendable {
    public struct Key: Equatable, Sendable {
        public var cipher: BlockCipher
        public var bytes: [UInt8]
        public var version: UInt8

        public init(cipher: BlockCipher, bytes: [UInt8], version: UInt8 = 0) {
            self.cipher = cipher
            self.bytes = bytes
            self.version = version
        }

        /// The factory PICC master key: DES, all zero.
        public static let factoryDES = Key(cipher: .des, bytes: [UInt8](repeating: 0, count: 8))
        public static let zeroAES = Key(cipher: .aes128, bytes: [UInt8](repeating: 0, count: 16))
    }

    public struct Application: Equatable, Sendable {
        public let aid: UInt32
        public var keySettings: UInt8
        public var keys: [Key]
    }

    public let uid: [UInt8]
    public var piccKey: Key
    /// Factory 0x0F: master key changeable, free directory listing, free create/delete,
    /// configuration changeable.
    public var piccKeySettings: UInt8 = 0x0F
    public private(set) var applications: [Application] = []

    /// The session: gone when the card is selected anew (it leaves the field, the reader
    /// reselects it), on SelectApplication, and on any error.
    var selectedAID: UInt32 = 0
    var session: Session?
    var pending: Pending?

    struct Session: Equatable, Sendable {
        var keyNumber: UInt8
        var cipher: BlockCipher
        var key: [UInt8]
        /// EV1 (AES) sessions MAC every exchange with this chaining value; legacy ones do not.
        var iv: [UInt8]
        var legacy: Bool
    }

    enum Pending: Equatable, Sendable {
        case authentication(keyNumber: UInt8, key: Key, randomB: [UInt8], iv: [UInt8], legacy: Bool)
        /// GetVersion's next frame (2 or 3), and the MAC chaining value after its command.
        case version(frame: Int)
    }

    /// 4 KB of user memory, as on an EV1 4K.
    static let memorySize = 4096
    static let applicationSize = 256
    /// More than fits one answer frame is not modelled (a real card continues with AF).
    static let maximumApplications = 19

    public init(uid: [UInt8], piccKey: Key = .factoryDES) {
        self.uid = uid
        self.piccKey = piccKey
    }

    public func application(_ aid: UInt32) -> Application? { applications.first { $0.aid == aid } }

    /// What selection does to a card: the session is gone, the PICC level selected.
    public mutating func reset() {
        selectedAID = 0
        session = nil
        pending = nil
    }

    /// One exchange, wrapped or native.
    public mutating func exchange(_ frame: [UInt8]) -> [UInt8] {
        if frame.count >= 5, frame[0] == 0x90, frame[2] == 0x00, frame[3] == 0x00 {
            var data: [UInt8] = []
            if frame.count > 5 {
                let length = Int(frame[4])
                guard frame.count == 5 + length + 1 else { return [0x67, 0x00] }
                data = Array(frame[5..<(5 + length)])
            }
            let (status, reply) = execute(code: frame[1], data: data)
            return reply + [0x91, status.rawValue]
        }
        guard let code = frame.first else { return [DESFireStatus.lengthError.rawValue] }
        let (status, reply) = execute(code: code, data: Array(frame.dropFirst()))
        return [status.rawValue] + reply
    }

    /// The status and the data before it (with its MAC, in an EV1 session).
    mutating func execute(code: UInt8, data: [UInt8]) -> (DESFireStatus, [UInt8]) {
        let outcome: Outcome
        do {
            outcome = try dispatch(code: code, data: data)
        } catch let status as DESFireStatus {
            // A card ends its session on any error; the host must authenticate again.
            session = nil
            pending = nil
            return (status, [])
        } catch {
            session = nil
            pending = nil
            return (.integrityError, [])
        }
        return outcome
    }

    typealias Outcome = (DESFireStatus, [UInt8])

    private mutating func dispatch(code: UInt8, data: [UInt8]) throws -> Outcome {
        let pending = self.pending
        self.pending = nil
        guard let command = DESFireCommand(rawValue: code) else { throw DESFireStatus.illegalCommand }
        switch command {
        case .additionalFrame:
            switch pending {
            case let .authentication(keyNumber, key, randomB, iv, legacy):
                return try finishAuthentication(keyNumber: keyNumber, key: key, randomB: randomB, iv: iv, legacy: legacy, token: data)
            case let .version(frame):
                return try versionFrame(frame)
            case nil:
                throw DESFireStatus.illegalCommand
            }
        case .authenticateLegacy, .authenticateAES, .authenticateISO:
            return try startAuthentication(command: command, data: data)
        case .changeKey:
            return try changeKey(data)
        default:
            break
        }
        // The plain commands: in an EV1 session the host MACs each, and the card keeps step.
        try macCommand([code] + data)
        switch command {
        case .getVersion:
            guard data.isEmpty else { throw DESFireStatus.lengthError }
            self.pending = .version(frame: 2)
            return (.additionalFrame, Self.hardwareVersion)
        case .selectApplication:
            guard data.count == 3 else { throw DESFireStatus.lengthError }
            let aid = Self.aid(data)
            guard aid == 0 || application(aid) != nil else { throw DESFireStatus.applicationNotFound }
            selectedAID = aid
            session = nil
            return (.ok, [])
        case .getApplicationIDs:
            guard data.isEmpty else { throw DESFireStatus.lengthError }
            guard selectedAID == 0 else { throw DESFireStatus.illegalCommand }
            try requirePICCMaster(unless: piccKeySettings & 0x02 != 0)
            return try maced(applications.flatMap { Self.aidBytes($0.aid) })
        case .getKeySettings:
            guard data.isEmpty else { throw DESFireStatus.lengthError }
            if selectedAID == 0 { return try maced([piccKeySettings, 0x01]) }
            let app = try selectedApplication()
            let cipherFlag: UInt8 = app.keys.first?.cipher == .aes128 ? 0x80 : 0x00
            return try maced([app.keySettings, UInt8(app.keys.count) | cipherFlag])
        case .getKeyVersion:
            guard data.count == 1 else { throw DESFireStatus.lengthError }
            let key = try keyFor(number: data[0] & 0x0F)
            return try maced([key.version])
        case .freeMemory:
            guard data.isEmpty else { throw DESFireStatus.lengthError }
            let free = Self.memorySize - applications.count * Self.applicationSize
            return try maced([UInt8(free & 0xFF), UInt8(free >> 8 & 0xFF), UInt8(free >> 16 & 0xFF)])
        case .createApplication:
            return try createApplication(data)
        case .deleteApplication:
            guard data.count == 3 else { throw DESFireStatus.lengthError }
            guard selectedAID == 0 else { throw DESFireStatus.illegalCommand }
            try requirePICCMaster(unless: piccKeySettings & 0x04 != 0)
            let aid = Self.aid(data)
            guard let index = applications.firstIndex(where: { $0.aid == aid }) else { throw DESFireStatus.applicationNotFound }
            applications.remove(at: index)
            return try maced([])
        case .formatPICC:
            guard data.isEmpty else { throw DESFireStatus.lengthError }
            guard selectedAID == 0 else { throw DESFireStatus.illegalCommand }
            try requirePICCMaster(unless: false)
            applications.removeAll()
            return try maced([])
        case .getCardUID:
            return try cardUID()
        default:
            throw DESFireStatus.illegalCommand
        }
    }

    private mutating func createApplication(_ data: [UInt8]) throws -> Outcome {
        guard data.count >= 5 else { throw DESFireStatus.lengthError }
        guard selectedAID == 0 else { throw DESFireStatus.illegalCommand }
        try requirePICCMaster(unless: piccKeySettings & 0x04 != 0)
        let aid = Self.aid(data)
        let settings = data[3], keyCount = Int(data[4] & 0x0F)
        guard aid != 0, (1...14).contains(keyCount) else { throw DESFireStatus.parameterError }
        let key: Key
        switch data[4] & 0xC0 {
        case 0x80: key = .zeroAES
        case 0x00: key = Key(cipher: .des, bytes: [UInt8](repeating: 0, count: 8))
        // Three-key 3DES applications are not modelled.
        default: throw DESFireStatus.parameterError
        }
        guard application(aid) == nil else { throw DESFireStatus.duplicateError }
        guard applications.count < Self.maximumApplications else { throw DESFireStatus.outOfEEPROM }
        applications.append(Application(aid: aid, keySettings: settings, keys: Array(repeating: key, count: keyCount)))
        return try maced([])
    }

    /// The PICC master key's session is needed unless the settings free the command.
    private func requirePICCMaster(unless free: Bool) throws {
        if free { return }
        guard let session, selectedAID == 0, session.keyNumber == 0 else { throw DESFireStatus.authenticationError }
    }

    func selectedApplication() throws -> Application {
        guard let app = application(selectedAID) else { throw DESFireStatus.applicationNotFound }
        return app
    }

    func keyFor(number: UInt8) throws -> Key {
        if selectedAID == 0 {
            guard number == 0 else { throw DESFireStatus.noSuchKey }
            return piccKey
        }
        let app = try selectedApplication()
        guard Int(number) < app.keys.count else { throw DESFireStatus.noSuchKey }
        return app.keys[Int(number)]
    }

    mutating func setKey(number: UInt8, to key: Key) {
        guard let index = applications.firstIndex(where: { $0.aid == selectedAID }) else { return }
        applications[index].keys[Int(number)] = key
    }

    private mutating func versionFrame(_ frame: Int) throws -> Outcome {
        if frame == 2 {
            pending = .version(frame: 3)
            return (.additionalFrame, Self.softwareVersion)
        }
        // The UID, a batch number, and the week and year of production (BCD).
        let last = uid + [0xBA, 0x7C, 0x40, 0x00, 0x00, 0x26, 0x24]
        guard var session, !session.legacy else { return (.ok, last) }
        let cmac = try CMAC(cipher: session.cipher, key: session.key)
        let mac = try cmac.mac(Self.hardwareVersion + Self.softwareVersion + last + [0x00], iv: &session.iv)
        self.session = session
        return (.ok, last + mac.prefix(8))
    }

    /// NXP, DESFire, EV1 (1.0), 4 KB, ISO 14443-2 and -3.
    static let hardwareVersion: [UInt8] = [0x04, 0x01, 0x01, 0x01, 0x00, 0x18, 0x05]
    static let softwareVersion: [UInt8] = [0x04, 0x01, 0x01, 0x01, 0x04, 0x18, 0x05]

    static func aid(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16
    }

    static func aidBytes(_ aid: UInt32) -> [UInt8] {
        [UInt8(aid & 0xFF), UInt8(aid >> 8 & 0xFF), UInt8(aid >> 16 & 0xFF)]
    }
}

