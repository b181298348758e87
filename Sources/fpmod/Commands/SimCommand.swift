import ArgumentParsing
import FingerprintProtocol
import Foundation
import ModuleSimulator
import Posix

/// `fpmod sim`: a simulated module on a pseudo-terminal until SIGINT/SIGTERM. The device path
/// goes to stdout first (scripts read it), the rest to stderr.
enum SimCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        var configuration = ModuleSimulatorServer.Configuration()
        let profileName = parsed.string("profile") ?? "r307"
        guard let profile = SimulatorProfile.named(profileName) else {
            throw CommandFailure(.usage, "Unknown profile '\(profileName)'; use r307, as608 or r503.")
        }
        configuration.profile = profile
        configuration.linkPath = parsed.string("link")
        configuration.controlPath = parsed.string("control")
        configuration.statePath = parsed.string("state")
        configuration.finger = parsed.string("finger")
        configuration.bootGlitch = parsed.flag("glitch")
        if let timing = parsed.string("timing") {
            guard let mode = TimingMode(rawValue: timing) else {
                throw CommandFailure(.usage, "Unknown timing '\(timing)'; use instant, wire or datasheet.")
            }
            configuration.timing = mode
        }
        if let model = parsed.string("search-model") {
            guard let searchModel = SearchModel(rawValue: model) else {
                throw CommandFailure(.usage, "Unknown search model '\(model)'; use best-match or first-match.")
            }
            configuration.searchModel = searchModel
        }
        configuration.password = try parsed.hexUInt32("password")
        configuration.address = try parsed.hexUInt32("address")
        if parsed.isExplicit("baud"), let baud = try parsed.int("baud") {
            guard let multiplier = FingerprintProtocol.BaudRate.multiplier(for: baud),
                  profile.familyProfile.baudMultipliers.contains(multiplier) else {
                let allowed = profile.familyProfile.baudMultipliers.map { String($0 * 9600) }.joined(separator: ", ")
                throw CommandFailure(.usage, "A \(profile.name) module does not run at \(baud) baud; use one of \(allowed).")
            }
            configuration.baudRate = baud
        }

        // Block the signals before the server thread exists, so they reach the signalfd.
        let signals = try SignalWatcher(signals: [SIGINT, SIGTERM])
        let server = try ModuleSimulatorServer(configuration)
        StandardStreams.writeOutput(server.devicePath + "\n")
        server.start()
        var where_ = server.devicePath
        if let link = configuration.linkPath { where_ += " (link \(link))" }
        if let control = configuration.controlPath { where_ += ", control \(control)" }
        invocation.progress("fpmod sim: \(profile.name) module on \(where_), timing \(configuration.timing.rawValue), search \(configuration.searchModel.rawValue); Ctrl-C to stop")
        while true {
            guard let events = try? poll([(signals.fileDescriptor, .readable)], deadline: nil), !events[0].isEmpty else { continue }
            if let received = try? signals.read(), !received.isEmpty { break }
        }
        server.stop()
        return .ok
    }
}
