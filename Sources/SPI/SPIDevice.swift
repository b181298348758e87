import CSpidev
import Glibc
import Posix
import Synchronization

/// A Linux spidev node (`/dev/spidevB.C`) driven through its ioctls: mode, speed, and
/// full-duplex messages of several segments.
///
/// A spidev transfer is one synchronous ioctl the kernel cannot abandon half-way, so deadlines
/// are kept by refusing a message whose time on the wire would end after them; the kernel's
/// own controller timeouts end a transfer that hangs.
public final class SPIDevice: SPIBus, Sendable {
    public let path: String
    public let mode: SPIMode
    /// The clock every transfer asks for (also set per transfer, so it holds even where the
    /// device-wide setting could not be made).
    public let speedHz: UInt32
    /// Whether the driver took and read back mode and speed. False under emulators (umockdev)
    /// that answer only SPI_IOC_MESSAGE: the mode is then whatever the device had.
    public let settingsConfirmed: Bool
    public let maxMessageBytes: Int
    private let fileDescriptor: FileDescriptor
    private let closedFlag = Mutex(false)

    private init(path: String, mode: SPIMode, speedHz: UInt32, settingsConfirmed: Bool, maxMessageBytes: Int, fileDescriptor: FileDescriptor) {
        self.path = path
        self.mode = mode
        self.speedHz = speedHz
        self.settingsConfirmed = settingsConfirmed
        self.maxMessageBytes = maxMessageBytes
        self.fileDescriptor = fileDescriptor
    }

    deinit { close() }

    /// Opens `path` and sets `mode`, `speedHz` and 8 bits per word. `maxMessageBytes` defaults
    /// to spidev's `bufsiz` as the running kernel has it (4096 unless raised).
    public static func open(
        path: String, mode: SPIMode = .mode0, speedHz: UInt32, maxMessageBytes: Int? = nil
    ) throws(SPIError) -> SPIDevice {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, O_RDWR | O_CLOEXEC)
        } catch {
            switch error {
            case .noSuchFile, .noDevice, .noSuchDeviceOrAddress:
                throw .noSuchDevice(path: path, candidates: SPIDiagnostics.existingDevices())
            case .permissionDenied, .notPermitted:
                throw .permissionDenied(path: path)
            case .isDirectory:
                throw .notSPIDevice(path: path)
            default:
                throw .io(error, operation: "open \(path)")
            }
        }
        do throws(SPIError) {
            // spidev lets any number of processes in; two drivers interleaving messages would
            // garble both. An advisory lock (holding against root too) keeps fpmods apart.
            let locked: Bool
            do { locked = try fd.lockExclusively() } catch { throw SPIError.io(error, operation: "flock \(path)") }
            guard locked else { throw SPIError.busy(path: path) }
            let confirmed = try configure(fd, path: path, mode: mode, speedHz: speedHz)
            let limit = maxMessageBytes ?? SPIDiagnostics.spidevBufferSize() ?? SPIDiagnostics.defaultBufferSize
            return SPIDevice(path: path, mode: mode, speedHz: speedHz, settingsConfirmed: confirmed,
                             maxMessageBytes: limit, fileDescriptor: fd)
        } catch {
            try? fd.close()
            throw error
        }
    }

    /// Sets and reads back mode, speed and word size. ENOTTY on these (but a working
    /// SPI_IOC_MESSAGE later) is an emulator: returns false and leaves speed to each transfer.
    /// Any other refusal is an error.
    private static func configure(_ fd: FileDescriptor, path: String, mode: SPIMode, speedHz: UInt32) throws(SPIError) -> Bool {
        var confirmed = true
        func apply(_ setting: String, _ call: () -> Int32) throws(SPIError) {
            do {
                _ = try retryingOnInterrupt(call)
            } catch .notATerminal {
                confirmed = false
            } catch {
                throw .unsupportedSetting(path: path, setting: setting, errno: error)
            }
        }
        try apply("\(mode)") { fpmod_spi_set_mode(fd.rawValue, mode.rawValue) }
        try apply("\(speedHz) Hz") { fpmod_spi_set_max_speed(fd.rawValue, speedHz) }
        try apply("8 bits per word") { fpmod_spi_set_bits_per_word(fd.rawValue, 8) }
        guard confirmed else { return false }
        var readMode: UInt32 = 0
        var readSpeed: UInt32 = 0
        guard fpmod_spi_get_mode(fd.rawValue, &readMode) == 0, fpmod_spi_get_max_speed(fd.rawValue, &readSpeed) == 0 else {
            return false
        }
        // Flags above CPOL/CPHA (CS_HIGH, LSB_FIRST …) would garble every byte to the sensor.
        if readMode & 0x3 != mode.rawValue || readMode & ~UInt32(0x3) & 0x3c != 0 {
            throw .unsupportedSetting(path: path, setting: "\(mode) (the driver reports 0x\(String(readMode, radix: 16)))", errno: .invalidArgument)
        }
        return readSpeed == speedHz
    }

    public var description: String { "\(path) (\(mode), \(speedHz) Hz)" }

    public func transfer(_ segments: [SPISegment], deadline: ContinuousClock.Instant) throws(SPIError) -> [[UInt8]] {
        if closedFlag.withLock({ $0 }) { throw .closed(path: path) }
        guard !segments.isEmpty, segments.count <= Int(fpmod_spi_max_segments()) else {
            throw .io(.invalidArgument, operation: "transfer of \(segments.count) segments on \(path)")
        }
        for segment in segments where segment.transmit.map({ $0.count != segment.count }) ?? false {
            throw .io(.invalidArgument, operation: "transfer on \(path): a segment's count differs from its bytes")
        }
        let clocked = segments.reduce(0) { $0 + $1.count }
        // spidev counts what it must copy each way against its buffer.
        let sent = segments.reduce(0) { $0 + ($1.transmit == nil ? 0 : $1.count) }
        let received = segments.reduce(0) { $0 + ($1.receives ? $1.count : 0) }
        if max(sent, received) > maxMessageBytes {
            throw .messageTooLong(path: path, bytes: max(sent, received), limit: maxMessageBytes)
        }
        let wireTime = Duration.nanoseconds(Int64(clocked) * 8 * 1_000_000_000 / Int64(max(speedHz, 1)))
        if ContinuousClock.now + wireTime > deadline {
            throw .wouldMissDeadline(path: path, bytes: clocked, speedHz: speedHz)
        }
        return try run(segments, clocked: clocked)
    }

    /// Lays every segment's bytes out in one buffer each way, so all pointers stay valid for
    /// the one ioctl, then splits what came back.
    private func run(_ segments: [SPISegment], clocked: Int) throws(SPIError) -> [[UInt8]] {
        let transmitBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(clocked, 1))
        let receiveBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(clocked, 1))
        defer {
            transmitBuffer.deallocate()
            receiveBuffer.deallocate()
        }
        receiveBuffer.initialize(repeating: 0)
        var described: [fpmod_spi_segment] = []
        var offset = 0
        for segment in segments {
            var entry = fpmod_spi_segment()
            entry.length = UInt32(segment.count)
            entry.speed_hz = speedHz
            entry.delay_usecs = segment.delayMicroseconds
            entry.cs_change = segment.csChange ? 1 : 0
            if let bytes = segment.transmit {
                _ = UnsafeMutableBufferPointer(rebasing: transmitBuffer[offset..<offset + bytes.count]).initialize(from: bytes)
                entry.tx = UnsafePointer(transmitBuffer.baseAddress! + offset)
            }
            if segment.receives { entry.rx = receiveBuffer.baseAddress! + offset }
            described.append(entry)
            offset += segment.count
        }
        let result = described.withUnsafeBufferPointer { entries in
            fpmod_spi_transfer(fileDescriptor.rawValue, entries.baseAddress, UInt32(entries.count))
        }
        if result < 0 {
            let error = Errno.current
            switch error {
            case .notATerminal: throw .notSPIDevice(path: path)
            case .messageTooLong: throw .messageTooLong(path: path, bytes: clocked, limit: maxMessageBytes)
            default: throw .transferFailed(path: path, errno: error)
            }
        }
        if Int(result) != clocked { throw .transferFailed(path: path, errno: .ioError) }
        var replies: [[UInt8]] = []
        offset = 0
        for segment in segments {
            replies.append(segment.receives ? Array(receiveBuffer[offset..<offset + segment.count]) : [])
            offset += segment.count
        }
        return replies
    }

    /// Closes the device. Idempotent.
    public func close() {
        let wasClosed = closedFlag.withLock { closed in
            defer { closed = true }
            return closed
        }
        if !wasClosed { try? fileDescriptor.close() }
    }
}
