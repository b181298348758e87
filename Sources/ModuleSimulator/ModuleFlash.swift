import Foundation
import Posix
import FingerprintProtocol

/// Everything a module keeps across power cycles: the template library, the system
/// parameters, the password, the address and the notepad. With `--state FILE` it is written
/// to disk (atomically) after every change, so a restarted simulator is the same module.
public struct ModuleFlash: Equatable, Sendable {
    public var library: [Int: [UInt8]] = [:]
    public var password: UInt32 = 0
    public var address: UInt32 = Frame.defaultAddress
    public var securityLevel = 3
    public var packetSizeCode = 2
    /// The stored baud multiplier; the module switches to it at the next power-up.
    public var baudMultiplier = 6
    public var notepad: [[UInt8]] = Array(repeating: [UInt8](repeating: 0, count: 32), count: 16)

    public init() {}

    /// Payload bytes per data packet (32/64/128/256).
    public var packetSize: Int { PacketSize(code: packetSizeCode)?.bytes ?? 128 }
}

/// The on-disk form of `ModuleFlash` (JSON; templates and notepad pages base64).
struct StateFileContents: Codable {
    var profile: String
    var password: UInt32
    var address: UInt32
    var securityLevel: Int
    var packetSizeCode: Int
    var baudMultiplier: Int
    var notepad: [Data]
    var templates: [String: Data]
}

/// Reads and writes a module's flash as a JSON file.
public enum StateFile {
    public enum Error: Swift.Error, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case wrongProfile(path: String, found: String, expected: String)

        public var description: String {
            switch self {
            case let .unreadable(path, reason):
                "cannot read simulator state \(path): \(reason); delete the file to start with an empty module"
            case let .wrongProfile(path, found, expected):
                "simulator state \(path) belongs to a \(found) module, not \(expected); use --profile \(found) or another --state file"
            }
        }
    }

    /// The flash stored at `path`, nil when the file does not exist yet.
    public static func load(path: String, profile: SimulatorProfile) throws(Error) -> ModuleFlash? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let contents: StateFileContents
        do {
            contents = try JSONDecoder().decode(StateFileContents.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        guard contents.profile == profile.name else {
            throw .wrongProfile(path: path, found: contents.profile, expected: profile.name)
        }
        var flash = ModuleFlash()
        flash.password = contents.password
        flash.address = contents.address
        flash.securityLevel = contents.securityLevel
        flash.packetSizeCode = contents.packetSizeCode
        flash.baudMultiplier = contents.baudMultiplier
        for (index, page) in contents.notepad.prefix(16).enumerated() {
            flash.notepad[index] = Array(page.prefix(32)) + [UInt8](repeating: 0, count: max(0, 32 - page.count))
        }
        for (key, bytes) in contents.templates {
            if let slot = Int(key), slot >= 0, slot < profile.capacity { flash.library[slot] = Array(bytes) }
        }
        return flash
    }

    /// Writes to a temporary file beside `path`, then renames it over `path`: a crash leaves
    /// either the old or the new state, never half of one.
    public static func save(_ flash: ModuleFlash, profile: SimulatorProfile, path: String) throws(Error) {
        let contents = StateFileContents(
            profile: profile.name, password: flash.password, address: flash.address,
            securityLevel: flash.securityLevel, packetSizeCode: flash.packetSizeCode,
            baudMultiplier: flash.baudMultiplier, notepad: flash.notepad.map { Data($0) },
            templates: Dictionary(uniqueKeysWithValues: flash.library.map { (String($0.key), Data($0.value)) }))
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(contents)
            do { try AtomicFile.replace(path, with: Array(data), mode: 0o600) } catch {
                throw Error.unreadable(path: path, reason: "write failed: \(error)")
            }
        } catch let error as Error {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "write failed: \(error)")
        }
    }
}
