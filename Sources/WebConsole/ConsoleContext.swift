import AccessPolicy
import DoorLock
import Foundation
import JSONValue
import ServiceClient
import TemplateStore

/// What the console works on, fixed when it starts: its own settings, the door's config (for the
/// door's name and clock, and the settings page), the store (shared by every request: the store
/// serialises its own statements) and how to reach the running service.
public struct ConsoleContext: Sendable {
    public var console: LockConfig.Console
    public var config: LockConfig
    /// The config file the settings page shows and writes; nil: none (the page says so).
    public var configPath: String?
    public var store: TemplateStore
    /// The control socket (status, enroll, delete, door mode, PINs) and the store it must serve.
    public var service: ServiceAddress
    /// The service's events socket, for the live event streams.
    public var eventsSocket: String
    /// Where the browser's requests may come from (`https://HOST:PORT`): a POST whose Origin is
    /// not one of these is refused.
    public var origins: [String]

    public init(console: LockConfig.Console, config: LockConfig, configPath: String?, store: TemplateStore,
                service: ServiceAddress, eventsSocket: String, origins: [String]) {
        self.console = console
        self.config = config
        self.configPath = configPath
        self.store = store
        self.service = service
        self.eventsSocket = eventsSocket
        self.origins = origins
    }

    var timeZone: TimeZoneRules { config.doorTimeZone }

    /// The running service, or nil when none answers for this store.
    func serviceConnection() throws(ConsoleFailure) -> ServiceConnection? {
        do { return try ServiceConnection.connectIfRunning(service, allowDirect: false) } catch {
            throw ConsoleFailure(503, "The service's control socket does not answer: \(error.description)", fix: "Check `systemctl status fpmod`.")
        }
    }

    /// The running service, or 503 saying how to start it.
    func requireService(for what: String) throws(ConsoleFailure) -> ServiceConnection {
        guard let service = try serviceConnection() else {
            throw ConsoleFailure(503, "The lock service is not running, so \(what) cannot be done now.",
                                 fix: "Start it (`sudo systemctl start fpmod`, or `fpmod run`).")
        }
        return service
    }

    /// 404 for a name the store has no user of (before anything is changed for it).
    func requireUser(_ name: String) throws(ConsoleFailure) {
        let user: User?
        do { user = try store.user(named: name) } catch { throw ConsoleFailure(500, "The store could not be read: \(error)") }
        guard user != nil else { throw ConsoleFailure(404, "There is no user named \(name).", fix: "See the users page for the names.") }
    }

    /// 404 for a card the user does not have, or for no such user (before anything is changed).
    func requireCard(user name: String, label: String) throws(ConsoleFailure) {
        try requireUser(name)
        let cards: [Card]
        do { cards = try store.cards(of: name) } catch { throw ConsoleFailure(500, "The store could not be read: \(error)") }
        guard cards.contains(where: { $0.label == label }) else { throw Self.noSuchCard(user: name, label: label) }
    }

    static func noSuchCard(user: String, label: String) -> ConsoleFailure {
        ConsoleFailure(404, "\(user) has no card named \(label).", fix: "See the user's cards on the users page.")
    }

    /// One control request and its reply, refusals turned into the API's errors.
    func ask(_ request: ControlRequest, for what: String, lineTimeout: Duration = .seconds(30)) throws(ConsoleFailure) -> [String: JSONValue] {
        let service = try requireService(for: what)
        do { return try service.send(request, lineTimeout: lineTimeout) } catch {
            throw ConsoleFailure(502, "The service did not answer: \(error.description)")
        }
    }
}
