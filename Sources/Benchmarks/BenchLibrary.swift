import Administration
import FingerprintModule
import Foundation
import ModuleSimulator
import TemplateStore

/// A simulated module whose library holds `fingers` enrolled fingers at shuffled slots, and a
/// template store in a temporary directory that knows them: what the search order, the layout
/// mover, restore and sync need. Finger i is the virtual finger `bench-finger-i` of user
/// `user-i`; the store's slot mapping is the truth about where it is.
public final class BenchLibrary {
    public let target: BenchTarget
    public let store: TemplateStore
    public let administrator: Administrator
    public let fingers: Int
    public let contents: BackupContents
    private let directory: String

    public static func fingerName(_ number: Int) -> String { "bench-finger-\(number)" }
    public static func userName(_ number: Int) -> String { "user-\(number)" }
    public static func number(ofUser name: String) -> Int? { name.hasPrefix("user-") ? Int(name.dropFirst(5)) : nil }
    /// Fingers enrolled nowhere (the `strangers` workload), a few so captures differ.
    public static func strangerName(_ touch: Int) -> String { "bench-stranger-\(touch % 5)" }

    /// `fingers` templates in slots 0..<fingers, finger i at a slot drawn by a seeded shuffle.
    public init(profile: SimulatorProfile, timing: TimingMode, baudRate: Int, fingers requested: Int, searchModel: SearchModel,
         seed: String) throws {
        fingers = min(max(1, requested), profile.capacity)
        var random = SeededRandom(name: "layout:\(fingers):\(seed)")
        let slots = Array(0..<fingers).shuffled(using: &random)
        var library: [Int: [UInt8]] = [:]
        var users: [BackupUser] = []
        let now = Date()
        for number in 0..<fingers {
            let template = BenchTarget.enrolledTemplate(of: Self.fingerName(number), profile: profile)
            library[slots[number]] = template
            users.append(BackupUser(name: Self.userName(number), displayName: Self.userName(number), role: .user,
                                    fingerprintUnlock: true, pinHash: nil, createdAt: now,
                                    fingers: [BackupFinger(label: "right-index", slot: slots[number], template: template,
                                                           quality: 0x58, enrolledAt: now)]))
        }
        contents = BackupContents(createdAt: now, moduleFamily: profile.family.rawValue, users: users)
        directory = NSTemporaryDirectory() + "fpmod-bench-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        target = try BenchTarget.simulated(profile: profile, timing: timing, baudRate: baudRate, library: library,
                                           searchModel: searchModel, finger: nil)
        // The driver's Search deadline (1 s + 2 ms per slot) is shorter than an R503's datasheet
        // search of a full library (5 ms + 8 ms per template: 1.6 s at 200); give the simulated
        // module's own figure plus a quarter, so a slow search is measured, not timed out.
        let perTemplate = Duration.microseconds(profile.searchMicrosecondsPerTemplate * 5 / 4)
        if perTemplate > target.module.timeouts.searchPerPage { target.module.timeouts.searchPerPage = perTemplate }
        do {
            store = try TemplateStore(databasePath: directory + "/store.db", keyPath: directory + "/store.key")
            try store.replaceAll(with: contents)
            administrator = Administrator(module: target.module, store: store)
        } catch {
            target.close()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    public var module: FingerprintModule { target.module }
    public var server: ModuleSimulatorServer { target.simulator! }

    /// Finger number → slot, as the store has it now.
    public func slots() throws -> [Int: Int] {
        var slots: [Int: Int] = [:]
        for finger in try store.allFingers() {
            if let number = Self.number(ofUser: finger.user) { slots[number] = finger.slot }
        }
        return slots
    }

    /// Writes `touches` to the audit log as the service would after each identify: a `match`
    /// row with the finger's current slot, or a `no-match` row for a stranger.
    public func recordHistory(_ touches: [Int?]) throws {
        let slots = try slots()
        try store.transaction {
            for touch in touches {
                if let touch, let slot = slots[touch] {
                    try store.appendAudit(event: "match", user: Self.userName(touch), slot: slot, score: 120, latencyJSON: "{}")
                } else {
                    try store.appendAudit(event: "no-match", latencyJSON: "{}")
                }
            }
        }
    }

    public func close() {
        target.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
