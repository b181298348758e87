import CEvdev
import Glibc
import Keypad
import Posix

/// A keypad on the Linux input subsystem (`/dev/input/eventN`) through libevdev: a USB numeric
/// keypad, or a matrix or GPIO keypad that the kernel's `matrix-keypad` / `gpio-keys` drivers
/// present (a Pi overlay). Grabbed exclusively, so no console or desktop sees the digits.
/// Timestamps are the kernel's, on `CLOCK_MONOTONIC`.
///
/// One owner reads it; `deinit` lets go of the grab and closes the device.
public final class EvdevKeypad {
    public let path: String
    /// The name the device gives itself (escaped when shown).
    public let name: String
    /// Readable when keys wait: for a caller's own poll set (the service's loop). Then
    /// `read(until: .now)` takes them without waiting.
    public var fileDescriptor: FileDescriptor { descriptor }
    private let descriptor: FileDescriptor
    private let device: OpaquePointer

    /// What `read` found.
    public enum Reading: Equatable, Sendable {
        /// A key a door uses was pressed (key repeats and releases are not presses).
        case pressed(KeypadKey, at: Double)
        /// The kernel's buffer overflowed and events were lost: an entry in progress is not
        /// what was typed and must be dropped.
        case eventsLost
    }

    /// Readings returned by one `read` at most; the rest wait for the next.
    static let readingsPerRead = 64

    /// Opens the device (`open(2)`, `libevdev_new_from_fd`), checks that it has digit keys,
    /// sets its clock (`libevdev_set_clock_id`) and grabs it (`libevdev_grab`).
    public init(path: String) throws(KeypadInputError) {
        let opened = try Self.openDevice(path)
        descriptor = opened.descriptor
        device = opened.device
        self.path = path
        name = opened.name
        guard Self.hasDigitKeys(device) else {
            Self.release(device, descriptor)
            throw .notAKeypad(path: path, name: name)
        }
        var status = libevdev_set_clock_id(device, CLOCK_MONOTONIC)
        if status == 0 { status = libevdev_grab(device, LIBEVDEV_GRAB) } else {
            Self.release(device, descriptor)
            throw .system(call: "libevdev_set_clock_id", path: path, errno: -status)
        }
        guard status == 0 else {
            Self.release(device, descriptor)
            throw -status == EBUSY ? .busy(path: path) : .system(call: "libevdev_grab", path: path, errno: -status)
        }
    }

    deinit {
        _ = libevdev_grab(device, LIBEVDEV_UNGRAB)
        Self.release(device, descriptor)
    }

    /// Waits until keys arrive or `deadline` passes (`poll(2)`), then takes what the kernel has
    /// (`libevdev_next_event`), at most `readingsPerRead`. Empty when the deadline passed.
    public func read(until deadline: ContinuousClock.Instant?) throws(KeypadInputError) -> [Reading] {
        let ready: PollEvents
        do {
            ready = try poll(descriptor, .readable, deadline: deadline)
        } catch {
            throw .system(call: "poll", path: path, errno: error.rawValue)
        }
        if ready.contains(.hangUp) || ready.contains(.error) || ready.contains(.invalid) { throw .gone(path: path) }
        guard ready.contains(.readable) else { return [] }
        var readings: [Reading] = []
        var event = input_event()
        while readings.count < Self.readingsPerRead {
            let status = libevdev_next_event(device, LIBEVDEV_READ_FLAG_NORMAL.rawValue, &event)
            if status == Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue) {
                if event.type == UInt16(EV_KEY), event.value == 1, let key = KeypadKey(linuxCode: event.code) {
                    readings.append(.pressed(key, at: fpmod_input_event_seconds(&event)))
                }
            } else if status == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                // SYN_DROPPED: what was lost cannot be known. Catch up with the device's state
                // (libevdev replays it in sync mode) without taking any of it as a press.
                readings.append(.eventsLost)
                while libevdev_next_event(device, LIBEVDEV_READ_FLAG_SYNC.rawValue, &event) == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {}
            } else if status == -EAGAIN {
                break
            } else if status == -ENODEV {
                throw .gone(path: path)
            } else {
                throw .system(call: "libevdev_next_event", path: path, errno: -status)
            }
        }
        return readings
    }

    // MARK: Opening

    struct Opened {
        let descriptor: FileDescriptor
        let device: OpaquePointer
        let name: String
    }

    /// `open(2)` read-only and non-blocking, then `libevdev_new_from_fd`.
    static func openDevice(_ path: String) throws(KeypadInputError) -> Opened {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            switch error.rawValue {
            case ENOENT, ENODEV, ENXIO: throw .notFound(path: path, keypads: KeypadDevices.keypads().map(\.listed))
            case EACCES, EPERM: throw .permissionDenied(path: path)
            default: throw .system(call: "open", path: path, errno: error.rawValue)
            }
        }
        var device: OpaquePointer?
        let status = libevdev_new_from_fd(descriptor.rawValue, &device)
        guard status == 0, let device else {
            try? descriptor.close()
            // ENOTTY: not an evdev node (a tty, a file); say so as "not found" with the list.
            if -status == ENOTTY || -status == EINVAL { throw .notFound(path: path, keypads: KeypadDevices.keypads().map(\.listed)) }
            throw .system(call: "libevdev_new_from_fd", path: path, errno: -status)
        }
        let name = libevdev_get_name(device).map { String(cString: $0) } ?? ""
        return Opened(descriptor: descriptor, device: device, name: name)
    }

    static func release(_ device: OpaquePointer, _ descriptor: FileDescriptor) {
        libevdev_free(device)
        try? descriptor.close()
    }

    /// Whether the device has all ten digits in one of the layouts a keypad uses: the top row
    /// (`KEY_0…9`), the numeric keypad's (`KEY_KP0…9`) or the phone-style (`KEY_NUMERIC_0…9`).
    static func hasDigitKeys(_ device: OpaquePointer) -> Bool {
        let layouts: [[UInt32]] = [Array(2...11), [71, 72, 73, 75, 76, 77, 79, 80, 81, 82], Array(0x200...0x209)]
        return layouts.contains { codes in codes.allSatisfy { libevdev_has_event_code(device, UInt32(EV_KEY), $0) == 1 } }
    }
}
