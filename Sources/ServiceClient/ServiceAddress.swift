import DoorLock
import Foundation
import Posix

/// Where a running service would listen, and what a command wants of it: the port and store it
/// names (a service serving others is not the one to go through), and whether it may go
/// around the service (--direct, or a simulator of its own).
public struct ServiceAddress: Sendable {
    /// The configuration file the user named (--config, FPMOD_CONFIG); nil: the installed one
    /// when present. Only a named one that does not load is an error.
    public var configPath: String?
    public var environment: [String: String]
    /// Open the module and store directly even when a service answers (--direct).
    public var direct = false
    /// The command runs on a simulator of its own (--sim): never through the service, and the
    /// service's port is not its port.
    public var simulated = false
    /// The port and store the command names, when it names them.
    public var port: String?
    public var store: String?
    /// The store the command would use (named, configured or default).
    public var storeDatabase: String
    /// Findings on the way (a stale socket, going through the service), one line each.
    public var progress: @Sendable (String) -> Void = { _ in }


    public init(configPath: String?, environment: [String: String], storeDatabase: String) {
        self.configPath = configPath
        self.environment = environment
        self.storeDatabase = storeDatabase
    }

    /// The config's `control.socket` (the named config, else the installed one when present),
    /// else `control.sock` in the default socket directory.
    public func socketPath() throws(ServiceClientError) -> String {
        let path = configPath ?? LockConfig.installedPathIfPresent
        var configured: String?
        if let path {
            do {
                configured = try LockConfig.load(path: path).controlSocket
            } catch {
                // Only a file the user named is worth stopping for.
                if configPath != nil { throw ServiceClientError(.config, String(describing: error)) }
            }
        }
        return configured ?? LockConfig.defaultSocketDirectory(environment: environment, euid: CurrentProcess.effectiveUserID) + "/control.sock"
    }
}
