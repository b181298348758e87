import AccessPolicy
import Foundation
import TemplateStore

/// An admin command from Home Assistant on `fpmod/<deviceId>/admin/set` (only subscribed with
/// `mqtt.adminCommands`), one JSON object, never retained:
/// `{"command":"enroll","user":"carol","finger":"left-index","code":"<admin PIN>"}`,
/// `{"command":"delete","user":"carol","finger":"left-index","code":"…"}` (no `finger`: every
/// finger of carol, and carol), `{"command":"clear","code":"…"}` (ends a timed lockout),
/// `{"command":"door-mode","mode":"passage","code":"…"}` (any door mode).
/// Anything else is nil, and the bridge ignores it with a log line.
///
/// A remote enroll makes an ordinary finger only: an admin or a duress finger is enrolled at the
/// machine (`fpmod enroll --admin/--duress`), since progress goes to Home Assistant and a
/// duress finger must never show there.
struct HomeAssistantAdminCommand: Equatable {
    enum Action: Equatable {
        case enroll(user: UserName, finger: FingerLabel)
        case delete(user: String, finger: String?)
        case clear
        case doorMode(DoorMode)
    }

    var action: Action
    /// The admin's PIN; never logged or published.
    var code: String

    /// An admin's PIN and a user name with a finger label fit in far less.
    static let sizeLimit = 512

    init?(json payload: [UInt8]) {
        guard payload.count <= Self.sizeLimit,
              let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
              let command = object["command"] as? String,
              let code = object["code"] as? String, !code.isEmpty, code != "None",
              Set(object.keys).isSubset(of: ["command", "user", "finger", "code", "mode"]) else { return nil }
        let user = object["user"] as? String
        let finger = object["finger"] as? String
        guard object["user"] == nil || user.map(Self.isName) == true,
              object["finger"] == nil || finger.map(Self.isName) == true else { return nil }
        switch command {
        case "enroll":
            // `isName` held both to the user-name rule; the types say so to the worker.
            guard let user, let name = try? UserName(validating: user),
                  let label = finger.map({ try? FingerLabel(validating: $0) }) ?? FingerLabel("right-index") else { return nil }
            action = .enroll(user: name, finger: label)
        case "delete":
            guard let user else { return nil }
            action = .delete(user: user, finger: finger)
        case "clear":
            guard user == nil, finger == nil, object["mode"] == nil else { return nil }
            action = .clear
        case "door-mode":
            guard user == nil, finger == nil, let mode = (object["mode"] as? String).flatMap(DoorMode.init(rawValue:)) else { return nil }
            action = .doorMode(mode)
        default:
            return nil
        }
        self.code = code
    }

    /// The store's rule for user names (ASCII letters, digits, `.`, `_`, `-`, `@`; at most 64
    /// bytes), for labels too, checked here so nothing odd reaches a log line.
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.allSatisfy(allowed.contains)
    }

    private static let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-@")

    var verb: String {
        switch action {
        case .enroll: "enroll"
        case .delete: "delete"
        case .clear: "clear"
        case .doorMode: "door-mode"
        }
    }

    var user: String? {
        switch action {
        case .enroll(let user, _): user.text
        case .delete(let user, _): user
        case .clear, .doorMode: nil
        }
    }

    /// Whether the worker (the module) runs it: enroll and delete; the rest is the policy's.
    var needsModule: Bool {
        switch action {
        case .enroll, .delete: true
        case .clear, .doorMode: false
        }
    }
}
