import ConsoleHTTP
import Foundation
import Posix

/// The service's public events as Server-Sent Events: one `event: door` per line of the events
/// socket, a comment every 5 s (well inside the server's idle timeout, which would otherwise
/// close a quiet stream) so the connection stays open, and when the service
/// is not running a `service` event saying so, with a new connection tried every few seconds.
/// Each stream is its own subscriber: a slow browser is dropped by the service, never waited for.
final class EventSocketStream: HTTPBodyStream, @unchecked Sendable {
    private let path: String
    private let eventName: String
    private let lock = NSLock()
    // Guarded by `lock`.
    private var connection: UnixConnection?
    private var closed = false
    private var lastSent = ContinuousClock.now
    private var nextConnectAttempt = ContinuousClock.now
    private var saidStopped = false
    private var greeted = false

    /// Below the HTTP server's idle timeout (10 s): a stream that says nothing for that long is closed.
    static let keepAliveInterval: Duration = .seconds(5)

    /// Asked every 15 s: false ends the stream (its session ended: logout, "log out everywhere",
    /// expiry). nil: a stream nobody signed in for (the lock screen's).
    private let stillAllowed: (@Sendable () -> Bool)?
    // Guarded by `lock`.
    private var lastAllowedCheck = ContinuousClock.now

    private let checkEvery: Duration

    init(eventsSocket path: String, eventName: String = "door", stillAllowed: (@Sendable () -> Bool)? = nil,
         checkEvery: Duration = .seconds(15)) {
        self.path = path
        self.eventName = eventName
        self.stillAllowed = stillAllowed
        self.checkEvery = checkEvery
    }

    func next(deadline: ContinuousClock.Instant) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        if closed { return nil }
        if let stillAllowed, ContinuousClock.now - lastAllowedCheck >= checkEvery {
            lastAllowedCheck = .now
            if !stillAllowed() {
                closed = true
                connection?.close()
                connection = nil
                return nil
            }
        }
        if !greeted {
            greeted = true
            // The browser reconnects after `retry` ms when the stream ends.
            return Array("retry: 3000\n: fpmod events\n\n".utf8)
        }
        if connection == nil, ContinuousClock.now >= nextConnectAttempt {
            connection = try? UnixConnection.connect(path: path)
            nextConnectAttempt = .now + .seconds(3)
            if connection != nil, saidStopped {
                saidStopped = false
                return sent(Self.event("service", #"{"service":"running"}"#))
            }
        }
        guard let connection else {
            if !saidStopped {
                saidStopped = true
                return sent(Self.event("service", #"{"service":"stopped"}"#))
            }
            // Nothing to read from: wait a little rather than have the server call again at once.
            Thread.sleep(forTimeInterval: 0.25)
            return keepAliveOrNothing()
        }
        // Short reads under the lock: `close()` from the server's thread waits at most this long.
        let wait = min(deadline, .now + .milliseconds(500))
        do {
            if let line = try connection.readLine(deadline: wait) {
                return sent(Self.event(eventName, line))
            }
        } catch {
            dropConnection()
            return []
        }
        if connection.isClosedByPeer { dropConnection() }
        return keepAliveOrNothing()
    }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        closed = true
        connection?.close()
        connection = nil
    }

    private func dropConnection() {
        connection?.close()
        connection = nil
        nextConnectAttempt = .now + .seconds(1)
    }

    private func keepAliveOrNothing() -> [UInt8] {
        guard ContinuousClock.now - lastSent >= Self.keepAliveInterval else { return [] }
        return sent(": keep-alive\n\n")
    }

    private func sent(_ text: String) -> [UInt8] {
        lastSent = .now
        return Array(text.utf8)
    }

    /// One event; a data line never holds a line break (JSON lines do not), but one is split anyway.
    static func event(_ name: String, _ data: String) -> String {
        "event: \(name)\n" + data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined() + "\n"
    }
}

extension HTTPResponse {
    static func eventStream(_ stream: any HTTPBodyStream) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("X-Accel-Buffering", "no")],
                     body: .stream(stream))
    }
}
