import Foundation

/// A lock command as the discovery's `command_template` makes Home Assistant send it:
/// `{"action":"UNLOCK","code":"4826"}`. Anything else is nil (and ignored by the bridge).
struct HomeAssistantCommand: Equatable {
    var action: String
    var code: String?

    init?(json payload: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
              let action = object["action"] as? String else { return nil }
        self.action = action
        // Home Assistant renders a missing code as "None".
        let code = object["code"] as? String
        self.code = code == "None" ? nil : code
    }
}
