import Foundation
import FingerprintProtocol
import ModuleSimulator
import Posix

/// `fpmod sim`: a simulated module on a pseudo-terminal until SIGINT/SIGTERM.
/// Returns a sysexits-style code (architecture.md): 0 ok, 64 usage, 69 unavailable, 74 I/O.
func runSimCommand(_ arguments: [String]) -> Int32 {
    let usage = """
    usage: fpmod sim [--profile r307|as608|r503] [--link PATH] [--control PATH] [--state FILE]
                     [--timing instant|wire|datasheet] [--finger NAME] [--password HEX]
                     [--address HEX] [--baud N] [--glitch]

    Serves a simulated fingerprint module on a pseudo-terminal. Prints the device path first
    (stdout), then serves until SIGINT/SIGTERM.
      --profile    module model (default r307)
      --link       symlink to the device, e.g. sim0 (removed on exit)
      --control    Unix socket for control lines: place NAME [poor|partial], lift,
                   touch NAME [N], power-cycle, fault corrupt|drop|garbage|silence|delay MS|none, status
      --state      JSON file keeping library, parameters, password, address and notepad across runs
      --timing     instant (default), wire (baud pacing only) or datasheet (module times + pacing)
      --finger     keep this finger on the sensor
      --password   module password in hex (only when the state file does not exist yet)
      --address    module address in hex (default FFFFFFFF)
      --baud       stored baud rate (9600 × N), default 57600
      --glitch     send a 00 glitch byte before each boot byte 55
    """
    func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("fpmod sim: \(message)\nRun 'fpmod sim --help' for usage.\n".utf8))
        return 64
    }
    var configuration = ModuleSimulatorServer.Configuration()
    var index = 0
    while index < arguments.count {
        let option = arguments[index]
        if option == "--help" || option == "-h" {
            print(usage)
            return 0
        }
        if option == "--glitch" {
            configuration.bootGlitch = true
            index += 1
            continue
        }
        guard index + 1 < arguments.count else { return fail("\(option) needs a value") }
        let value = arguments[index + 1]
        index += 2
        switch option {
        case "--profile":
            guard let profile = SimulatorProfile.named(value) else {
                return fail("unknown profile \"\(value)\"; use r307, as608 or r503")
            }
            configuration.profile = profile
        case "--link": configuration.linkPath = value
        case "--control": configuration.controlPath = value
        case "--state": configuration.statePath = value
        case "--timing":
            guard let mode = TimingMode(rawValue: value) else { return fail("unknown timing \"\(value)\"; use instant, wire or datasheet") }
            configuration.timing = mode
        case "--finger": configuration.finger = value
        case "--password":
            guard let password = parseHex32(value) else { return fail("--password wants up to 8 hex digits, got \"\(value)\"") }
            configuration.password = password
        case "--address":
            guard let address = parseHex32(value) else { return fail("--address wants up to 8 hex digits, got \"\(value)\"") }
            configuration.address = address
        case "--baud":
            guard let baud = Int(value), baud % 9600 == 0, (1...12).contains(baud / 9600) else {
                return fail("--baud must be 9600 × N for N = 1…12 (e.g. 57600), got \"\(value)\"")
            }
            configuration.baudRate = baud
        default:
            return fail("unknown option \(option)")
        }
    }
    if let baud = configuration.baudRate, !configuration.profile.familyProfile.baudMultipliers.contains(baud / 9600) {
        return fail("a \(configuration.profile.name) module does not support \(baud) baud")
    }

    // Block the signals before the server thread exists, so they reach the signalfd.
    let signals: SignalWatcher
    do { signals = try SignalWatcher(signals: [SIGINT, SIGTERM]) } catch {
        FileHandle.standardError.write(Data("fpmod sim: cannot watch signals: \(error)\n".utf8))
        return 71
    }
    let server: ModuleSimulatorServer
    do { server = try ModuleSimulatorServer(configuration) } catch {
        FileHandle.standardError.write(Data("fpmod sim: \(error)\n".utf8))
        if case .state = error { return 65 }
        return 69
    }
    FileHandle.standardOutput.write(Data((server.devicePath + "\n").utf8))
    server.start()
    FileHandle.standardError.write(Data("fpmod sim: \(configuration.profile.name) module on \(server.devicePath)\(configuration.linkPath.map { " (link \($0))" } ?? "")\(configuration.controlPath.map { ", control \($0)" } ?? ""); Ctrl-C to stop\n".utf8))
    while true {
        guard let events = try? poll([(signals.fileDescriptor, .readable)], deadline: nil), !events[0].isEmpty else { continue }
        if let received = try? signals.read(), !received.isEmpty { break }
    }
    server.stop()
    return 0
}

func parseHex32(_ text: String) -> UInt32? {
    let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
    guard (1...8).contains(digits.count) else { return nil }
    return UInt32(digits, radix: 16)
}
