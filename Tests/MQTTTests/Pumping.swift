import Foundation
import MQTT
import MQTTTestSupport
import Posix

/// Drives clients the way the service's loop does: one poll over their sockets (with each one's
/// `pollRequest`), then `service` for each, until `done` or `limit` passes. The limit only
/// bounds a failing test; nothing asserts how quickly things happen.
@discardableResult
func pump(_ clients: [MQTTClient], within limit: Duration = .seconds(20), until done: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while !done() {
        let now = ContinuousClock.now
        if now >= deadline { return false }
        var descriptors: [(FileDescriptor, PollEvents)] = []
        var owners: [Int] = []
        for (index, client) in clients.enumerated() {
            if let request = client.pollRequest {
                descriptors.append(request)
                owners.append(index)
            }
        }
        let wake = ([deadline, now + .milliseconds(200)] + clients.compactMap(\.nextWake)).min()!
        var events = Array(repeating: PollEvents(), count: clients.count)
        if descriptors.isEmpty {
            let pause = max(Duration.zero, now.duration(to: wake))
            Thread.sleep(forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
        } else if let ready = try? poll(descriptors, deadline: wake) {
            for (position, owner) in owners.enumerated() { events[owner] = ready[position] }
        }
        for (index, client) in clients.enumerated() { client.service(events[index]) }
    }
    return true
}

/// Collects what a client receives and every connection problem it reports.
final class Inbox {
    var messages: [MQTTMessage] = []
    var problems: [MQTTError] = []

    init(_ client: MQTTClient) {
        client.onMessage = { [unowned self] in messages.append($0) }
        client.onConnectionProblem = { [unowned self] in problems.append($0) }
    }

    func messages(on topic: String) -> [MQTTMessage] { messages.filter { $0.topic == topic } }
}

