import Foundation
import JSONValue
import ServiceClient

/// `fpmod run --sim --sim-gpio` in a folder of its own (store, sockets, config), as the benches
/// that time the running service start it; stopped when the value is.
final class BenchService {
    let process = Process()
    let address: ServiceAddress
    let directory: String

    /// Starts it on `config` (written to DIRECTORY/config.json) and waits until `ready` holds of
    /// its `status` reply (30 s at most). Throws a reason a bench prints as "not measured".
    init(executable: String, directory: String, database: String, key: String, config: String,
         ready: ([String: JSONValue]) -> Bool = { $0["ok"] == .bool(true) }) throws(BenchFailure) {
        self.directory = directory
        _ = FileManager.default.createFile(atPath: directory + "/config.json", contents: Data(config.utf8))
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--sim", "--store", database, "--key", key, "--config", directory + "/config.json", "run", "--sim-gpio"]
        var environment = ProcessInfo.processInfo.environment
        environment["RUNTIME_DIRECTORY"] = directory
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Reached as every front end reaches it (ServiceClient), through the config's socket.
        address = ServiceAddress(configPath: directory + "/config.json", environment: environment, storeDatabase: database)
        do { try process.run() } catch { throw BenchFailure("cannot start \(executable): \(error)") }
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let status = try? ServiceConnection.require(address).send(.status), ready(status) { return }
            guard process.isRunning else { throw BenchFailure("fpmod run exited at start-up") }
            usleep(50_000)
        }
        stop()
        throw BenchFailure("fpmod run did not answer within 30 s")
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

public struct BenchFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
