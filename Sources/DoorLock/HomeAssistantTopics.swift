/// The topics of one lock. Discovery goes under the Home Assistant prefix; everything else
/// under `fpmod/<deviceId>/`, named in the discovery payload so a client needs nothing else.
public struct HomeAssistantTopics: Sendable, Equatable {
    public let discoveryPrefix: String
    public let deviceID: String

    public init(discoveryPrefix: String, deviceID: String) {
        self.discoveryPrefix = discoveryPrefix
        self.deviceID = deviceID
    }

    var base: String { "fpmod/\(deviceID)" }

    /// Device-based discovery: one retained payload for every entity; an empty one removes it.
    public var discovery: String { "\(discoveryPrefix)/device/\(deviceID)/config" }
    /// Home Assistant's birth and will: `online` means "send discovery and state again".
    public var homeAssistantStatus: String { "\(discoveryPrefix)/status" }
    /// Retained `online`, and the retained last will `offline`.
    public var availability: String { "\(base)/availability" }
    /// Retained `LOCKED` / `UNLOCKED` / `OPEN` / `JAMMED`.
    public var lockState: String { "\(base)/lock/state" }
    /// Retained `{"changed_by": …}`: the lock's attributes.
    public var lockAttributes: String { "\(base)/lock/attributes" }
    /// `LOCK` / `UNLOCK` / `OPEN` from Home Assistant; never retained by fpmod, and a retained
    /// one found on connect is ignored.
    public var lockCommand: String { "\(base)/lock/set" }
    /// Admin commands as JSON (`HomeAssistantAdminCommand`), only with `mqtt.adminCommands`;
    /// never retained, like the lock's.
    public var adminCommand: String { "\(base)/admin/set" }
    /// A door mode from the select entity (`lockdown`, `normal` …), never retained: the ones
    /// that only keep people out are taken, the others need an admin command with a PIN.
    public var doorModeCommand: String { "\(base)/door_mode/set" }
    /// One JSON object per decision, not retained: the event entity.
    public var event: String { "\(base)/event" }
    /// Retained JSON with every sensor's value; each entity picks its key with a template.
    public var state: String { "\(base)/state" }
}
