import Administration
import TemplateStore

/// How the service reaches its fingerprint reader, at start and at every reconnect after a
/// loss. Either kind ends up as `any FingerprintReader` on the worker thread; the policy never
/// sees which one answered.
public struct ReaderConnection: Sendable {
    /// Makes a reader that matches on the host (an image sensor + `HostReader`) over `store`.
    /// Called on the worker thread; the reader it returns stays there until it is closed.
    public typealias OpenHostReader = @Sendable (_ store: TemplateStore) throws -> any FingerprintReader

    enum Kind: Sendable {
        /// Opened through `AdministrationOpener`: pairing checked, interrupted operations settled.
        case module(ModuleConnection)
        case hostMatching(OpenHostReader)
    }

    let kind: Kind
    /// The reader sees a finger come on its own interrupt line (a real FPC1020's IRQ, which its
    /// driver holds): the service requests no touch line and waits on the reader instead. False
    /// when a touch line of the board (or the simulated one) says when a finger is down.
    public let detectsFingerItself: Bool
    /// Getting ready for scans (a host reader builds its gallery): run on the worker thread
    /// when the reader opened, after every enroll or delete and at the idle health check, so
    /// that cost is paid then rather than by the next touch.
    public let prepare: (@Sendable (any FingerprintReader) throws -> Void)?

    /// A UART module (R30x, AS608, R50x…) that matches by itself.
    public static func module(_ connection: ModuleConnection) -> ReaderConnection {
        ReaderConnection(kind: .module(connection), detectsFingerItself: false, prepare: nil)
    }

    /// A bare image sensor whose images the host matches (`HostReader`); `open` builds it,
    /// again after every loss, so it should open the device itself (the SPI handle, the lines).
    public static func hostMatching(detectsFingerItself: Bool = false,
                                    prepare: (@Sendable (any FingerprintReader) throws -> Void)? = nil,
                                    _ open: @escaping OpenHostReader) -> ReaderConnection {
        ReaderConnection(kind: .hostMatching(open), detectsFingerItself: detectsFingerItself, prepare: prepare)
    }
}
