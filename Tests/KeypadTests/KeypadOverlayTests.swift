import Foundation
import Keypad
import Testing

/// The Raspberry Pi overlays in tools/keypad (docs/keypad.md): each compiles with the device
/// tree compiler where it is installed, and its keymap gives a phone layout that fpmod reads as
/// digits, `*` to clear and `#` to submit.
struct KeypadOverlayTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/keypad").path
    static let overlays = ["fpmod-keypad-3x4", "fpmod-keypad-4x4"]
    static let dtc = ["/usr/bin/dtc", "/bin/dtc"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// (row, column) → key, from the overlay's `linux,keymap` cells (row << 24 | column << 16 | code).
    static func keymap(_ overlay: String) throws -> [[KeypadKey?]] {
        let text = try String(contentsOfFile: "\(folder)/\(overlay).dts", encoding: .utf8)
        let start = try #require(text.range(of: "linux,keymap = <"))
        let end = try #require(text.range(of: ">;", range: start.upperBound..<text.endIndex))
        var rows: [[KeypadKey?]] = []
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            guard let word = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first, word.hasPrefix("0x"),
                  let cell = UInt32(word.dropFirst(2), radix: 16) else { continue }
            let row = Int(cell >> 24), column = Int((cell >> 16) & 0xFF)
            while rows.count <= row { rows.append([]) }
            while rows[row].count <= column { rows[row].append(nil) }
            rows[row][column] = KeypadKey(linuxCode: UInt16(cell & 0xFFFF))
        }
        return rows
    }

    @Test(arguments: overlays)
    func theKeymapIsAPhoneLayout(overlay: String) throws {
        let rows = try Self.keymap(overlay)
        #expect(rows.count == 4)
        let expected: [[KeypadKey]] = [[.digit(1), .digit(2), .digit(3)], [.digit(4), .digit(5), .digit(6)],
                                       [.digit(7), .digit(8), .digit(9)], [.clear, .digit(0), .submit]]
        for (row, keys) in expected.enumerated() {
            #expect(Array(rows[row].prefix(3)) == keys.map { Optional($0) }, "row \(row) of \(overlay)")
            // A fourth column (A–D) means nothing at the door.
            #expect(rows[row].dropFirst(3).allSatisfy { $0 == nil }, "row \(row) of \(overlay)")
        }
    }

    @Test(.enabled(if: dtc != nil, "the device tree compiler (device-tree-compiler) is not installed"), arguments: overlays)
    func theOverlayCompiles(overlay: String) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(overlay)-\(getpid()).dtbo").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.dtc))
        process.arguments = ["-@", "-q", "-I", "dts", "-O", "dtb", "-o", output, "\(Self.folder)/\(overlay).dts"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(((try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0) > 0)
    }
}
