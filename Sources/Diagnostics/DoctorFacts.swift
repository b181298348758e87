import GPIO

/// Everything `fpmod doctor` looked at, gathered once from the real system (SystemFacts) and
/// then judged by pure functions, so every verdict can be tested with fixture facts.
public struct DoctorFacts: Sendable {
    /// `/proc/device-tree/model` without its trailing NUL; nil when the file does not exist.
    public var deviceTreeModel: String?
    /// `uname -m`, e.g. `aarch64`, `x86_64`.
    var machine: String = ""

    /// Serial devices present (ttyAMA*, ttyS* with hardware, ttyUSB*, ttyACM*, serial*, by-id links).
    var serialDevices: [String] = []
    /// The serial port under examination; nil when none was given and the board suggests none.
    public var port: PortFacts?
    /// `/dev/serial0` and `/dev/serial1` targets by alias (`"serial0": "ttyS0"`).
    var serialAliases: [String: String] = [:]
    /// Whether `/dev/ttyAMA0` exists (the Pi 5's pins 8/10 UART once uart0 is enabled).
    var ttyAMA0Exists = false
    /// The firmware's config.txt, from /boot/firmware or /boot; nil when neither exists.
    var bootConfig: TextFile?
    /// The kernel command line file cmdline.txt next to config.txt.
    var bootCmdline: TextFile?
    /// `/proc/cmdline`: the command line the running kernel was booted with.
    var kernelCmdline: String?
    /// Serial gettys running, by tty name (`"ttyS0": "serial-getty@ttyS0.service is active"`);
    /// nil when it could not be found out.
    var activeGettys: [String: String]? = [:]
    /// Whether ModemManager runs; nil when unknown.
    var modemManagerActive: Bool?

    var user = UserFacts()
    /// `/dev/gpiochipN` character devices as `LibgpiodChip.listChips()` saw them.
    var gpioChips: [GPIOChipInfo] = []
    /// Symlinked chip names and their targets (`"gpiochip4": "gpiochip0"` on current Pi 5 kernels).
    var gpioChipAliases: [String: String] = [:]
    /// The gpiochip device nodes, for the permission check.
    var gpioNodes: [FileNode] = []

    public var spi = SPIFacts()

    /// The keypad the config names; nil when it names none.
    public var keypad: KeypadFacts?
    /// The Wiegand reader's and panel's lines beside the door's; nil when the config has neither.
    public var wiegandLines: WiegandLineFacts?
    /// The NFC reader the config names; nil when it names none.
    public var nfcReader: NFCReaderFacts?

    public var module: ModuleProbe = .notRequested
    public var store = StoreFacts(databasePath: "", keyPath: "")
}

/// The SPI side: which spidev nodes exist, spidev's message buffer, and the sensor's device
/// when one is configured (--spi / FPMOD_SPI).
public struct SPIFacts: Sendable, Equatable {
    /// The spidev node the sensor is said to be on; nil when no SPI sensor is configured.
    public var requestedDevice: String?
    /// Every /dev/spidev* node.
    var nodes: [FileNode] = []
    /// /sys/module/spidev/parameters/bufsiz; nil when the spidev module is not loaded.
    var bufferSize: Int?

    /// Whether the user asked about an SPI sensor, so missing SPI is a problem, not a note.
    var sensorConfigured: Bool { requestedDevice != nil }
}

/// A text file and where it was read from.
struct TextFile: Sendable, Equatable {
    var path: String
    var text: String
}

/// A file or device node as `stat` saw it.
public struct FileNode: Sendable, Equatable {
    var path: String
    /// Permission bits only (`0o660`).
    var mode: UInt32
    var owner: String
    public var group: String
    /// Whether this process may read and write it (`access(R_OK|W_OK)`).
    var readWritable: Bool

    var modeText: String { "0" + String(mode, radix: 8) }
}

/// Who runs fpmod.
struct UserFacts: Sendable, Equatable {
    var name = "unknown"
    var uid: UInt32 = 0
    /// Groups of this process (the login session's).
    var sessionGroups: [String] = []
    /// Groups the account belongs to in /etc/group (getgrouplist); a group here but not in
    /// `sessionGroups` was added after login.
    var accountGroups: [String] = []

    var isRoot: Bool { uid == 0 }
}

/// The serial port being examined and what opening it did.
public struct PortFacts: Sendable, Equatable {
    public enum Source: String, Sendable {
        case commandLine = "--port/FPMOD_PORT"
        case boardPreset = "board preset"
        case simulator = "--sim"
    }

    var path: String
    /// The device after following symlinks (`/dev/serial0` → `/dev/ttyS0`).
    var resolvedPath: String
    var source: Source
    /// nil when the path does not exist.
    var node: FileNode?
    public var open: PortOpenResult

    public init(path: String, resolvedPath: String, source: Source, node: FileNode?, open: PortOpenResult) {
        self.path = path
        self.resolvedPath = resolvedPath
        self.source = source
        self.node = node
        self.open = open
    }

    /// `ttyS0` for `/dev/ttyS0`, `pts/4` for `/dev/pts/4`.
    var deviceName: String { resolvedPath.hasPrefix("/dev/") ? String(resolvedPath.dropFirst(5)) : resolvedPath }

    /// A pseudo-terminal (`fpmod sim --link`, a test harness): no console or getty concerns.
    var isPseudoTerminal: Bool { resolvedPath.hasPrefix("/dev/pts/") }
}

/// What a trial exclusive open of the port did.
public enum PortOpenResult: Sendable, Equatable {
    case opened
    /// Held by another process (flock or TIOCEXCL); the holder's PID and command name when known.
    case busy(pid: Int32?, command: String?)
    case noSuchDevice(candidates: [String])
    case permissionDenied
    case notATerminal
    case failed(String)
    /// The in-process simulator's pseudo-terminal: not opened separately.
    case simulated
}

/// What talking to the module gave.
public enum ModuleProbe: Sendable, Equatable {
    /// No --port, FPMOD_PORT or --sim: the module is not contacted.
    case notRequested
    /// Not tried because the port could not be opened (the port check says why).
    case portUnavailable
    case answered(ModuleReport)
    case failed(ModuleFailure)
}

/// A module that answered.
public struct ModuleReport: Sendable, Equatable {
    public enum PasswordSource: String, Sendable {
        case factory
        case commandLine = "--password/FPMOD_PASSWORD"
        case pairing = "the store's pairing"
    }

    var familyName: String
    var familyCode: String
    var port: String
    var configuredBaud: Int
    var answeredBaud: Int
    var address: UInt32
    var passwordSource: PasswordSource
    var capacity: Int?
    var templatesUsed: Int?

    public init(familyName: String, familyCode: String, port: String, configuredBaud: Int, answeredBaud: Int,
                address: UInt32, passwordSource: PasswordSource, capacity: Int?, templatesUsed: Int?) {
        self.familyName = familyName
        self.familyCode = familyCode
        self.port = port
        self.configuredBaud = configuredBaud
        self.answeredBaud = answeredBaud
        self.address = address
        self.passwordSource = passwordSource
        self.capacity = capacity
        self.templatesUsed = templatesUsed
    }
}

/// Why the module did not open.
public enum ModuleFailure: Sendable, Equatable {
    /// Nothing answered at any rate tried.
    case silent(port: String, triedBaudRates: [Int])
    /// The module answered 0x13 (wrong password) or 0x21 (password required).
    case passwordRequired(code: UInt8)
    /// Frames came from another address.
    case wrongAddress(expected: UInt32, seen: UInt32?)
    /// Bytes came but no valid frames.
    case corrupted(String)
    /// A module answers, but not as the paired one (reset, swapped): the opener's finding.
    case notPaired(String)
    case other(String)
}

/// The template store's files and pairing.
public struct StoreFacts: Sendable, Equatable {
    public enum Pairing: Sendable, Equatable {
        /// Not read: no store, no key, or the store could not be opened (`reason`).
        case unknown(reason: String)
        case none
        case paired(family: String, address: UInt32, pairedAt: String)
    }

    var databasePath: String
    var keyPath: String
    /// nil when the file does not exist.
    var database: FileNode?
    var directory: FileNode?
    var key: FileNode?
    public var pairing: Pairing = .unknown(reason: "not read")
    /// Operations an interrupted (or older) fpmod left pending, each a sentence: what it is and
    /// what the next open of the module will do with it. Nil when the store was not read.
    var pendingOperations: [String]?
    /// Why this user cannot write the store, when it cannot (it is still read).
    var readOnly: String?
    /// The store exists but could not be opened (the error's description).
    var openError: String?
    /// An image sensor's templates as this fpmod's host matcher would take them.
    var hostTemplates: HostTemplateSurvey = .notSurveyed(reason: "not read.")

    public init(databasePath: String, keyPath: String) {
        self.databasePath = databasePath
        self.keyPath = keyPath
    }
}

/// What `fpmod doctor` found of the templates in an image sensor's store: each finger's format,
/// read from its template's header.
public enum HostTemplateSurvey: Sendable, Equatable {
    /// Not looked at, and why (no store or key, a module's store, the fingers could not be read).
    case notSurveyed(reason: String)
    /// Every finger was looked at: how many there are, and those this matcher cannot use.
    case surveyed(fingers: Int, unusable: [UnusableTemplate])
}

/// A finger whose template the host matcher refuses: while it is in the store, building the
/// gallery fails (`HostMatchingError.olderTemplateFormat` or `.unreadableTemplate`).
public struct UnusableTemplate: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// A format of an earlier fpmod matcher (`HostTemplate.olderFormats`).
        case olderFormat(Int)
        /// A format number this fpmod does not know (a newer fpmod's, or damage).
        case otherFormat(Int)
        /// No host-template header at all (a module's template, or damage).
        case notAHostTemplate
        /// The store could not decrypt it (the error's description).
        case undecryptable(String)
    }

    var user: String
    var label: String
    var slot: Int
    /// A duress finger: enrolled again with --duress.
    var isDuress: Bool
    var reason: Reason
}
