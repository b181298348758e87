import Foundation
import MQTT
import Posix

/// A second MQTT client playing Home Assistant: subscribes to the given filters and keeps
/// every message it receives, pumped by the test thread.
public final class MQTTObserver {
    public let client: MQTTClient
    public private(set) var messages: [MQTTMessage] = []

    public init(_ broker: TestBroker, user: String, password: String, filters: [String]) throws {
        client = try MQTTClient(options: broker.clientOptions(user: user, password: password, clientID: "observer-\(getpid())"))
        client.onMessage = { [unowned self] in messages.append($0) }
        for filter in filters { try client.subscribe(filter, qos: 1) }
        client.start()
    }

    public func last(_ topic: String) -> String? { messages.last { $0.topic == topic }?.text }
    public func count(_ topic: String) -> Int { messages.filter { $0.topic == topic }.count }
    public func contains(_ topic: String, where match: (String) -> Bool) -> Bool {
        messages.contains { $0.topic == topic && match($0.text) }
    }

    /// Polls the client until `done`, at most `limit` (the bound only ends a failing test).
    @discardableResult
    public func pump(within limit: Duration = .seconds(20), until done: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + limit
        while !done() {
            if ContinuousClock.now >= deadline { return false }
            var events: PollEvents = []
            if let request = client.pollRequest {
                events = (try? poll([request], deadline: .now + .milliseconds(100)))?.first ?? []
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
            client.service(events)
        }
        return true
    }
}
