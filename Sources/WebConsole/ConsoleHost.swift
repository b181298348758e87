import ConsoleHTTP
import DoorLock
import Foundation
import ServiceClient
import TemplateStore

/// The console running: its HTTPS server and, when configured, the lock screen's loopback
/// listener, each on libmicrohttpd's own threads, so a request never waits on the door and the
/// door never waits on a request (the console reaches the service through its sockets, and the
/// store through a connection of its own).
public final class ConsoleHost: Sendable {
    public let context: ConsoleContext
    public let certificate: ConsoleCertificate
    let console: HTTPServer
    let lockScreen: HTTPServer?

    /// The console's own addresses, as `fpmod console url` prints them.
    public var urls: [String] { Self.urls(context.console, port: console.port) }
    public var port: Int { console.port }
    public var lockScreenPort: Int? { lockScreen?.port }

    public init(context: ConsoleContext, certificate: ConsoleCertificate) throws {
        self.context = context
        self.certificate = certificate
        var settings = HTTPServerConfiguration()
        settings.bindAddress = context.console.bind
        settings.port = context.console.port
        settings.tls = (certificate.certificatePEM, certificate.privateKeyPEM)
        do {
            console = try HTTPServer(configuration: settings, handler: ConsoleRoutes(context: context))
        } catch {
            throw ConsoleStartError("The console cannot listen on \(context.console.bind):\(context.console.port): \(error). "
                + "Is another program using the port? Choose another with console.port.")
        }
        if let port = context.console.lockScreenPort {
            var loopback = HTTPServerConfiguration()
            loopback.bindAddress = "127.0.0.1"
            loopback.port = port
            loopback.maxConnections = 16
            do {
                lockScreen = try HTTPServer(configuration: loopback, handler: LockScreenRoutes(context: context, port: port))
            } catch {
                console.stop()
                throw ConsoleStartError("The lock screen cannot listen on 127.0.0.1:\(port): \(error). Choose another console.lockScreenPort.")
            }
        } else {
            lockScreen = nil
        }
    }

    /// Listening on every interface of a machine (or namespace) whose only address is loopback:
    /// the packaged unit's `PrivateNetwork=yes`, which the admin has to lift for a console.
    public var reachableFromThisMachineOnly: Bool {
        context.console.bind == "0.0.0.0" && MachineNames.interfaceAddresses().allSatisfy { $0.hasPrefix("127.") }
    }

    public func stop() {
        lockScreen?.stop()
        console.stop()
    }

    /// https://NAME:PORT/ for each name and address the machine answers to (bound to one
    /// address: that one only).
    public static func urls(_ console: LockConfig.Console, port: Int) -> [String] {
        let names = MachineNames.current(extra: console.hostNames)
        let hosts = console.bind == "0.0.0.0" ? names.hostNames.filter { $0 != "localhost" } + names.addresses : [console.bind]
        return hosts.map { "https://\($0):\(port)/" }
    }
}

extension ConsoleHost {
    /// The console of the door this config describes, on its store and sockets: what `fpmod
    /// console` runs alone and what a service runs beside itself.
    public static func start(config: LockConfig, configPath: String?, storeDatabase: String, storeKey: String,
                             eventsSocket: String, environment: [String: String]) throws -> ConsoleHost {
        let context = try ConsoleContext.forDoor(config: config, configPath: configPath, storeDatabase: storeDatabase,
                                                 storeKey: storeKey, eventsSocket: eventsSocket, environment: environment)
        let certificate = try ConsoleCertificate.loadOrCreate(config.console, storeDatabase: storeDatabase)
        return try ConsoleHost(context: context, certificate: certificate)
    }

    /// The console a service starts beside itself when its config enables it (nil otherwise):
    /// a front end of that service like any other, on threads of its own.
    public static func startIfEnabled(config: LockConfig, configPath: String?, storeDatabase: String, storeKey: String,
                                      eventsSocket: String, environment: [String: String]) throws -> ConsoleHost? {
        guard config.console.enabled else { return nil }
        return try start(config: config, configPath: configPath, storeDatabase: storeDatabase, storeKey: storeKey,
                         eventsSocket: eventsSocket, environment: environment)
    }

    /// Where it answers and what to compare, in one line for a journal or a terminal.
    public var summary: String {
        urls.joined(separator: ", ") + " (certificate SHA-256 \(certificate.sha256Fingerprint))"
            + (lockScreenPort.map { "; lock screen http://127.0.0.1:\($0)/lock" } ?? "")
            + (reachableFromThisMachineOnly ? "; reachable from this machine only: the service has no network "
               + "(PrivateNetwork=yes in its unit; see docs/console.md)" : "")
    }
}

extension ConsoleContext {
    /// The context of the door this config describes: its store (a connection of the console's
    /// own), its sockets, its config file; the origins the browser may use are the machine's names.
    public static func forDoor(config: LockConfig, configPath: String?, storeDatabase: String, storeKey: String,
                               eventsSocket: String, environment: [String: String]) throws -> ConsoleContext {
        let store = try TemplateStore(databasePath: storeDatabase, keyPath: storeKey)
        let address = ServiceAddress(configPath: configPath, environment: environment, storeDatabase: storeDatabase)
        let names = MachineNames.current(extra: config.console.hostNames)
        let origins = (names.hostNames + names.addresses).map { "https://\($0):\(config.console.port)" }
        return ConsoleContext(console: config.console, config: config, configPath: configPath, store: store, service: address,
                              eventsSocket: eventsSocket, origins: origins)
    }
}
