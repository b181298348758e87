import CEvdev
import Glibc
import Keypad
import Posix
import PrintableText

/// A keypad made in the kernel through uinput (`libevdev_uinput_create_from_device`): a real
/// `/dev/input/eventN` that every reader sees as it would a matrix keypad with phone-style
/// keys (`KEY_NUMERIC_0…9`, `*`, `#`). For bring-up without hardware (`fpmod keypad type`) and
/// the tests in the VM; needs `/dev/uinput` (root, or a uinput group).
public final class VirtualKeypad {
    public static let defaultName = "fpmod virtual keypad"
    /// The most keys one `type` takes: a PIN and its submit, many times over, not a flood tool.
    public static let maximumKeys = 256

    public let name: String
    /// Where the kernel put it, e.g. /dev/input/event3.
    public let devicePath: String
    private let template: OpaquePointer
    private let device: OpaquePointer

    /// The codes for `text`, checked before any device is made: digits, `*` and `#` only.
    public static func codes(for text: String) throws(KeypadInputError) -> [UInt32] {
        guard !text.isEmpty, text.count <= maximumKeys else {
            throw .badKeys("Give 1 to \(maximumKeys) keys to type (digits, * and #); got \(text.count).")
        }
        var codes: [UInt32] = []
        for character in text {
            switch character {
            case "0"..."9": codes.append(0x200 + UInt32(character.wholeNumberValue ?? 0))
            case "*": codes.append(0x20A)
            case "#": codes.append(0x20B)
            default:
                throw .badKeys("A keypad has the digits, * and #; \"\(Printable.escaped(String(character)))\" is not one of them.")
            }
        }
        return codes
    }

    /// Makes the device (`libevdev_new`, `libevdev_enable_event_code`,
    /// `libevdev_uinput_create_from_device`).
    public init(name: String = VirtualKeypad.defaultName) throws(KeypadInputError) {
        guard let template = libevdev_new() else { throw .system(call: "libevdev_new", path: "/dev/uinput", errno: ENOMEM) }
        libevdev_set_name(template, name)
        libevdev_set_id_bustype(template, Int32(BUS_VIRTUAL))
        _ = libevdev_enable_event_type(template, UInt32(EV_KEY))
        for code in UInt32(0x200)...UInt32(0x20B) { _ = libevdev_enable_event_code(template, UInt32(EV_KEY), code, nil) }
        var made: OpaquePointer?
        let status = libevdev_uinput_create_from_device(template, Int32(LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue), &made)
        guard status == 0, let made else {
            libevdev_free(template)
            switch -status {
            case ENOENT, ENODEV, ENXIO: throw .noUinput
            case EACCES, EPERM: throw .permissionDenied(path: "/dev/uinput")
            default: throw .system(call: "libevdev_uinput_create_from_device", path: "/dev/uinput", errno: -status)
            }
        }
        self.template = template
        device = made
        self.name = name
        devicePath = libevdev_uinput_get_devnode(made).map { String(cString: $0) } ?? ""
    }

    deinit {
        libevdev_uinput_destroy(device)
        libevdev_free(template)
    }

    /// Presses and releases each key (`libevdev_uinput_write_event`), `interval` apart.
    public func type(_ text: String, interval: Duration = .milliseconds(100)) throws(KeypadInputError) {
        for (index, code) in try Self.codes(for: text).enumerated() {
            if index > 0 { CurrentProcess.sleep(for: interval) }
            for (value, report) in [(Int32(1), true), (Int32(0), true)] {
                var status = libevdev_uinput_write_event(device, UInt32(EV_KEY), code, value)
                if status == 0, report { status = libevdev_uinput_write_event(device, UInt32(EV_SYN), UInt32(SYN_REPORT), 0) }
                guard status == 0 else {
                    throw .system(call: "libevdev_uinput_write_event", path: devicePath, errno: -status)
                }
            }
        }
    }
}
