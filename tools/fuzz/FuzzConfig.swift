// libFuzzer entry point for the configuration file: the input is a config file's bytes, read
// by LockConfig.parsePartially (what `fpmod config check` shows) and LockConfig.parse (what
// `fpmod run` starts from). Built by tools/fuzz.sh against the instrumented libraries.
// Invariants: no crash or hang on any bytes; the two readings agree — a file `run` accepts has
// no problem for `config check`, and a file with a problem is refused by `run` — so a typo can
// never start a door that `config check` said was broken, nor the other way round.

import DoorLock
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let (partial, problems) = LockConfig.parsePartially(bytes, source: "fuzz.json")
    let whole: LockConfig?
    do { whole = try LockConfig.parse(bytes, source: "fuzz.json") } catch {
        if error.description.isEmpty { fatalError("a refused config without words") }
        whole = nil
    }
    if whole != nil && !problems.isEmpty { fatalError("run accepts a config that config check finds problems in: \(problems)") }
    if whole == nil && problems.isEmpty && partial != nil { fatalError("run refuses a config that config check finds no problem in") }
    return 0
}

/// FPMOD_FUZZ_WRITE_SEEDS=DIR: write small configs covering the sections to DIR and exit
/// (tools/fuzz.sh adds tools/config.example.json).
@_cdecl("LLVMFuzzerInitialize")
public func writeSeeds(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FPMOD_FUZZ_WRITE_SEEDS"] else { return 0 }
    let seeds = [
        #"{}"#,
        #"{"board": "gpio-vm", "policy": {"relayPulseSeconds": 0.3, "fingerprintLockout": {"afterFailures": 5, "seconds": 30}}}"#,
        #"{"module": {"port": "/dev/serial0", "baud": 57600}, "store": {"database": "/var/lib/fpmod/fpmod.db"}}"#,
        #"{"keypad": {"device": "/dev/input/event0"}, "wiegand": {"d0": 17, "d1": 27}, "nfc": {"connstring": "pn532_uart:/dev/ttyS0"}}"#,
        #"{"mqtt": {"host": "localhost", "port": 1883, "username": "door"}, "console": {"enabled": true, "port": 8443}}"#,
        #"{"access": {"timeZone": "Europe/Berlin", "passageSchedule": "office"}, "hooks": {"onUnlock": "/usr/local/bin/x"}}"#
    ]
    for (index, seed) in seeds.enumerated() {
        _ = FileManager.default.createFile(atPath: "\(directory)/seed-\(index)", contents: Data(seed.utf8))
    }
    exit(0)
}
