/// A key as a door keypad means it: a digit, submit or clear. Everything else on a keyboard
/// (letters, NumLock, the keypad's `/ - + .`) means nothing at a door and is ignored.
public enum KeypadKey: Equatable, Hashable, Sendable {
    case digit(UInt8)
    /// `#` on a door keypad, Enter on a USB one: the entry is done.
    case submit
    /// `*` on a door keypad, Backspace, Delete or Esc on a USB one: start again.
    case clear

    /// The key a Linux input event code stands for, or nil for a key a door does not use.
    ///
    /// One table covers the three kinds of keypad the kernel presents through evdev: USB numeric
    /// keypads and keyboards (`KEY_KP0…9`, `KEY_0…9`, Enter), and the matrix and GPIO keypads of
    /// a Pi overlay (`matrix-keypad`, `gpio-keys`), whose keymaps use the same codes or the
    /// phone-style `KEY_NUMERIC_0…9`, `KEY_NUMERIC_STAR` and `KEY_NUMERIC_POUND`. The numbers are
    /// the kernel's stable ABI (`linux/input-event-codes.h`); a test reads them from the header.
    public init?(linuxCode code: UInt16) {
        switch code {
        case 2...10: self = .digit(UInt8(code - 1))  // KEY_1 … KEY_9
        case 11: self = .digit(0)  // KEY_0
        case 71...73: self = .digit(UInt8(code - 64))  // KEY_KP7 … KEY_KP9
        case 75...77: self = .digit(UInt8(code - 71))  // KEY_KP4 … KEY_KP6
        case 79...81: self = .digit(UInt8(code - 78))  // KEY_KP1 … KEY_KP3
        case 82: self = .digit(0)  // KEY_KP0
        case 0x200...0x209: self = .digit(UInt8(code - 0x200))  // KEY_NUMERIC_0 … 9
        case 28, 96, 0x20B: self = .submit  // KEY_ENTER, KEY_KPENTER, KEY_NUMERIC_POUND
        case 1, 14, 55, 111, 0x20A: self = .clear  // KEY_ESC, KEY_BACKSPACE, KEY_KPASTERISK, KEY_DELETE, KEY_NUMERIC_STAR
        default: return nil
        }
    }
}
