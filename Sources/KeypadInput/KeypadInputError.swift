import Glibc
import PrintableText

/// What went wrong with a keypad on the input subsystem, worded for the person wiring it: each
/// case says what was found and what to do.
public enum KeypadInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No input device at the path (a keypad unplugged, a typo).
    case notFound(path: String, keypads: [String])
    /// No input device has this name.
    case noneNamed(String, keypads: [String])
    case permissionDenied(path: String)
    /// The device has no digit keys: a mouse, a power button, a keyboard's media keys.
    case notAKeypad(path: String, name: String)
    /// Another program holds the device exclusively.
    case busy(path: String)
    /// The device went away while in use (unplugged).
    case gone(path: String)
    /// The kernel has no uinput device to make a virtual keypad with.
    case noUinput
    /// Keys to type that a keypad does not have.
    case badKeys(String)
    /// Any other failure of a C call, named.
    case system(call: String, path: String, errno: Int32)

    public var description: String {
        switch self {
        case .notFound(let path, let keypads):
            "No input device at \(path). \(Self.listing(keypads))"
        case .noneNamed(let name, let keypads):
            "No input device is named \"\(Printable.escaped(name))\". \(Self.listing(keypads))"
        case .permissionDenied(let path):
            "Not allowed to read \(path): run as root, or add the user to the 'input' group (the package's service user is in it)."
        case .notAKeypad(let path, let name):
            "\(path) (\(Printable.escaped(name))) has no digit keys, so it is not a keypad; choose another device (fpmod keypad test lists them)."
        case .busy(let path):
            "Another program holds \(path) exclusively (a running fpmod service, or a desktop's input handler); stop it first."
        case .gone(let path):
            "The keypad at \(path) went away (unplugged?)."
        case .noUinput:
            "The kernel has no /dev/uinput to make a virtual keypad with: load it with 'modprobe uinput' (as root)."
        case .badKeys(let reason):
            reason
        case .system(let call, let path, let errno):
            "\(call) failed on \(path): \(String(cString: strerror(errno))) (errno \(errno))."
        }
    }

    static func listing(_ keypads: [String]) -> String {
        keypads.isEmpty ? "No keypad is connected (no input device with digit keys)."
            : "Keypads here: " + keypads.map { Printable.escaped($0) }.joined(separator: ", ") + "."
    }
}
