// libFuzzer entry point for the service's control-socket protocol: the input is one line as a
// client could send it, parsed by ControlRequest(line:) exactly as the service reads it.
// Built by tools/fuzz.sh against the instrumented libraries (SwiftPM executables cannot link
// libFuzzer's own main).
// Invariants: no crash or hang on any bytes; a refusal is a ControlUsageError with text; a
// request that parses prints (`line`, what clients send) to a line that parses to the same
// request, so client and service cannot drift.

import DoorLock
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControl(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let request: ControlRequest
    do { request = try ControlRequest(line: line) } catch {
        if error.description.isEmpty { fatalError("a refusal without words for \(line.debugDescription)") }
        return 0
    }
    do {
        let again = try ControlRequest(line: request.line)
        if again != request { fatalError("\(line.debugDescription) parsed as \(request), printed as \(request.line.debugDescription), read back as \(again)") }
    } catch {
        fatalError("\(line.debugDescription) parsed as \(request) but its printed line \(request.line.debugDescription) is refused: \(error)")
    }
    return 0
}

/// FPMOD_FUZZ_WRITE_SEEDS=DIR: write the seed corpus (every verb, valid and not) to DIR and exit.
@_cdecl("LLVMFuzzerInitialize")
public func writeSeeds(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FPMOD_FUZZ_WRITE_SEEDS"] else { return 0 }
    let seeds = ["status", "scan", "list", "pin 4826", "pin alice 4826", "card 26:12:3456", "card uid:04a1b2c3d4e5f6",
                 "unlock alice 4826", "clear alice 4826", "clear", "enroll bob", "enroll bob left-index --duress --admin",
                 "delete bob", "delete bob left-index", "door-mode lockdown", "door-mode first-person-in", "pin", "enroll"]
    for (index, seed) in seeds.enumerated() {
        _ = FileManager.default.createFile(atPath: "\(directory)/seed-\(index)", contents: Data(seed.utf8))
    }
    exit(0)
}
