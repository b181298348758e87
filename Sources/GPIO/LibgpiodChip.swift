// The libgpiod backend. Every call into libgpiod goes through CLibgpiod, whose C side is
// compiled against the <gpiod.h> the build finds: the v1 API (libgpiod 1.6: Debian 12,
// Raspberry Pi OS bookworm) or the v2 API (libgpiod 2.x: Debian 13, Pi OS trixie). This file
// is the same for both; `LibgpiodChip.apiMajor` says which one was built.

import CLibgpiod
import Foundation
import Glibc
import Synchronization

/// A real GPIO chip (`/dev/gpiochipN`) driven through libgpiod (1.x or 2.x).
///
/// Sendable by construction: the chip pointer never changes after `init`, and every call that
/// touches the chip structure (libgpiod 1 caches line objects in it) runs under `lock`. Each
/// line serialises its own calls.
public final class LibgpiodChip: GPIOChip, @unchecked Sendable {
    public let name: String
    public let label: String
    public let lineCount: Int
    /// The device path the chip was opened from.
    public let path: String
    private let chip: OpaquePointer
    private let lock = Mutex(())

    /// The libgpiod API this build speaks: 1 (libgpiod 1.x) or 2 (libgpiod 2.x).
    public static var apiMajor: Int { Int(fpmod_gpiod_api_major()) }
    /// The version of the libgpiod library loaded at run time, e.g. "1.6.3" or "2.2.1".
    public static var libraryVersion: String {
        fpmod_gpiod_library_version().map { String(cString: $0) } ?? "unknown"
    }
    /// Whether the kernel's input debouncer can be requested: only through the v2 API
    /// (libgpiod 1 speaks the kernel's uAPI v1, which has none).
    public static var supportsDebounce: Bool { apiMajor >= 2 }

    /// Opens a chip by name (`gpiochip0`), number (`0`), path (`/dev/gpiochip0`) or
    /// label (`pinctrl-rp1`), in that order of interpretation.
    /// Calls `gpiod_chip_open` (labels are looked up with `listChips()`).
    public convenience init(_ identifier: String) throws(GPIOError) {
        guard let path = Self.devicePath(for: identifier) else {
            throw .chipNotFound(requested: identifier, available: Self.listChips())
        }
        try self.init(path: path, requested: identifier)
    }

    /// Opens the chip at `path` with `gpiod_chip_open`.
    public convenience init(path: String) throws(GPIOError) {
        try self.init(path: path, requested: path)
    }

    private init(path: String, requested: String) throws(GPIOError) {
        let opened: OpaquePointer
        let info: fpmod_gpiod_chip_info
        do throws(Errno) {
            (opened, info) = try Self.open(path)
        } catch {
            switch error.code {
            case EACCES, EPERM:
                throw .permissionDenied(path: path)
            case ENOENT, ENODEV, ENXIO, ENOTTY, ENOTDIR, EINVAL:
                throw .chipNotFound(requested: requested, available: Self.listChips())
            default:
                throw .system(operation: "gpiod_chip_open", chip: path, offset: nil, errno: error.code)
            }
        }
        chip = opened
        self.path = path
        let chipName = Self.text(info.name)
        name = chipName.isEmpty ? path : chipName
        label = Self.text(info.label)
        lineCount = Int(info.num_lines)
    }

    deinit {
        // Lines hold a strong reference to their chip, so none is still requested here.
        fpmod_gpiod_chip_close(chip)
    }

    /// The errno of a failed call, carried as a typed error.
    private struct Errno: Error { var code: Int32 }

    /// `fpmod_gpiod_chip_open` (gpiod_chip_open) and `fpmod_gpiod_chip_get_info`; the chip is
    /// closed again when its info cannot be read.
    private static func open(_ path: String) throws(Errno) -> (OpaquePointer, fpmod_gpiod_chip_info) {
        guard let opened = fpmod_gpiod_chip_open(path) else { throw Errno(code: errno) }
        var info = fpmod_gpiod_chip_info()
        guard fpmod_gpiod_chip_get_info(opened, &info) == 0 else {
            let code = errno
            fpmod_gpiod_chip_close(opened)
            throw Errno(code: code)
        }
        return (opened, info)
    }

    /// A NUL-terminated `char[N]` field of a C struct as a String.
    private static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Every `/dev/gpiochipN` character device (symlinks such as the Pi 5's gpiochip4 → gpiochip0
    /// alias are skipped), sorted by number, with label and line count where it can be opened.
    public static func listChips(deviceDirectory: String = "/dev") -> [GPIOChipInfo] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: deviceDirectory)) ?? []
        let names = entries
            .filter { $0.hasPrefix("gpiochip") }
            .sorted { (Int($0.dropFirst(8)) ?? .max, $0) < (Int($1.dropFirst(8)) ?? .max, $1) }
        return names.compactMap { name -> GPIOChipInfo? in
            let path = deviceDirectory + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFCHR else { return nil }
            do throws(Errno) {
                let (opened, info) = try open(path)
                fpmod_gpiod_chip_close(opened)
                return GPIOChipInfo(name: name, path: path, label: text(info.label), lineCount: Int(info.num_lines))
            } catch {
                return GPIOChipInfo(name: name, path: path, label: "", lineCount: 0, problem: errnoText(error.code))
            }
        }
    }

    static func devicePath(for identifier: String) -> String? {
        if identifier.contains("/") { return identifier }
        if let number = Int(identifier), number >= 0 { return "/dev/gpiochip\(number)" }
        if identifier.hasPrefix("gpiochip") { return "/dev/" + identifier }
        return listChips().first { $0.label == identifier }?.path
    }

    /// Calls `fpmod_gpiod_chip_line_offset` (v1 `gpiod_chip_find_line`, v2
    /// `gpiod_chip_get_line_offset_from_name`).
    public func lineOffset(named lineName: String) -> Int? {
        lock.withLock { _ in
            let offset = fpmod_gpiod_chip_line_offset(chip, lineName)
            return offset >= 0 ? Int(offset) : nil
        }
    }

    public var supportsDebounce: Bool { Self.supportsDebounce }

    /// Requests an input with the kernel's debouncer set to `debounceMicroseconds` (0: none).
    /// A nonzero period needs the v2 API (`supportsDebounce`); libgpiod 1 refuses it.
    public func requestInput(
        offset: Int, consumer: String, edges: EdgeDetection, bias: Bias, activeLow: Bool,
        debounceMicroseconds: Int
    ) throws(GPIOError) -> any InputLine {
        var settings = fpmod_gpiod_line_settings()
        settings.direction = Int32(FPMOD_GPIOD_INPUT.rawValue)
        settings.edges = Int32(Self.edgeCode(edges))
        settings.bias = Int32(Self.biasCode(bias))
        settings.active_low = activeLow ? 1 : 0
        settings.debounce_us = UInt(max(0, debounceMicroseconds))
        let line = try request(offset: offset, consumer: consumer, settings: settings, bias: bias)
        return LibgpiodInputLine(chip: self, line: line, offset: offset, fileDescriptor: fpmod_gpiod_line_fd(line))
    }

    public func requestOutput(
        offset: Int, consumer: String, initialValue: Bool, activeLow: Bool
    ) throws(GPIOError) -> any OutputLine {
        var settings = fpmod_gpiod_line_settings()
        settings.direction = Int32(FPMOD_GPIOD_OUTPUT.rawValue)
        settings.bias = Int32(FPMOD_GPIOD_BIAS_AS_IS.rawValue)
        settings.active_low = activeLow ? 1 : 0
        settings.output_value = initialValue ? 1 : 0
        let line = try request(offset: offset, consumer: consumer, settings: settings, bias: .asIs)
        return LibgpiodOutputLine(chip: self, line: line, offset: offset)
    }

    /// Calls `fpmod_gpiod_line_request` (v1 `gpiod_line_request`, v2 `gpiod_chip_request_lines`).
    private func request(
        offset: Int, consumer: String, settings: fpmod_gpiod_line_settings, bias: Bias
    ) throws(GPIOError) -> OpaquePointer {
        guard (0..<lineCount).contains(offset) else {
            throw .offsetOutOfRange(chip: name, offset: offset, lineCount: lineCount)
        }
        var settings = settings
        let result: Result<OpaquePointer, GPIOError> = lock.withLock { _ in
            if let line = fpmod_gpiod_line_request(chip, UInt32(offset), consumer, &settings) {
                return .success(line)
            }
            return .failure(requestError(errno, offset: offset, bias: bias, debounce: settings.debounce_us))
        }
        return try result.get()
    }

    private static func edgeCode(_ edges: EdgeDetection) -> UInt32 {
        switch edges {
        case .none: FPMOD_GPIOD_EDGES_NONE.rawValue
        case .rising: FPMOD_GPIOD_EDGES_RISING.rawValue
        case .falling: FPMOD_GPIOD_EDGES_FALLING.rawValue
        case .both: FPMOD_GPIOD_EDGES_BOTH.rawValue
        }
    }

    private static func biasCode(_ bias: Bias) -> UInt32 {
        switch bias {
        case .asIs: FPMOD_GPIOD_BIAS_AS_IS.rawValue
        case .disabled: FPMOD_GPIOD_BIAS_DISABLED.rawValue
        case .pullUp: FPMOD_GPIOD_BIAS_PULL_UP.rawValue
        case .pullDown: FPMOD_GPIOD_BIAS_PULL_DOWN.rawValue
        }
    }

    /// Runs under `lock` (the consumer lookup touches the chip's line cache on v1).
    private func requestError(_ code: Int32, offset: Int, bias: Bias, debounce: UInt) -> GPIOError {
        switch code {
        case EBUSY:
            // Ask the kernel who holds the line (fpmod_gpiod_line_consumer).
            var buffer = [CChar](repeating: 0, count: 64)
            let named = fpmod_gpiod_line_consumer(chip, UInt32(offset), &buffer, buffer.count)
            let holder = named == 1
                ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                : nil
            return .lineBusy(chip: name, offset: offset, consumer: holder)
        case ENOTSUP where debounce != 0, EOPNOTSUPP where debounce != 0:
            return .debounceUnsupported(chip: name, offset: offset, libgpiodVersion: Self.libraryVersion)
        case EINVAL where bias != .asIs, EOPNOTSUPP where bias != .asIs, ENOTSUP where bias != .asIs:
            return .biasUnsupported(chip: name, offset: offset, bias: bias)
        case EACCES, EPERM:
            return .permissionDenied(path: path)
        default:
            return .system(operation: "gpiod_line_request", chip: name, offset: offset, errno: code)
        }
    }

    fileprivate func failure(_ operation: String, offset: Int, errno code: Int32) -> GPIOError {
        .system(operation: operation, chip: name, offset: offset, errno: code)
    }
}

/// An input requested through libgpiod. The line pointer is fixed; `released` guards every
/// call, so the line is never used after `fpmod_gpiod_line_release`.
private final class LibgpiodInputLine: InputLine, @unchecked Sendable {
    let offset: Int
    let fileDescriptor: Int32
    private let chip: LibgpiodChip  // keeps the chip open while the line lives
    private let line: OpaquePointer
    private let released = Mutex(false)

    init(chip: LibgpiodChip, line: OpaquePointer, offset: Int, fileDescriptor: Int32) {
        self.chip = chip
        self.line = line
        self.offset = offset
        self.fileDescriptor = fileDescriptor
    }

    deinit { release() }

    /// Calls `fpmod_gpiod_line_get_value` (logical level: the request's active-low applies).
    func value() throws(GPIOError) -> Bool {
        try released.withLock { isReleased throws(GPIOError) -> Bool in
            guard !isReleased else { throw .lineReleased(chip: chip.name, offset: offset) }
            let level = fpmod_gpiod_line_get_value(line)
            guard level >= 0 else { throw chip.failure("gpiod_line_get_value", offset: offset, errno: errno) }
            return level == 1
        }
    }

    /// Calls `fpmod_gpiod_line_read_edges` (a zero-timeout wait, then a read) until nothing
    /// is pending, so it never blocks.
    func readEvents() throws(GPIOError) -> [EdgeEvent] {
        try released.withLock { isReleased throws(GPIOError) -> [EdgeEvent] in
            guard !isReleased else { throw .lineReleased(chip: chip.name, offset: offset) }
            guard fileDescriptor >= 0 else { return [] }
            var events: [EdgeEvent] = []
            var buffer = [fpmod_gpiod_edge](repeating: fpmod_gpiod_edge(), count: 16)
            while true {
                let count = fpmod_gpiod_line_read_edges(line, &buffer, buffer.count)
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN { return events }
                    throw chip.failure("gpiod_line_read_edge_events", offset: offset, errno: errno)
                }
                if count == 0 { return events }
                for edge in buffer.prefix(Int(count)) {
                    events.append(EdgeEvent(
                        kind: edge.rising != 0 ? .rising : .falling,
                        timestampNanoseconds: edge.timestamp_ns, offset: offset))
                }
            }
        }
    }

    /// Calls `fpmod_gpiod_line_release` once.
    func release() {
        released.withLock { isReleased in
            guard !isReleased else { return }
            isReleased = true
            fpmod_gpiod_line_release(line)
        }
    }
}

/// An output requested through libgpiod; same locking as `LibgpiodInputLine`.
private final class LibgpiodOutputLine: OutputLine, @unchecked Sendable {
    let offset: Int
    private let chip: LibgpiodChip
    private let line: OpaquePointer
    private let released = Mutex(false)

    init(chip: LibgpiodChip, line: OpaquePointer, offset: Int) {
        self.chip = chip
        self.line = line
        self.offset = offset
    }

    deinit { release() }

    /// Calls `fpmod_gpiod_line_set_value` (logical level: the request's active-low applies).
    func set(_ active: Bool) throws(GPIOError) {
        try released.withLock { isReleased throws(GPIOError) in
            guard !isReleased else { throw .lineReleased(chip: chip.name, offset: offset) }
            if fpmod_gpiod_line_set_value(line, active ? 1 : 0) != 0 {
                throw chip.failure("gpiod_line_set_value", offset: offset, errno: errno)
            }
        }
    }

    /// Drives the line inactive, then calls `fpmod_gpiod_line_release`: the kernel keeps the
    /// last level after release, so this is what keeps a relay from staying energised.
    func release() {
        released.withLock { isReleased in
            guard !isReleased else { return }
            isReleased = true
            _ = fpmod_gpiod_line_set_value(line, 0)
            fpmod_gpiod_line_release(line)
        }
    }
}
