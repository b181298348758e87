import Glibc

/// The line speeds the modules speak: 9600 × N for N = 1…12 (protocol.md §4.2).
public enum BaudRate {
    /// 9600, 19200, 28800, …, 115200.
    public static let supported: [Int] = (1...12).map { 9600 * $0 }

    /// The factory default of every module family.
    public static let factoryDefault = 57600

    public static func isSupported(_ baud: Int) -> Bool { supported.contains(baud) }

    /// The classic `B*` constant where one exists. Only five of the twelve rates have one
    /// (28800, 48000, 67200, 76800, 86400, 96000 and 105600 do not); those are set as
    /// arbitrary rates through termios2/BOTHER instead (see `CShims.fpmod_set_baud`).
    static func speedConstant(for baud: Int) -> speed_t? {
        switch baud {
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115200: speed_t(B115200)
        default: nil
        }
    }
}
