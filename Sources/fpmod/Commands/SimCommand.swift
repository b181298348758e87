import ArgumentParsing
import FingerprintProtocol
import Foundation
import ImageSensorSimulator
import ModuleSimulator
import Posix

/// `fpmod sim`: a simulated module on a pseudo-terminal until SIGINT/SIGTERM. The device path
/// goes to stdout first (scripts read it), the rest to stderr. `--profile fpc1020` serves a
/// simulated image sensor instead (`runImageSensor`).
enum SimCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        var configuration = ModuleSimulatorServer.Configuration()
        let profileName = parsed.string("profile") ?? "r307"
        if profileName == "pn532" { return try CardCommands.simulate(invocation) }
        if parsed.isExplicit("card") {
            throw CommandFailure(.usage, "--card is for the NFC reader: use it with --profile pn532.")
        }
        if profileName == "fpc1020" { return try runImageSensor(invocation) }
        for option in ["images"] where parsed.isExplicit(option) {
            throw CommandFailure(.usage, "--\(option) is for the image sensor: use it with --profile fpc1020.")
        }
        guard let profile = SimulatorProfile.named(profileName) else {
            throw CommandFailure(.usage, "Unknown profile '\(profileName)'; use r307, as608, r503 or fpc1020.")
        }
        configuration.profile = profile
        let linkPath = parsed.string("link")
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
        // Started before anyone is told where it is: the boot byte is already out.
        server.start()
        if let linkPath { try server.publishLink(at: linkPath) }
        StandardStreams.writeOutput(server.devicePath + "\n")
        var where_ = server.devicePath
        if let linkPath { where_ += " (link \(linkPath))" }
        if let control = configuration.controlPath { where_ += ", control \(control)" }
        invocation.progress("fpmod sim: \(profile.name) module on \(where_), timing \(configuration.timing.rawValue), search \(configuration.searchModel.rawValue); Ctrl-C to stop")
        _ = signals.waitForAny()
        server.stop()
        return .ok
    }

    /// `fpmod sim --profile fpc1020`: a simulated FPC1020 until SIGINT/SIGTERM, driven through
    /// its control socket (`place NAME`, `lift`, `touch NAME`, `auto-touch NAME|off`, `status`)
    /// and used as a sensor by other processes through `--link` (`SocketImageSensor`). Stdout
    /// gets the control socket's path, then the link's when there is one.
    static func runImageSensor(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        for option in ["state", "search-model", "glitch"] where parsed.isExplicit(option) {
            throw CommandFailure(.usage, "--\(option) is for simulated modules; the fpc1020 image sensor has no such setting.")
        }
        let sensor: SimulatedImageSensor
        do { sensor = try SimulatedImageSensor(imagesDirectory: parsed.string("images")) } catch {
            throw CommandFailure(.config, error.description)
        }
        if let finger = parsed.string("finger") { sensor.place(finger) }
        let controlPath = parsed.string("control")
            ?? SimulatedSensorControl.defaultPath(environment: ProcessInfo.processInfo.environment, processID: CurrentProcess.id)
        let signals = try SignalWatcher(signals: [SIGINT, SIGTERM])
        let control: SimulatedSensorControl
        var link: SimulatedSensorLink?
        do {
            control = try SimulatedSensorControl(sensor: sensor, path: controlPath)
            if let path = parsed.string("link") { link = try SimulatedSensorLink(sensor: sensor, path: path) }
        } catch {
            throw CommandFailure(.unavailable, error.description)
        }
        StandardStreams.writeOutput(controlPath + "\n" + (link.map { $0.path + "\n" } ?? ""))
        let images = parsed.string("images").map { "images from \($0)" } ?? "generated fingers"
        invocation.progress("fpmod sim: fpc1020 image sensor (\(images)), control \(controlPath)"
            + (link.map { ", sensor link \($0.path)" } ?? "") + "; Ctrl-C to stop")
        _ = signals.waitForAny()
        link?.stop()
        control.stop()
        return .ok
    }
}
