import Foundation
import Testing
@testable import AccessPolicy

extension Harness {
    /// An event from one reader of a door with two.
    @discardableResult
    mutating func send(_ event: PolicyEvent, side: ReaderSide) -> [PolicyEffect] {
        let (next, effects) = AccessPolicy(config: config, access: access).decide(state, event, now: now, side: side)
        state = next
        log += effects
        return effects
    }

    var deadline: PolicyTime? { AccessPolicy(config: config, access: access).nextDeadline(state) }

    /// Both clocks move to `utcSeconds` (no event).
    mutating func advance(toUTC utcSeconds: Int64) {
        advance(Double(utcSeconds) - wall)
    }

    /// Sleeps until the policy's next deadline, then ticks, as the runtime does.
    @discardableResult
    mutating func tickAtDeadline() -> [PolicyEffect] {
        guard let deadline else { return [] }
        advance(deadline.wall - wall)
        return send(.tick)
    }

    @discardableResult
    mutating func setMode(_ mode: DoorMode, by: String = "root on the control socket",
                          source: RequestSource = .local, isAdmin: Bool = false) -> [PolicyEffect] {
        send(.setDoorMode(mode, source: source, by: by, isAdmin: isAdmin))
    }

    static func berlin() throws -> TimeZoneRules {
        let bytes = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin"))
        return try TimeZoneRules(name: "Europe/Berlin", tzif: [UInt8](bytes))
    }
}

extension Array where Element == PolicyEffect {
    func audits(_ name: String) -> [(user: String?, detail: String)] {
        compactMap { if case .audit(name, let user, let detail) = $0 { (user, detail) } else { nil } }
    }

    var pulses: Bool { contains { if case .relayPulse = $0 { true } else { false } } }
}
