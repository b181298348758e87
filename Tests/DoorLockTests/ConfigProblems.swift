import DoorLock
import Foundation

/// Every problem `LockConfig.parse` finds in `json` (empty when it parses): the config suites'
/// one way to ask.
func problems(_ json: String) -> [String] {
    do {
        _ = try LockConfig.parse(Data(json.utf8))
        return []
    } catch {
        return error.problems
    }
}
