import Transport
import FingerprintProtocol
import Posix
import SerialPort

/// A blocking driver for one fingerprint module on one byte transport (protocol.md).
///
/// One call per instruction, each returning a typed result or throwing `ModuleError`. Every
/// call is a strict request/response on the calling thread: the class is not `Sendable`; give
/// it to one thread (the door loop's module thread, or the CLI) and keep it there.
///
/// Learned, never assumed: capacity and packet size come from ReadSysPara, template size and
/// image geometry from ReadProdInfo (R50x) or the first upload.
public final class FingerprintModule {
    /// Where the bytes go.
    public let transport: any ByteTransport
    /// The module address frames are sent to and replies must come from.
    public internal(set) var address: UInt32
    /// The password sent with VfyPwd after every power-up (0 = factory, no VfyPwd needed).
    public internal(set) var password: UInt32
    /// The firmware family: given, or detected by `connect()`; nil until then.
    public internal(set) var family: ModuleFamily?
    /// Per-command reply deadlines; tune for slow links or simulated datasheet timing.
    public var timeouts = CommandTimeouts()
    /// The clock every deadline is measured on: the monotonic clock, or a harness's virtual time
    /// (the module fuzzer's transport answers at once and moves this clock to each deadline).
    public var now: () -> ContinuousClock.Instant = { ContinuousClock.now }
    /// Called after every exchange (success or failure) with its timestamps; see `ExchangeLog`.
    public var exchangeObserver: ((ExchangeRecord) -> Void)?
    /// Called before each baud rate a probe tries (`reconnect`): the rate, its number, how many.
    public var probeObserver: ((_ rate: Int, _ number: Int, _ count: Int) -> Void)?
    /// Called after each data packet of an upload with its number (1, 2, …). Throwing aborts the
    /// transfer cleanly (the rest is drained) and the error comes out as `.transport`. A hook for
    /// progress and for crash tests that must stop a process in the middle of a transfer.
    public var dataPacketObserver: ((Instruction, Int) throws -> Void)?

    /// The last ReadSysPara block (refreshed after every SetSysPara).
    public internal(set) var systemParameters: SystemParameters?
    /// ReadProdInfo of R50x modules.
    public internal(set) var productInfo: ProductInfo?
    /// Template size in bytes: from product info, else learned at the first template upload.
    public internal(set) var templateSize: Int?
    /// The library index as last read with `readIndexTable()` and kept current by store/delete/empty.
    public internal(set) var indexTable: IndexTable?
    /// The baud rate at which the module last answered a connection or probe.
    public internal(set) var answeredBaudRate: Int?
    /// True once the boot byte 0x55 was seen (at connect or soft reset).
    public internal(set) var bootByteSeen = false

    // Exchange state, reused between calls to keep the hot path allocation-light.
    var decoder = FrameDecoder()
    var sendBuffer: [UInt8] = []
    /// The first bytes received during the current exchange, for diagnostics (wrong address …).
    var receivedHead: [UInt8] = []
    /// Set while the opening sequence runs, so a 0x21 or boot byte inside it does not recurse.
    var inOpeningSequence = false
    /// Wire time still queued on the port (after a download), added to the next deadline.
    var queuedWireTime: Duration = .zero

    /// Wraps an open transport. Nothing is sent until `connect()` or the first call.
    public init(transport: any ByteTransport, address: UInt32 = Frame.defaultAddress, password: UInt32 = 0,
                family: ModuleFamily? = nil) {
        self.transport = transport
        self.address = address
        self.password = password
        self.family = family
        sendBuffer.reserveCapacity(64)
        receivedHead.reserveCapacity(Self.receivedHeadLimit)
    }

    static let receivedHeadLimit = 64

    /// The family's profile; the R30x core set while the family is still unknown.
    public var profile: FamilyProfile { (family ?? .r30x).profile }

    /// Library slots: ReadSysPara, else product info.
    public var capacity: Int? { systemParameters?.capacity ?? productInfo?.capacity }

    /// Payload bytes per data packet (ReadSysPara word 6).
    public var packetSize: Int? { systemParameters?.packetSize }

    /// Image geometry for UpImage: product info, else the family's.
    public var imageSize: (width: Int, height: Int) {
        if let info = productInfo, info.imageWidth > 0, info.imageHeight > 0 {
            return (info.imageWidth, info.imageHeight)
        }
        return (profile.imageWidth, profile.imageHeight)
    }
}
