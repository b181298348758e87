import Foundation

/// `mosquitto_sub` as an independent party: connects, takes one message on `topic` (a retained
/// one arrives at once), prints "retained-flag|topic|payload".
public func subscribeOnce(_ broker: TestBroker, user: String, password: String, topic: String) throws -> String {
    try run("/usr/bin/mosquitto_sub", [
        "-h", "127.0.0.1", "-p", String(broker.port), "-u", user, "-P", password,
        "-t", topic, "-C", "1", "-W", "20", "-F", "%r|%t|%p",
    ]).trimmingCharacters(in: .newlines)
}
