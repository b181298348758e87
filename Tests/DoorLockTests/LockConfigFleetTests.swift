import Foundation
import Testing
@testable import DoorLock

/// `fleet` in the config: a hub's silence and what the door does about it, every bad value
/// named with the fix.
struct LockConfigFleetTests {
    func fleet(_ json: String) throws(LockConfigError) -> LockConfig.Fleet {
        try LockConfig.parse(Data(json.utf8)).fleet
    }

    @Test func leftOutTheDoorKeepsDecidingAfterAnHour() throws {
        let defaults = try fleet("{}")
        #expect(defaults.staleAfterMinutes == 60 && defaults.whenStale == .keep)
        let set = try fleet(#"{"fleet": {"staleAfterMinutes": 15, "whenStale": "admins-only"}}"#)
        #expect(set.staleAfterMinutes == 15 && set.whenStale == .adminsOnly)
        #expect(try fleet(#"{"fleet": {"whenStale": "locked"}}"#).whenStale == .locked)
    }

    @Test func badValuesAndKeysAreNamed() {
        #expect(problems(#"{"fleet": {"whenStale": "closed"}}"#).first?.hasPrefix("fleet.whenStale: 'closed' is not one of keep, admins-only, locked") == true)
        #expect(problems(#"{"fleet": {"staleAfterMinutes": 2}}"#).first?.hasPrefix("fleet.staleAfterMinutes") == true)
        #expect(problems(#"{"fleet": {"staleAfterMinutes": 20000}}"#).first?.hasPrefix("fleet.staleAfterMinutes") == true)
        #expect(problems(#"{"fleet": {"staleMinutes": 30}}"#).first?.hasPrefix("fleet.staleMinutes") == true)
        #expect(problems(#"{"fleet": "admins-only"}"#).first?.hasPrefix("fleet") == true)
    }
}
