import Foundation
import Glibc

/// Facts gathered only to make error messages useful: which serial devices exist, and who
/// holds a lock on a device.
enum DeviceDiagnostics {
    /// Serial devices present on this machine, as paths: /dev/ttyAMA*, ttyS* (only ports the
    /// kernel found hardware for), ttyUSB*, ttyACM*, serial*, plus /dev/serial/by-id links.
    static func existingSerialDevices(devDirectory: String = "/dev") -> [String] {
        let files = FileManager.default
        let names = (try? files.contentsOfDirectory(atPath: devDirectory)) ?? []
        var found = names.filter { name in
            guard ["ttyAMA", "ttyS", "ttyUSB", "ttyACM", "serial"].contains(where: name.hasPrefix) else { return false }
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: devDirectory + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue else { return false }
            if name.hasPrefix("ttyS") { return hasHardware(ttyName: name) }
            return true
        }.map { devDirectory + "/" + $0 }
        let byID = devDirectory + "/serial/by-id"
        found += ((try? files.contentsOfDirectory(atPath: byID)) ?? []).map { byID + "/" + $0 }
        return found.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
    }

    /// What a terminal device is when it is certainly no UART: the virtual consoles
    /// (/dev/tty0…63, /dev/console) and the process's own controlling terminal (/dev/tty).
    /// Their termios accepts no baud rate, so opening them would end in a puzzling EINVAL.
    static func nonUARTTerminal(_ resolvedPath: String) -> String? {
        if resolvedPath == "/dev/tty" { return "the controlling terminal of this process, not a UART" }
        if resolvedPath == "/dev/console" { return "the system console, not a UART" }
        if resolvedPath.hasPrefix("/dev/tty"), let number = Int(resolvedPath.dropFirst("/dev/tty".count)), (0...63).contains(number) {
            return "a virtual console (the screen and keyboard), not a UART"
        }
        return nil
    }

    /// A PC registers 4–32 legacy ttyS ports whether or not a UART is there; sysfs `type` 0
    /// (PORT_UNKNOWN) marks the empty ones.
    private static func hasHardware(ttyName: String) -> Bool {
        guard let type = try? String(contentsOfFile: "/sys/class/tty/\(ttyName)/type", encoding: .utf8) else { return true }
        return type.trimmingCharacters(in: .whitespacesAndNewlines) != "0"
    }

    /// The PID holding a lock on the file at `path`, from /proc/locks, if any.
    static func lockHolder(of path: String) -> Int32? {
        var info = stat()
        guard stat(path, &info) == 0,
              let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        return lockHolder(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), locksTable: table)
    }

    /// Parses /proc/locks lines such as `1: FLOCK  ADVISORY  WRITE 4242 00:1a:7 0 EOF`
    /// (the device is `major:minor` in hex, the inode decimal); waiters (`->`) are skipped.
    static func lockHolder(device: UInt64, inode: UInt64, locksTable: String) -> Int32? {
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        let wanted = String(format: "%02llx:%02llx:%llu", major, minor, inode)
        for line in locksTable.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] != "->" else { continue }
            if fields[5] == wanted { return Int32(fields[4]) }
        }
        return nil
    }
}
