import ArgumentParsing
import DoorLock
import Foundation
import Glibc
import Posix

/// The running service's control socket, as the admin commands (enroll, delete, list, status)
/// reach it: while `fpmod run` owns the port, they go through the service, not around it
/// (architecture.md, "One way to talk to the service").
///
/// The socket is the config's `control.socket` (--config FILE, else /etc/fpmod/config.json when
/// present), else `control.sock` in the default socket directory. A socket file nobody answers
/// on is left over from a service that died: the commands then open the port themselves.
final class ServiceControl {
    let path: String
    private let connection: UnixConnection

    private init(path: String, connection: UnixConnection) {
        self.path = path
        self.connection = connection
    }

    deinit { connection.close() }

    /// Where a running service would listen, for this command line.
    static func socketPath(_ invocation: Invocation) throws -> String {
        let explicit = invocation.parsed.string("config")
        let configPath = explicit ?? (FileManager.default.fileExists(atPath: RunCommand.defaultConfigPath) ? RunCommand.defaultConfigPath : nil)
        var configured: String?
        if let configPath {
            do {
                configured = try LockConfig.load(path: configPath).controlSocket
            } catch {
                // Only a file the user named is worth stopping for.
                if explicit != nil { throw CommandFailure(.config, String(describing: error)) }
            }
        }
        return configured ?? LockConfig.defaultSocketDirectory(environment: invocation.environment, euid: CurrentProcess.effectiveUserID) + "/control.sock"
    }

    /// The service when one answers; nil when the command should open the module itself:
    /// --direct, --sim (a simulator of its own), no socket, or a stale one (said on stderr).
    static func connectIfRunning(_ invocation: Invocation, allowDirect: Bool = true) throws -> ServiceControl? {
        let parsed = invocation.parsed
        if allowDirect, parsed.flag("direct") || parsed.flag("sim") { return nil }
        guard let service = try connectToSocket(invocation) else { return nil }
        return try service.serves(invocation) ? service : nil
    }

    /// Refuses a command that must not run beside the service (`pair`): one that holds the port
    /// this command would open, or the store it would change. Nothing goes through the service
    /// here: the control protocol has no verb that re-pairs, so a socket member can never make
    /// the lock trust another module. --direct does not bypass it (the port is still held);
    /// with --sim only the store counts (the command simulates its own module).
    static func refuseWhileServing(_ invocation: Invocation, command: String) throws {
        guard let service = try connectToSocket(invocation) else { return }
        let status = try service.send(.status)
        let port = status["port"]?.stringValue
        let store = status["store"]?.stringValue
        // No port named: the command would use the configured one, which is the service's.
        let samePort = !invocation.parsed.flag("sim") && (invocation.parsed.string("port").map { samePath($0, port) } ?? true)
        let sameStore = samePath(invocation.storePaths.database, store)
        guard samePort || sameStore else { return }
        let pid = status["pid"]?.intValue.map { "pid \($0)" } ?? "pid unknown"
        let holds = [samePort ? "the port \(port ?? "?")" : nil, sameStore ? "the store \(store ?? "?")" : nil]
            .compactMap { $0 }.joined(separator: " and ")
        throw CommandFailure(.tryLater, """
            The fpmod service (\(pid), control socket \(service.path)) holds \(holds); `fpmod \(command)` \
            would compete with it for the module and change the pairing under it. Stop the service first \
            (`sudo systemctl stop fpmod`, or end that `fpmod run`), run `fpmod \(command)` again, then start it.
            """)
    }

    /// A connection to the socket a running service would listen on; nil when nobody listens.
    private static func connectToSocket(_ invocation: Invocation) throws -> ServiceControl? {
        let path = try socketPath(invocation)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let connection: UnixConnection
        switch Result(catching: { () throws(Errno) in try UnixConnection.connect(path: path) }) {
        case .success(let opened):
            connection = opened
        case .failure(.connectionRefused):
            invocation.progress("Nobody answers on \(path) (left over from a stopped service); opening the module directly.")
            return nil
        case .failure(.noSuchFile):
            return nil
        case .failure(.permissionDenied):
            throw CommandFailure(.permission, """
                The service's control socket \(path) is not open to you; run as the service's user \
                or a member of its group, or stop the service and use --direct.
                """)
        case .failure(let error):
            throw CommandFailure(.ioError, "Cannot reach the service on \(path): \(error); stop it, or use --direct.")
        }
        return ServiceControl(path: path, connection: connection)
    }

    /// Whether this service serves the port and store the command line names (when it names
    /// them): only then does the command go through it. A service holding the named port with
    /// another store is an error naming it; any other difference means "open directly".
    func serves(_ invocation: Invocation) throws -> Bool {
        let parsed = invocation.parsed
        let wantedStore = parsed.string("store")
        let wantedPort = parsed.string("port")
        guard wantedStore != nil || wantedPort != nil else { return true }
        let status = try send(.status)
        let store = status["store"]?.stringValue
        let port = status["port"]?.stringValue
        let pid = status["pid"]?.intValue.map { "pid \($0), " } ?? ""
        let sameStore = wantedStore.map { Self.samePath($0, store) } ?? true
        let samePort = wantedPort.map { Self.samePath($0, port) } ?? true
        if sameStore && samePort {
            invocation.progress("Going through the running service (\(path)), which serves this port and store; --direct bypasses it.")
            return true
        }
        if let wantedPort, Self.samePath(wantedPort, port) {
            throw CommandFailure(.tryLater, """
                The running service (\(pid)control socket \(path)) holds \(wantedPort) with the store \(store ?? "?"),                 not \(wantedStore ?? "this one"). Use its store (--store \(store ?? "?")), or stop the service first.
                """)
        }
        invocation.progress("The running service (\(path)) serves \(port ?? "another port") with \(store ?? "another store"); this command names another, so it opens them directly.")
        return false
    }

    /// Paths compared after resolving symlinks (/dev/serial0 → /dev/ttyAMA0).
    static func samePath(_ a: String, _ b: String?) -> Bool {
        guard let b else { return false }
        func resolved(_ path: String) -> String { (path as NSString).resolvingSymlinksInPath }
        return a == b || resolved(a) == resolved(b)
    }

    /// The service, or exit 69 when none runs (for commands that only make sense with one).
    static func require(_ invocation: Invocation) throws -> ServiceControl {
        if let service = try connectIfRunning(invocation, allowDirect: false) { return service }
        let path = try socketPath(invocation)
        throw CommandFailure(.unavailable, """
            No fpmod service answers on \(path); start it with `fpmod run` (or `systemctl start fpmod`), \
            or give the --config FILE it runs with.
            """)
    }

    /// Sends one command; progress lines (`{"progress":…}`) go to `progress`, and the final
    /// reply (the line with `ok`) is returned. `lineTimeout` bounds the wait for each line.
    /// Replies are read with JSONValue's strict parser, the writer's own counterpart, so a
    /// value keeps its kind: a user named "true" stays a string, a 1 never reads as a Bool.
    func send(_ request: ControlRequest, lineTimeout: Duration = .seconds(30),
              progress: (String) -> Void = { _ in }) throws -> [String: JSONValue] {
        let line = request.line
        try talk { () throws(Errno) in try connection.send(line: line, deadline: .now + .seconds(5)) }
        while true {
            guard let text = try talk({ () throws(Errno) in try connection.readLine(deadline: .now + lineTimeout) }) else {
                throw CommandFailure(connection.isClosedByPeer ? .ioError : .tryLater, connection.isClosedByPeer
                    ? "The service closed the control connection before answering '\(line.split(separator: " ").first ?? "")'; check its log."
                    : "The service did not answer within \(lineTimeout); it may be busy. Try again, or check its log.")
            }
            let object: [String: JSONValue]
            switch Result(catching: { () throws(JSONParseError) in try JSONValue(parsing: text) }) {
            case .success(.object(let members)):
                object = members
            case .success:
                throw CommandFailure(.ioError, "The service sent a line that is not a JSON object (\(text)); is \(path) an fpmod control socket?")
            case .failure(let error):
                throw CommandFailure(.ioError, "The service sent a line that is not JSON (\(error): \(text)); is \(path) an fpmod control socket?")
            }
            if object["ok"] != nil { return object }
            if let step = object["progress"]?.stringValue { progress(step) }
        }
    }

    private func talk<T>(_ body: () throws(Errno) -> T) throws -> T {
        switch Result(catching: body) {
        case .success(let value): return value
        case .failure(let error):
            throw CommandFailure(.ioError, "Talking to the service on \(path) failed: \(error); check that it is still running.")
        }
    }

    /// Throws the reply's error with the exit status its `code` stands for.
    static func check(_ reply: [String: JSONValue]) throws {
        // Anything but `true` is a refusal: a reply that does not say it succeeded did not.
        guard reply["ok"]?.boolValue != true else { return }
        let message = reply["error"]?.stringValue ?? reply["reason"]?.stringValue ?? "the service refused the command"
        let code: ExitCode = switch reply["code"]?.stringValue {
        case "usage": .usage
        case "busy": .tryLater
        case "unavailable": .unavailable
        case "denied": .denied
        case "refused": .denied
        default: reply["result"]?.stringValue == "denied" ? .denied : .ioError
        }
        throw CommandFailure(code, "The service refused it: " + message)
    }
}
