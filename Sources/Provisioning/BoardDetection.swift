import Foundation
import GPIO

/// Which board preset fits this machine, from the device tree's model string.
public enum BoardDetection {
    public static let modelPath = "/proc/device-tree/model"

    /// The model string (NUL-terminated in the device tree), or nil off a device-tree board.
    public static func model(path: String = modelPath) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// The preset for a model string; `usb-serial` (no GPIO) when the board is not one we know.
    public static func presetName(forModel model: String?) -> String {
        guard let model else { return "usb-serial" }
        if model.contains("Raspberry Pi 5") { return "rpi5" }
        if model.contains("Raspberry Pi 4") || model.contains("Raspberry Pi 400") { return "rpi4" }
        if model.contains("Zero 2") { return "rpi-zero2w" }
        if model.contains("Raspberry Pi 3") { return "rpi3" }
        return "usb-serial"
    }

    /// The names of the presets built into fpmod: the board question's choices.
    public static var builtInNames: [String] { BoardPreset.builtIn.map(\.name).sorted() }
}
