import FingerprintModule
import FingerprintProtocol
import Foundation
import SerialPort

/// Finding the module's serial port: the usual device names, each probed with the driver's own
/// opening sequence (boot byte, handshake, password) at every standard baud rate.
public enum PortDiscovery {
    /// What answered on a port.
    public struct Answer: Equatable, Sendable {
        public var port: String
        public var family: String
        public var baudRate: Int
        public var capacity: Int?
        public var templatesUsed: Int?

        public var summary: String {
            "\(family) module at \(baudRate) baud" + (capacity.map { ", \($0) slots" } ?? "")
                + (templatesUsed.map { ", \($0) used" } ?? "")
        }
    }

    /// Candidate ports in the order a Pi user expects: the header UART's alias first, then the
    /// UARTs themselves, then USB adapters. A symlink and its target are listed once.
    public static func candidates(deviceDirectory: String = "/dev") -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: deviceDirectory)) ?? []
        var ordered = ["serial0", "ttyAMA0", "ttyS0"].filter(files.contains)
        ordered += files.filter { $0.hasPrefix("ttyUSB") || $0.hasPrefix("ttyACM") }
            .sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
        var seen = Set<String>()
        var result: [String] = []
        for name in ordered {
            let path = deviceDirectory + "/" + name
            let real = (try? FileManager.default.destinationOfSymbolicLink(atPath: path))
                .map { $0.hasPrefix("/") ? $0 : deviceDirectory + "/" + $0 } ?? path
            guard seen.insert((real as NSString).standardizingPath).inserted else { continue }
            result.append(path)
        }
        return result
    }

    /// Opens `port` like the service does (probing the baud rates), reads what the module is, closes it.
    public static func probe(_ port: String, address: UInt32, password: UInt32, baudRate: Int?) -> Result<Answer, ModuleError> {
        var timeouts = CommandTimeouts()
        timeouts.probe = .milliseconds(300)
        timeouts.bootWait = .milliseconds(300)
        do {
            let module = try FingerprintModule.open(port: port, baudRate: baudRate, address: address, password: password,
                                                    timeouts: timeouts)
            defer { module.transport.close() }
            let used = try? module.readIndexTable().occupied.count
            return .success(Answer(port: port, family: module.family?.rawValue ?? "unknown",
                                   baudRate: module.answeredBaudRate ?? module.transport.baudRate,
                                   capacity: module.capacity, templatesUsed: used))
        } catch {
            return .failure(error)
        }
    }
}
