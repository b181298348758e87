import DoorLock
import Foundation
import Glibc
import JSONValue
import Posix
import ServiceClient
import TemplateStore

/// `--credentials`: how long the door takes to decide on a card and on a PIN, measured on a
/// running `fpmod run --sim --sim-gpio` through its control socket (the path a kiosk takes; a
/// Wiegand reader's or an NFC reader's card and a keypad's entry reach the same decision from
/// the service's own loop). The clock runs from the line sent to the reply read, and the service
/// sets the relay before it writes the reply, so a card's time is card-to-relay less the reader's
/// own frame. The store holds 100, then 1,000 users with a card each.
public enum CredentialBench {
    public struct Result {
        public var table: TextTable
        public var notes: [String]
        public var json: JSONValue
    }

    /// Presentations per row.
    public static let presentations = 60
    /// Users with a PIN in the PIN rows: a PIN alone is found by trying each user's hash.
    public static let pinUsers = [1, 5]

    public static func run(executable: String, sizes: [Int] = [100, 1000], pinUsers: [Int] = pinUsers, presentations: Int = presentations,
                           progress: (String) -> Void) -> Result {
        let executable = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        var table = TextTable(["path", "users", "p50", "p95", "max", "decision"])
        var rows: [JSONValue] = []
        var notes: [String] = []
        func add(_ path: String, users: Int, _ outcome: Outcome) {
            switch outcome {
            case let .measured(samples, decision):
                guard let d = Distribution(samples) else { return }
                table.add([path, String(users), DurationText.format(d.p50), DurationText.format(d.p95), DurationText.format(d.max), decision])
                rows.append(.object(["path": .string(path), "users": .int(Int64(users)), "count": .int(Int64(d.count)),
                                     "p50_ms": .double(DurationText.milliseconds(d.p50)), "p95_ms": .double(DurationText.milliseconds(d.p95)),
                                     "max_ms": .double(DurationText.milliseconds(d.max)), "decision": .string(decision)]))
            case let .failed(reason):
                table.add([path, String(users), "–", "–", "–", "not measured"])
                notes.append("\(path), \(users) users: not measured: \(reason)")
            }
        }
        for size in sizes {
            progress("fpmod bench: cards at a door of \(size) users…")
            add("card (known) to relay", users: size, measure(executable: executable, users: size, pinUsers: 0, request: { .card(CardNumber(wiegandBits: 26, facility: UInt32(100 + $0 % size % 100), number: UInt32($0 % size))) }, expect: "unlocked", count: presentations))
            add("card (unknown) to refusal", users: size, measure(executable: executable, users: size, pinUsers: 0, request: { _ in .card(CardNumber(wiegandBits: 26, facility: 255, number: 65_000)) }, expect: "denied", count: min(4, presentations)))
        }
        for count in pinUsers {
            progress("fpmod bench: a PIN at a door with \(count) user\(count == 1 ? "" : "s") with a PIN…")
            // The matching PIN is the last user's: the worst case of the search.
            add("PIN to relay", users: count, measure(executable: executable, users: count, pinUsers: count, request: { _ in .pin(user: nil, pin: pinOf(count - 1)) }, expect: "unlocked", count: min(8, presentations)))
        }
        let floor = argon2Floor()
        notes.append("Floor of a PIN: one Argon2id check (64 MiB), measured alone here: \(floor.map(DurationText.format) ?? "not measured"); a PIN with no user named is tried against each user's hash in turn, so its time grows with the users who have one (`pin USER PIN` and card-and-pin check one).")
        notes.append("A Wiegand card adds its frame: 26 bits at the standard's 1 ms spacing is 26 ms, then fpmod waits `wiegand.gapMs` (25 ms) of quiet to know the frame ended; an NFC card adds libnfc's select (a few ms on a PN532 at 115200 baud).")
        return Result(table: table, notes: notes, json: .object(["rows": .array(rows), "argon2id_ms": floor.map { .double(DurationText.milliseconds($0)) } ?? .null]))
    }

    public enum Outcome {
        case measured([Int64], decision: String)
        case failed(String)
    }

    static func pinOf(_ index: Int) -> String { String(482_913 + index * 7_919) }

    /// One service over a fresh store of `users` users (each with a Wiegand card, the first
    /// `pinUsers` with a PIN), then `count` requests, each timed to its reply.
    static func measure(executable: String, users: Int, pinUsers: Int, request: (Int) -> ControlRequest, expect: String, count: Int = presentations) -> Outcome {
        let directory = NSTemporaryDirectory() + "fpmod-bench-credentials-\(CurrentProcess.id)-\(users)-\(pinUsers)-\(expect)"
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = directory + "/store.db", key = directory + "/store.key"
        do {
            let store = try TemplateStore(databasePath: database, keyPath: key)
            for index in 0..<users {
                let name = try UserName(validating: "user\(index)")
                try store.addUser(name: name)
                try store.addCard(CardNumber(wiegandBits: 26, facility: UInt32(100 + index % 100), number: UInt32(index)),
                                  label: try CardLabel(validating: "badge"), for: name)
                if index < pinUsers { try store.setPIN(pinOf(index), for: name.text) }
            }
        } catch {
            return .failed("the store could not be made: \(error)")
        }
        let control = directory + "/control.sock", events = directory + "/events.sock"
        // The door's mode: a card alone opens, a PIN alone opens (finger-or-pin takes no card).
        let mode = pinUsers > 0 ? "finger-or-pin" : "card"
        let config = #"{"board": "gpio-vm", "policy": {"verifyMode": "\#(mode)", "relayPulseSeconds": 0.05, "pinRequiredAfterEnrolledSetChange": false}, "control": {"socket": "\#(control)"}, "events": {"socket": "\#(events)"}}"#
        let service: BenchService
        do { service = try BenchService(executable: executable, directory: directory, database: database, key: key, config: config) } catch {
            return .failed(error.description)
        }
        defer { service.stop() }
        let address = service.address
        var samples: [Int64] = []
        for index in 0..<count {
            let request = request(index)
            let start = Monotonic.nanoseconds()
            let reply: [String: JSONValue]
            do { reply = try ServiceConnection.require(address).send(request) } catch {
                return .failed("the control socket failed: \(error)")
            }
            let elapsed = Int64(Monotonic.nanoseconds()) - Int64(start)
            guard reply["result"]?.stringValue == expect else {
                return .failed("expected \(expect), the service said \(JSONValue.object(reply).encoded.prefix(200))")
            }
            samples.append(elapsed)
            // Past the relay's pulse, so each presentation finds the door locked.
            usleep(80_000)
        }
        return .measured(samples, decision: expect)
    }

    /// One Argon2id PIN check on a scratch store: what a PIN costs at the least.
    static func argon2Floor() -> Int64? {
        let directory = NSTemporaryDirectory() + "fpmod-bench-argon2-\(CurrentProcess.id)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard let store = try? TemplateStore(databasePath: directory + "/s.db", keyPath: directory + "/s.key"),
              let name = try? UserName(validating: "floor"), (try? store.addUser(name: name)) != nil,
              (try? store.setPIN("482913", for: "floor")) != nil else { return nil }
        var best: Int64?
        for _ in 0..<3 {
            let start = Monotonic.nanoseconds()
            guard (try? store.verifyPIN("482913", for: "floor")) == true else { return nil }
            let elapsed = Int64(Monotonic.nanoseconds() - start)
            best = min(best ?? elapsed, elapsed)
        }
        return best
    }
}
