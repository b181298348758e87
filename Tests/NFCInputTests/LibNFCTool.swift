import Foundation
import PN532Simulator

/// One run of a libnfc program we did not write (`nfc-list`, `mifare-desfire-info`) against a
/// simulated PN532: pointed at its pseudo-terminal only (no scan of serial ports that are not
/// ours), stdout and stderr together, and killed after a minute, because a hang is a finding,
/// not a stuck test run.
enum LibNFCTool {
    static func run(_ path: String, against server: PN532SimulatorServer) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_DEFAULT_DEVICE"] = "pn532_uart:\(server.devicePath)"
        environment["LIBNFC_INTRUSIVE_SCAN"] = "false"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(60), execute: watchdog)
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, output)
    }
}
