import FingerprintProtocol

/// How long the driver waits for each kind of reply (protocol.md §9.1 step 3, §9 #13).
/// Deadlines, not sleeps: a reply that comes early ends the wait at once.
public struct CommandTimeouts: Sendable, Equatable {
    /// Ordinary commands.
    public var ordinary: Duration = .seconds(1)
    /// Commands that write flash (Store, DeletChar, Empty, SetSysPara, SetPwd, SetAdder, WriteNotepad).
    public var flashWrite: Duration = .seconds(3)
    /// Search base time; `searchPerPage` is added per library page searched.
    public var searchBase: Duration = .seconds(1)
    public var searchPerPage: Duration = .milliseconds(2)
    /// AutoEnroll/AutoIdentify, per ack (they wait up to 10 s for a finger themselves).
    public var automatic: Duration = .seconds(15)
    /// Each data packet of an upload.
    public var dataPacket: Duration = .seconds(1)
    /// Once a frame has started, the longest silence between two reads before it is declared broken.
    public var interByteGap: Duration = .milliseconds(100)
    /// The longest wait for the boot byte 0x55 when connecting.
    public var bootWait: Duration = .milliseconds(300)
    /// Pause between handshake attempts (the ZW101 sample uses 40 ms).
    public var handshakeRetryGap: Duration = .milliseconds(40)
    /// Reply deadline used when probing (baud rates, families): a live module answers in a few ms.
    public var probe: Duration = .milliseconds(300)

    public init() {}

    /// The reply deadline of `command`, plus the wire time of the command and a largest reply.
    func deadline(for command: Command, baudRate: Int) -> Duration {
        let module: Duration
        switch command.instruction.rawValue {
        case 0x04, 0x1B, 0x56:
            let pages = command.parameters.count >= 5
                ? Int(command.parameters[3]) << 8 | Int(command.parameters[4]) : 1000
            module = searchBase + searchPerPage * pages
        case 0x31, 0x32, 0x54, 0x55:
            module = automatic
        default:
            module = command.instruction.writesFlash ? flashWrite : ordinary
        }
        let wire = WireTime.nanoseconds(bytes: command.parameters.count + 12 + 64, baudRate: baudRate)
        return module + .nanoseconds(Int64(wire))
    }
}
