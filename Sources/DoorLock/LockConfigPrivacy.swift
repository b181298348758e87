extension LockConfig {
    /// `privacy.identity`: how much of an enrolled user's name each surface shows. `identity`
    /// sets every surface at once; `log`, `eventSocket` and `mqtt` override one each:
    /// `"privacy": {"identity": "masked", "eventSocket": "full"}`. Left out, the journal and
    /// MQTT (read by passers-by and third parties) are `masked` and the event socket (local,
    /// group-protected) is `full`. The store's audit log and the admin's CLI always keep full
    /// names: they are where an admin looks up who it was.
    public struct Privacy: Sendable, Equatable {
        /// `fpmod run`'s event lines and the service's log lines (the journal under systemd).
        public var log: IdentityPrivacy = .masked
        /// The JSON lines of the events socket.
        public var eventSocket: IdentityPrivacy = .full
        /// Every payload sent to the broker: events, `changed_by`, admin progress.
        public var mqtt: IdentityPrivacy = .masked

        public init() {}

        public init(all level: IdentityPrivacy) {
            log = level
            eventSocket = level
            mqtt = level
        }
    }

    static let privacyKeys = ["identity", "log", "eventSocket", "mqtt"]

    mutating func readPrivacy(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: Self.privacyKeys, at: "privacy")
        func level(_ key: String) -> IdentityPrivacy? {
            guard let value = object[key], let text = r.string(value, "privacy." + key) else { return nil }
            guard let chosen = IdentityPrivacy(rawValue: text) else {
                r.problem("privacy." + key, "'\(text)' is not one of full, masked, none (full: the whole name; masked: "
                    + "the first and last letter, as in a***e; none: no name at all)")
                return nil
            }
            return chosen
        }
        var settings = Privacy()
        if let all = level("identity") { settings = Privacy(all: all) }
        if let log = level("log") { settings.log = log }
        if let events = level("eventSocket") { settings.eventSocket = events }
        if let mqtt = level("mqtt") { settings.mqtt = mqtt }
        privacy = settings
    }
}
