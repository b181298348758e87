import Foundation
import Glibc
import GPIO
import Posix
import SerialPort
import SPI

/// Reads the facts of `fpmod doctor` from this machine. Nothing here changes anything: files are
/// read, `systemctl is-active` is asked, and the port is opened and closed again.
public enum SystemFacts {
    public static func gather() -> DoctorFacts {
        var facts = DoctorFacts()
        facts.deviceTreeModel = readText("/proc/device-tree/model")
        facts.machine = machine()
        facts.serialDevices = serialDevices()
        for alias in ["serial0", "serial1"] {
            let path = "/dev/" + alias
            if FileManager.default.fileExists(atPath: path) { facts.serialAliases[alias] = lastComponent(resolve(path)) }
        }
        facts.ttyAMA0Exists = FileManager.default.fileExists(atPath: "/dev/ttyAMA0")
        for folder in ["/boot/firmware", "/boot"] {
            if facts.bootConfig == nil, let text = readText(folder + "/config.txt") {
                facts.bootConfig = TextFile(path: folder + "/config.txt", text: text)
                facts.bootCmdline = readText(folder + "/cmdline.txt").map { TextFile(path: folder + "/cmdline.txt", text: $0) }
            }
        }
        facts.kernelCmdline = readText("/proc/cmdline")
        let processes = ProcessTable.read()
        facts.activeGettys = gettys(processes)
        facts.modemManagerActive = systemdUnitsActive(["ModemManager.service"])?.first
            ?? processes.map { $0.contains { $0.command == "ModemManager" } }
        facts.user = user()
        facts.gpioChips = LibgpiodChip.listChips()
        facts.gpioChipAliases = gpioAliases()
        facts.gpioNodes = facts.gpioChips.compactMap { node($0.path) }
        facts.spi.nodes = SPIDiagnostics.existingDevices().compactMap(node)
        facts.spi.bufferSize = SPIDiagnostics.spidevBufferSize()
        return facts
    }

    /// The port at `path`: where it leads, its node, and what an exclusive open does.
    public static func port(path: String, source: PortFacts.Source) -> PortFacts {
        let resolved = resolve(path)
        let open: PortOpenResult
        do {
            let port = try SerialPort.open(path: path)
            port.close()
            open = .opened
        } catch {
            switch error {
            case .busy(_, let pid): open = .busy(pid: pid, command: pid.flatMap(commandName))
            case .noSuchDevice(_, let candidates): open = .noSuchDevice(candidates: candidates)
            case .permissionDenied: open = .permissionDenied
            case .notATerminal: open = .notATerminal
            case .notAUART: open = .failed(error.description)
            default: open = .failed(error.description)
            }
        }
        return PortFacts(path: path, resolvedPath: resolved, source: source, node: node(path), open: open)
    }

    /// `stat` of `path` (following symlinks) with owner and group names; nil when absent.
    public static func node(_ path: String) -> FileNode? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileNode(path: path, mode: UInt32(info.st_mode) & 0o7777,
                        owner: userName(info.st_uid), group: groupName(info.st_gid),
                        readWritable: access(path, R_OK | W_OK) == 0)
    }

    // MARK: Pieces

    public static func readText(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func resolve(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func lastComponent(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    static func machine() -> String {
        var names = utsname()
        uname(&names)
        return withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    static func commandName(_ pid: Int32) -> String? {
        readText("/proc/\(pid)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Serial devices worth naming: UARTs with hardware, USB adapters, the Pi aliases, by-id links.
    static func serialDevices() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        var found = names.filter { name in
            if name.hasPrefix("ttyS") {
                // A PC registers many legacy ttyS ports; sysfs type 0 marks the ones without a UART.
                let type = readText("/sys/class/tty/\(name)/type")?.trimmingCharacters(in: .whitespacesAndNewlines)
                return type != nil && type != "0"
            }
            return ["ttyAMA", "ttyUSB", "ttyACM", "serial0", "serial1"].contains(where: name.hasPrefix)
        }.map { "/dev/" + $0 }
        found += ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/serial/by-id")) ?? []).map { "/dev/serial/by-id/" + $0 }
        return found.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
    }

    /// Gettys on serial ttys: `serial-getty@` units systemd reports active, plus getty processes
    /// seen in /proc (containers and non-systemd systems). nil when neither source is readable.
    static func gettys(_ processes: [ProcessTable.Entry]?) -> [String: String]? {
        var found: [String: String] = [:]
        for process in processes ?? [] where process.command.contains("getty") {
            for argument in process.arguments.dropFirst() {
                let tty = lastComponent(argument)
                if tty.hasPrefix("tty"), tty != "tty", !tty.hasPrefix("tty0"), Int(tty.dropFirst(3)) == nil {
                    found[tty] = "\(process.command) (pid \(process.pid)) runs on \(tty)"
                }
            }
        }
        let candidates = ["ttyS0", "ttyS1", "ttyAMA0", "ttyAMA10", "ttyUSB0", "ttyACM0"]
        if let states = systemdUnitsActive(candidates.map { "serial-getty@\($0).service" }) {
            for (tty, active) in zip(candidates, states) where active && found[tty] == nil {
                found[tty] = "serial-getty@\(tty).service is active"
            }
            return found
        }
        return processes == nil ? nil : found
    }

    /// `systemctl is-active` for each unit, or nil when systemd is not running here.
    static func systemdUnitsActive(_ units: [String]) -> [Bool]? {
        guard FileManager.default.fileExists(atPath: "/run/systemd/system"),
              let systemctl = ["/usr/bin/systemctl", "/bin/systemctl"].first(where: FileManager.default.isExecutableFile)
        else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: systemctl)
        process.arguments = ["is-active"] + units
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == units.count else { return nil }
        return lines.map { $0 == "active" }
    }

    static func user() -> UserFacts {
        var facts = UserFacts()
        facts.uid = CurrentProcess.effectiveUserID
        facts.name = userName(facts.uid)
        // Unreadable session groups are reported as none beyond the effective one: doctor then
        // advises a group it may already have, never hides a missing one.
        let session = (try? CurrentProcess.supplementaryGroupIDs()) ?? []
        facts.sessionGroups = Array(Set(session.map(groupName) + [groupName(CurrentProcess.effectiveGroupID)])).sorted()
        if let entry = getpwuid(facts.uid) {
            var size: Int32 = 64
            var account = [gid_t](repeating: 0, count: Int(size))
            if getgrouplist(entry.pointee.pw_name, entry.pointee.pw_gid, &account, &size) < 0 {
                account = [gid_t](repeating: 0, count: Int(size))
                _ = getgrouplist(entry.pointee.pw_name, entry.pointee.pw_gid, &account, &size)
            }
            facts.accountGroups = Array(Set(account.prefix(Int(size)).map(groupName))).sorted()
        }
        return facts
    }

    static func userName(_ uid: uid_t) -> String {
        getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? String(uid)
    }

    static func groupName(_ gid: gid_t) -> String {
        getgrgid(gid).map { String(cString: $0.pointee.gr_name) } ?? String(gid)
    }

    /// `/dev/gpiochipN` symlinks (the Pi 5 keeps gpiochip4 → gpiochip0) and their targets.
    static func gpioAliases() -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        var aliases: [String: String] = [:]
        for name in names where name.hasPrefix("gpiochip") {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/dev/" + name) {
                aliases[name] = lastComponent(target)
            }
        }
        return aliases
    }
}

/// The processes of /proc: PID, command name and arguments.
enum ProcessTable {
    struct Entry {
        var pid: Int32
        var command: String
        var arguments: [String]
    }

    /// nil when /proc cannot be listed.
    static func read() -> [Entry]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        return names.compactMap { name -> Entry? in
            guard let pid = Int32(name),
                  let raw = FileManager.default.contents(atPath: "/proc/\(name)/cmdline"), !raw.isEmpty else { return nil }
            let arguments = raw.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
            let command = SystemFacts.commandName(pid) ?? SystemFacts.lastComponent(arguments.first ?? "")
            return Entry(pid: pid, command: command, arguments: arguments)
        }
    }
}
