import AccessPolicy
import HubStore
import JSONValue
import TemplateStore

/// A change from the hub's log read into what the door's store takes, every field checked by the
/// door's own types before anything is written. Pure: no store, no I/O.
enum ReplicaChange: Equatable {
    case putSchedule(RuleName, WeeklySchedule)
    case deleteSchedule(String)
    case putUser(ReplicatedUser)
    case deleteUser(String)
    case putFinger(ReplicatedFinger)
    case putHoliday(name: RuleName, first: CivilDate, last: CivilDate, yearly: Bool, hours: WeeklySchedule?)
    /// A door's mode set at the hub; only the door of that name takes it.
    case putDoorMode(door: String, mode: DoorMode, revision: Int64)
    /// Another door's mode (the hub sends its revision only).
    case otherDoorMode
    case deleteHoliday(String)
    case deleteFinger(user: String, label: String, family: String)
    case putCard(ReplicatedCard)
    case deleteCard(user: String, label: String)

    /// `change` read, or the reason this door cannot use it.
    static func read(_ change: HubChange) throws(ReplicaError) -> ReplicaChange {
        func unreadable(_ problem: String) -> ReplicaError { .unreadable(kind: change.kind.rawValue, key: change.key, revision: change.revision, problem: problem) }
        guard let state = change.state else {
            switch change.kind {
            case .user: return .deleteUser(change.key)
            case .schedule: return .deleteSchedule(change.key)
            case .holiday: return .deleteHoliday(change.key)
            case .doorMode: return .otherDoorMode
            case .finger:
                guard let parts = HubFinger.parts(ofChangeKey: change.key) else { throw unreadable("its key is not family:user:label") }
                return .deleteFinger(user: parts.user, label: parts.label, family: parts.family)
            case .card:
                guard let parts = HubCard.parts(ofChangeKey: change.key) else { throw unreadable("its key is not user:label") }
                return .deleteCard(user: parts.user, label: parts.label)
            }
        }
        do {
            switch change.kind {
            case .schedule:
                let name = try RuleName(validating: try field(state, "name", \.stringValue))
                guard name.text == change.key else { throw unreadable("its name is not its key") as ReplicaError }
                let text = try field(state, "text", \.stringValue)
                let schedule: WeeklySchedule
                do { schedule = try WeeklySchedule(parsing: text) } catch { throw unreadable("its schedule does not read: \(error)") }
                return .putSchedule(name, schedule)
            case .user:
                let name = try UserName(validating: try field(state, "name", \.stringValue))
                guard name.text == change.key else { throw unreadable("its name is not its key") as ReplicaError }
                guard let role = Role(rawValue: try field(state, "role", \.stringValue)) else { throw unreadable("an unknown role") }
                let verifyMode = try optional(state, "verifyMode", \.stringValue)
                guard verifyMode == nil || VerifyMode(rawValue: verifyMode!) != nil else { throw unreadable("an unknown verify mode") }
                let pinHash = try optional(state, "pinHash", \.stringValue)
                guard pinHash?.hasPrefix("$argon2") ?? true else { throw unreadable("a PIN that is not an Argon2 hash") }
                let user = ReplicatedUser(
                    name: name, displayName: try DisplayName(validating: try field(state, "displayName", \.stringValue)), role: role,
                    fingerprintUnlock: try field(state, "fingerprintUnlock", \.boolValue), pinHash: pinHash,
                    verifyMode: verifyMode.flatMap(VerifyMode.init(rawValue:)),
                    schedule: try optional(state, "schedule", \.stringValue).map { (text) throws(NameError) in try RuleName(validating: text) },
                    validFrom: try optional(state, "validFrom", \.int64Value), validUntil: try optional(state, "validUntil", \.int64Value),
                    usesLeft: try optional(state, "usesLeft", \.intValue))
                if let from = user.validFrom, let until = user.validUntil, until <= from { throw unreadable("its validity ends before it starts") }
                if let uses = user.usesLeft, uses < 0 { throw unreadable("a negative number of uses") }
                return .putUser(user)
            case .finger:
                guard let sent = HubFinger(json: state) else { throw unreadable("it is not a finger as the hub sends one") }
                let finger = ReplicatedFinger(
                    user: try UserName(validating: sent.user), label: try FingerLabel(validating: sent.label), family: sent.family,
                    size: sent.templateSize, quality: sent.quality, isDuress: sent.isDuress, revision: change.revision, sealed: sent.sealedTemplate)
                guard HubFinger.changeKey(user: finger.user.text, label: finger.label.text, family: finger.family) == change.key else {
                    throw unreadable("its finger is not its key")
                }
                guard (1...HubFinger.maximumTemplateSize).contains(finger.size) else { throw unreadable("a template size of \(finger.size) bytes") }
                return .putFinger(finger)
            case .holiday:
                let name = try RuleName(validating: try field(state, "name", \.stringValue))
                guard name.text == change.key else { throw unreadable("its name is not its key") as ReplicaError }
                guard let first = CivilDate(parsing: Substring(try field(state, "first", \.stringValue))),
                      let last = CivilDate(parsing: Substring(try field(state, "last", \.stringValue))) else {
                    throw unreadable("its days are not YYYY-MM-DD")
                }
                let yearly = try field(state, "yearly", \.boolValue)
                if let problem = HolidayDays.problem(first: first, last: last, yearly: yearly) { throw unreadable(problem) }
                var hours: WeeklySchedule?
                if let text = try optional(state, "hours", \.stringValue) {
                    do { hours = try WeeklySchedule(parsing: text) } catch { throw unreadable("its hours do not read: \(error)") }
                }
                return .putHoliday(name: name, first: first, last: last, yearly: yearly, hours: hours)
            case .card:
                guard let sent = HubCard(json: state) else { throw unreadable("it is not a card as the hub sends one") }
                let card = ReplicatedCard(user: try UserName(validating: sent.user), label: try CardLabel(validating: sent.label), kind: sent.kind,
                                          hash: sent.numberHash, enabled: sent.enabled, validFrom: sent.validFrom, validUntil: sent.validUntil)
                guard HubCard.changeKey(user: card.user.text, label: card.label.text) == change.key else { throw unreadable("its card is not its key") }
                guard HubCard.travelling.contains(card.kind) else { throw unreadable("a \(card.kind.rawValue) card does not travel") }
                guard card.hash.count == 32 else { throw unreadable("its hash is not 32 bytes") }
                if let from = card.validFrom, let until = card.validUntil, until <= from { throw unreadable("its validity ends before it starts") }
                return .putCard(card)
            case .doorMode:
                let door = try field(state, "door", \.stringValue)
                guard door == change.key else { throw unreadable("its door is not its key") as ReplicaError }
                guard let mode = DoorMode(rawValue: try field(state, "mode", \.stringValue)) else { throw unreadable("an unknown door mode") }
                return .putDoorMode(door: door, mode: mode, revision: change.revision)
            }
        } catch let error as ReplicaError {
            throw error
        } catch let error as MissingField {
            throw unreadable("no \(error.name), or not of its type")
        } catch {
            throw unreadable("\(error)")
        }
    }

    private struct MissingField: Error { var name: String }

    /// A member that must be there with a value of its type.
    private static func field<T>(_ state: JSONValue, _ name: String, _ view: KeyPath<JSONValue, T?>) throws -> T {
        guard let value = state[name]?[keyPath: view] else { throw MissingField(name: name) }
        return value
    }

    /// A member that must be there, null or of its type.
    private static func optional<T>(_ state: JSONValue, _ name: String, _ view: KeyPath<JSONValue, T?>) throws -> T? {
        guard let member = state[name] else { throw MissingField(name: name) }
        if member == .null { return nil }
        guard let value = member[keyPath: view] else { throw MissingField(name: name) }
        return value
    }
}

extension JSONValue {
    var int64Value: Int64? {
        guard case .int(let value) = self else { return nil }
        return value
    }
}

/// A finger as the hub sends one: its template still sealed under the fleet's key.
struct ReplicatedFinger: Equatable {
    var user: UserName
    var label: FingerLabel
    var family: String
    var size: Int
    var quality: Int
    var isDuress: Bool
    /// The change's revision, to name it in a refusal.
    var revision: Int64
    var sealed: [UInt8]
}

/// A card as the hub sends one: its number's hash under the fleet's card key.
struct ReplicatedCard: Equatable {
    var user: UserName
    var label: CardLabel
    var kind: CardNumber.Kind
    var hash: [UInt8]
    var enabled: Bool
    var validFrom: Int64?
    var validUntil: Int64?
}
