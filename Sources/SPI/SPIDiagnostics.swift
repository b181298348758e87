import Foundation

/// Facts about the machine's SPI setup, gathered for error messages and `fpmod doctor`.
public enum SPIDiagnostics {
    /// The spidev nodes present, e.g. ["/dev/spidev0.0", "/dev/spidev0.1"], in numeric order.
    public static func existingDevices(devDirectory: String = "/dev") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: devDirectory)) ?? []
        return names.filter { $0.hasPrefix("spidev") }.map { devDirectory + "/" + $0 }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
    }

    /// The spidev module's per-message buffer (its `bufsiz` parameter, 4096 unless raised with
    /// spidev.bufsiz=N on the kernel command line); nil when the module is not loaded.
    public static func spidevBufferSize(parameterPath: String = defaultBufferSizePath) -> Int? {
        guard let data = FileManager.default.contents(atPath: parameterPath) else { return nil }
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    public static let defaultBufferSizePath = "/sys/module/spidev/parameters/bufsiz"

    /// spidev's default `bufsiz`, assumed when the parameter cannot be read.
    public static let defaultBufferSize = 4096

    /// `/dev/spidevB.C` for bus B, chip select C.
    public static func devicePath(bus: Int, chipSelect: Int) -> String { "/dev/spidev\(bus).\(chipSelect)" }
}
