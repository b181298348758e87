import AccessPolicy

extension LockConfig {
    /// `fleet`: what a door that follows a hub (`fpmod join`) does when it has not heard from
    /// it for a while: `"fleet": {"staleAfterMinutes": 60, "whenStale": "admins-only"}`. The
    /// door always decides from its own store; this is for a site that would rather keep people
    /// out than let in someone the hub may have revoked meanwhile.
    public struct Fleet: Sendable, Equatable {
        /// Minutes without an answer from the hub before the door counts as stale (5 to 10,080: a week).
        public var staleAfterMinutes = 60
        /// `keep` (decide as ever, and raise the alarm), `admins-only`, or `locked` (no credential
        /// opens; the exit button still does).
        public var whenStale: StaleFleetMode = .keep

        public init() {}
    }

    static let fleetKeys = ["staleAfterMinutes", "whenStale"]

    mutating func readFleet(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: Self.fleetKeys, at: "fleet")
        if let v = object["staleAfterMinutes"], let minutes = r.integer(v, "fleet.staleAfterMinutes", range: 5...10_080, unit: " minutes") {
            fleet.staleAfterMinutes = minutes
        }
        if let v = object["whenStale"], let mode = r.choice(v, "fleet.whenStale", StaleFleetMode.self, choices: StaleFleetMode.allCases.map(\.rawValue)) {
            fleet.whenStale = mode
        }
    }
}
