import Administration
import DoorLock
import Foundation
import Glibc
import JSONValue
import Posix

/// The running service's control socket, as the admin commands (enroll, delete, list, status)
/// reach it: while `fpmod run` owns the port, they go through the service, not around it
/// (architecture.md, "One way to talk to the service"). A console or kiosk talks to it the same way.
///
/// The socket is where `ServiceAddress.socketPath()` says. A socket file nobody answers on is
/// left over from a service that died: the commands then open the port themselves.
public final class ServiceConnection {
    public let path: String
    private let connection: UnixConnection

    private init(path: String, connection: UnixConnection) {
        self.path = path
        self.connection = connection
    }

    deinit { connection.close() }

    /// The service when one answers; nil when the command should open the module itself:
    /// --direct, --sim (a simulator of its own), no socket, or a stale one (said on stderr).
    public static func connectIfRunning(_ address: ServiceAddress, allowDirect: Bool = true) throws(ServiceClientError) -> ServiceConnection? {
        if allowDirect, address.direct || address.simulated { return nil }
        guard let service = try connectToSocket(address) else { return nil }
        return try service.serves(address) ? service : nil
    }

    /// Refuses a command that must not run beside the service (`pair`): one that holds the port
    /// this command would open, or the store it would change. Nothing goes through the service
    /// here: the control protocol has no verb that re-pairs, so a socket member can never make
    /// the lock trust another module. --direct does not bypass it (the port is still held);
    /// with --sim only the store counts (the command simulates its own module).
    public static func refuseWhileServing(_ address: ServiceAddress, command: String) throws(ServiceClientError) {
        guard let service = try connectToSocket(address) else { return }
        let status = try service.send(.status)
        let port = status["port"]?.stringValue
        let store = status["store"]?.stringValue
        // No port named: the command would use the configured one, which is the service's.
        let samePort = !address.simulated && (address.port.map { samePath($0, port) } ?? true)
        let sameStore = samePath(address.storeDatabase, store)
        guard samePort || sameStore else { return }
        let pid = status["pid"]?.intValue.map { "pid \($0)" } ?? "pid unknown"
        let holds = [samePort ? "the port \(port ?? "?")" : nil, sameStore ? "the store \(store ?? "?")" : nil]
            .compactMap { $0 }.joined(separator: " and ")
        throw ServiceClientError(.tryLater, """
            The fpmod service (\(pid), control socket \(service.path)) holds \(holds); `fpmod \(command)` \
            would compete with it for the module and change the pairing under it. Stop the service first \
            (`sudo systemctl stop fpmod`, or end that `fpmod run`), run `fpmod \(command)` again, then start it.
            """)
    }

    /// A connection to the socket a running service would listen on; nil when nobody listens.
    private static func connectToSocket(_ address: ServiceAddress) throws(ServiceClientError) -> ServiceConnection? {
        let path = try address.socketPath()
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let connection: UnixConnection
        switch Result(catching: { () throws(Errno) in try UnixConnection.connect(path: path) }) {
        case .success(let opened):
            connection = opened
        case .failure(.connectionRefused):
            address.progress("Nobody answers on \(path) (left over from a stopped service); opening the module directly.")
            return nil
        case .failure(.noSuchFile):
            return nil
        case .failure(.permissionDenied):
            throw ServiceClientError(.permission, """
                The service's control socket \(path) is not open to you; run as the service's user \
                or a member of its group, or stop the service and use --direct.
                """)
        case .failure(let error):
            throw ServiceClientError(.io, "Cannot reach the service on \(path): \(error); stop it, or use --direct.")
        }
        return ServiceConnection(path: path, connection: connection)
    }

    /// Whether this service serves the port and store the command line names (when it names
    /// them): only then does the command go through it. A service holding the named port with
    /// another store is an error naming it; any other difference means "open directly".
    func serves(_ address: ServiceAddress) throws(ServiceClientError) -> Bool {
        let wantedStore = address.store
        let wantedPort = address.port
        guard wantedStore != nil || wantedPort != nil else { return true }
        let status = try send(.status)
        let store = status["store"]?.stringValue
        let port = status["port"]?.stringValue
        let pid = status["pid"]?.intValue.map { "pid \($0), " } ?? ""
        let sameStore = wantedStore.map { Self.samePath($0, store) } ?? true
        let samePort = wantedPort.map { Self.samePath($0, port) } ?? true
        if sameStore && samePort {
            address.progress("Going through the running service (\(path)), which serves this port and store; --direct bypasses it.")
            return true
        }
        if let wantedPort, Self.samePath(wantedPort, port) {
            throw ServiceClientError(.tryLater, """
                The running service (\(pid)control socket \(path)) holds \(wantedPort) with the store \(store ?? "?"),                 not \(wantedStore ?? "this one"). Use its store (--store \(store ?? "?")), or stop the service first.
                """)
        }
        address.progress("The running service (\(path)) serves \(port ?? "another port") with \(store ?? "another store"); this command names another, so it opens them directly.")
        return false
    }

    /// Paths compared after resolving symlinks (/dev/serial0 → /dev/ttyAMA0).
    public static func samePath(_ a: String, _ b: String?) -> Bool {
        guard let b else { return false }
        func resolved(_ path: String) -> String { (path as NSString).resolvingSymlinksInPath }
        return a == b || resolved(a) == resolved(b)
    }

    /// The service, or exit 69 when none runs (for commands that only make sense with one).
    public static func require(_ address: ServiceAddress) throws(ServiceClientError) -> ServiceConnection {
        if let service = try connectIfRunning(address, allowDirect: false) { return service }
        let path = try address.socketPath()
        throw ServiceClientError(.unavailable, """
            No fpmod service answers on \(path); start it with `fpmod run` (or `systemctl start fpmod`), \
            or give the --config FILE it runs with.
            """)
    }

    /// Sends one command; progress lines (`{"progress":…}`) go to `progress`, and the final
    /// reply (the line with `ok`) is returned. `lineTimeout` bounds the wait for each line.
    /// An enroll's steps arrive as values too: with `fingerStep`, each step the line carries goes
    /// there (a front end shows it its own way, as its `Prompter` does when it holds the reader),
    /// and only a line without a known step to `progress`, worded.
    /// Replies are read with JSONValue's strict parser, the writer's own counterpart, so a
    /// value keeps its kind: a user named "true" stays a string, a 1 never reads as a Bool.
    public func send(_ request: ControlRequest, lineTimeout: Duration = .seconds(30),
                     fingerStep: ((EnrollProgress) -> Void)? = nil,
                     progress: (String) -> Void = { _ in }) throws(ServiceClientError) -> [String: JSONValue] {
        let line = request.line
        try talk { () throws(Errno) in try connection.send(line: line, deadline: .now + .seconds(5)) }
        while true {
            guard let text = try talk({ () throws(Errno) in try connection.readLine(deadline: .now + lineTimeout) }) else {
                throw ServiceClientError(connection.isClosedByPeer ? .io : .tryLater, connection.isClosedByPeer
                    ? "The service closed the control connection before answering '\(line.split(separator: " ").first ?? "")'; check its log."
                    : "The service did not answer within \(lineTimeout); it may be busy. Try again, or check its log.")
            }
            let object: [String: JSONValue]
            switch Result(catching: { () throws(JSONParseError) in try JSONValue(parsing: text) }) {
            case .success(.object(let members)):
                object = members
            case .success:
                throw ServiceClientError(.io, "The service sent a line that is not a JSON object (\(text)); is \(path) an fpmod control socket?")
            case .failure(let error):
                throw ServiceClientError(.io, "The service sent a line that is not JSON (\(error): \(text)); is \(path) an fpmod control socket?")
            }
            if object["ok"] != nil { return object }
            if let fingerStep, let step = EnrollProgress(controlLine: object) {
                fingerStep(step)
            } else if let line = object["progress"]?.stringValue {
                progress(line)
            }
        }
    }

    private func talk<T>(_ body: () throws(Errno) -> T) throws(ServiceClientError) -> T {
        switch Result(catching: body) {
        case .success(let value): return value
        case .failure(let error):
            throw ServiceClientError(.io, "Talking to the service on \(path) failed: \(error); check that it is still running.")
        }
    }

    /// Throws the reply's error with the exit status its `code` stands for.
    public static func check(_ reply: [String: JSONValue]) throws(ServiceClientError) {
        // Anything but `true` is a refusal: a reply that does not say it succeeded did not.
        guard reply["ok"]?.boolValue != true else { return }
        let message = reply["error"]?.stringValue ?? reply["reason"]?.stringValue ?? "the service refused the command"
        let kind: ServiceClientError.Kind = switch reply["code"]?.stringValue {
        case "usage": .usage
        case "busy": .tryLater
        case "unavailable": .unavailable
        case "denied": .denied
        case "refused": .denied
        default: reply["result"]?.stringValue == "denied" ? .denied : .io
        }
        throw ServiceClientError(kind, "The service refused it: " + message)
    }
}
