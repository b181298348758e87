// The libgpiod backend. Every call into libgpiod 1.6 (the v1 API shipped by Debian 12 and
// Raspberry Pi OS bookworm) is in this file, so moving to the v2 API touches nothing else.

import CGPIOD
import Foundation
import Glibc
import Synchronization

/// A real GPIO chip (`/dev/gpiochipN`) driven through libgpiod v1.
///
/// Sendable by construction: the `gpiod_chip` pointer never changes after `init`, and the one
/// call that mutates the chip structure (`gpiod_chip_get_line`, which caches line objects)
/// runs under `lock`. Each line serialises its own calls.
public final class LibgpiodChip: GPIOChip, @unchecked Sendable {
    public let name: String
    public let label: String
    public let lineCount: Int
    /// The device path the chip was opened from.
    public let path: String
    private let chip: OpaquePointer
    private let lock = Mutex(())

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
        guard let opened = gpiod_chip_open(path) else {
            let code = errno
            switch code {
            case EACCES, EPERM:
                throw .permissionDenied(path: path)
            case ENOENT, ENODEV, ENXIO, ENOTTY, ENOTDIR:
                throw .chipNotFound(requested: requested, available: Self.listChips())
            default:
                throw .system(operation: "gpiod_chip_open", chip: path, offset: nil, errno: code)
            }
        }
        chip = opened
        self.path = path
        name = gpiod_chip_name(opened).map { String(cString: $0) } ?? path
        label = gpiod_chip_label(opened).map { String(cString: $0) } ?? ""
        lineCount = Int(gpiod_chip_num_lines(opened))
    }

    deinit {
        // Lines hold a strong reference to their chip, so none is still requested here.
        gpiod_chip_close(chip)
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
            guard let opened = gpiod_chip_open(path) else {
                return GPIOChipInfo(name: name, path: path, label: "", lineCount: 0, problem: errnoText(errno))
            }
            defer { gpiod_chip_close(opened) }
            return GPIOChipInfo(
                name: name, path: path,
                label: gpiod_chip_label(opened).map { String(cString: $0) } ?? "",
                lineCount: Int(gpiod_chip_num_lines(opened)))
        }
    }

    static func devicePath(for identifier: String) -> String? {
        if identifier.contains("/") { return identifier }
        if let number = Int(identifier), number >= 0 { return "/dev/gpiochip\(number)" }
        if identifier.hasPrefix("gpiochip") { return "/dev/" + identifier }
        return listChips().first { $0.label == identifier }?.path
    }

    /// Calls `gpiod_chip_find_line`.
    public func lineOffset(named lineName: String) -> Int? {
        lock.withLock { _ in
            gpiod_chip_find_line(chip, lineName).map { Int(gpiod_line_offset($0)) }
        }
    }

    public func requestInput(
        offset: Int, consumer: String, edges: EdgeDetection, bias: Bias, activeLow: Bool
    ) throws(GPIOError) -> any InputLine {
        let line = try line(at: offset)
        let flags = Self.requestFlags(bias: bias, activeLow: activeLow)
        let result: Int32
        switch edges {
        case .none: result = gpiod_line_request_input_flags(line, consumer, flags)
        case .rising: result = gpiod_line_request_rising_edge_events_flags(line, consumer, flags)
        case .falling: result = gpiod_line_request_falling_edge_events_flags(line, consumer, flags)
        case .both: result = gpiod_line_request_both_edges_events_flags(line, consumer, flags)
        }
        if result != 0 { throw requestError(errno, line: line, offset: offset, bias: bias) }
        let descriptor = edges == .none ? -1 : gpiod_line_event_get_fd(line)
        return LibgpiodInputLine(chip: self, line: line, offset: offset, fileDescriptor: descriptor)
    }

    public func requestOutput(
        offset: Int, consumer: String, initialValue: Bool, activeLow: Bool
    ) throws(GPIOError) -> any OutputLine {
        let line = try line(at: offset)
        let flags = Self.requestFlags(bias: .asIs, activeLow: activeLow)
        if gpiod_line_request_output_flags(line, consumer, flags, initialValue ? 1 : 0) != 0 {
            throw requestError(errno, line: line, offset: offset, bias: .asIs)
        }
        return LibgpiodOutputLine(chip: self, line: line, offset: offset)
    }

    private func line(at offset: Int) throws(GPIOError) -> OpaquePointer {
        guard (0..<lineCount).contains(offset) else {
            throw .offsetOutOfRange(chip: name, offset: offset, lineCount: lineCount)
        }
        let line: OpaquePointer? = lock.withLock { _ in gpiod_chip_get_line(chip, UInt32(offset)) }
        guard let line else {
            throw .system(operation: "gpiod_chip_get_line", chip: name, offset: offset, errno: errno)
        }
        return line
    }

    private static func requestFlags(bias: Bias, activeLow: Bool) -> Int32 {
        var flags = activeLow ? Int(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        switch bias {
        case .asIs: break
        case .disabled: flags |= Int(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        case .pullUp: flags |= Int(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: flags |= Int(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        }
        return Int32(flags)
    }

    private func requestError(_ code: Int32, line: OpaquePointer, offset: Int, bias: Bias) -> GPIOError {
        switch code {
        case EBUSY:
            // Refresh the line info so the kernel tells us who holds it.
            _ = gpiod_line_update(line)
            let holder = gpiod_line_consumer(line).map { String(cString: $0) }
            return .lineBusy(chip: name, offset: offset, consumer: holder)
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

/// An input requested through libgpiod. The `gpiod_line` pointer is fixed; `released` guards
/// every call, so the line is never used after `gpiod_line_release`.
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

    /// Calls `gpiod_line_get_value` (logical level: the request's ACTIVE_LOW flag applies).
    func value() throws(GPIOError) -> Bool {
        try released.withLock { isReleased throws(GPIOError) -> Bool in
            guard !isReleased else { throw .lineReleased(chip: chip.name, offset: offset) }
            let level = gpiod_line_get_value(line)
            guard level >= 0 else { throw chip.failure("gpiod_line_get_value", offset: offset, errno: errno) }
            return level == 1
        }
    }

    /// Polls the event descriptor with a zero timeout and reads with
    /// `gpiod_line_event_read_fd_multiple` while it is readable, so it never blocks.
    func readEvents() throws(GPIOError) -> [EdgeEvent] {
        try released.withLock { isReleased throws(GPIOError) -> [EdgeEvent] in
            guard !isReleased else { throw .lineReleased(chip: chip.name, offset: offset) }
            guard fileDescriptor >= 0 else { return [] }
            var events: [EdgeEvent] = []
            var buffer = [gpiod_line_event](repeating: gpiod_line_event(), count: 16)
            while true {
                var ready = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, 0)
                if polled < 0 && errno == EINTR { continue }
                if polled < 0 { throw chip.failure("poll", offset: offset, errno: errno) }
                if polled == 0 { return events }
                let count = gpiod_line_event_read_fd_multiple(fileDescriptor, &buffer, UInt32(buffer.count))
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN { return events }
                    throw chip.failure("gpiod_line_event_read_fd_multiple", offset: offset, errno: errno)
                }
                for event in buffer.prefix(Int(count)) {
                    let nanoseconds = UInt64(event.ts.tv_sec) * 1_000_000_000 + UInt64(event.ts.tv_nsec)
                    let kind: EdgeEvent.Kind =
                        event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE) ? .rising : .falling
                    events.append(EdgeEvent(kind: kind, timestampNanoseconds: nanoseconds, offset: offset))
                }
            }
        }
    }

    /// Calls `gpiod_line_release` once.
    func release() {
        released.withLock { isReleased in
            guard !isReleased else { return }
            isReleased = true
            gpiod_line_release(line)
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

    /// Calls `gpiod_line_set_value` (logical level: the request's ACTIVE_LOW flag applies).
    func set(_ active: Bool) throws(GPIOError) {
        try released.withLock { isReleased throws(GPIOError) in
            guard !isReleased else { throw .lineReleased(chip: chip.name, offset: offset) }
            if gpiod_line_set_value(line, active ? 1 : 0) != 0 {
                throw chip.failure("gpiod_line_set_value", offset: offset, errno: errno)
            }
        }
    }

    /// Drives the line inactive, then calls `gpiod_line_release`: the kernel keeps the last
    /// level after release, so this is what keeps a relay from staying energised.
    func release() {
        released.withLock { isReleased in
            guard !isReleased else { return }
            isReleased = true
            _ = gpiod_line_set_value(line, 0)
            gpiod_line_release(line)
        }
    }
}
