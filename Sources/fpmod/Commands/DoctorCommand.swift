import Administration
import ArgumentParsing
import Diagnostics
import FingerprintModule
import FingerprintProtocol
import Foundation
import Glibc
import GPIO
import ReaderSessions
import SerialPort
import TemplateStore

/// `fpmod doctor`: gathers facts from this machine (board, UART, console, gettys, groups, GPIO
/// chips, the port, the module, the store), has `DoctorChecks` judge them, and prints the
/// checklist. Exit 0 without problems, 1 with any (warnings do not fail).
enum DoctorCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        var facts = SystemFacts.gather()
        let board = PiModel(deviceTreeModel: facts.deviceTreeModel)
        facts.store = storeFacts(invocation)
        facts.spi.requestedDevice = invocation.parsed.string("spi")
        let identity = pairedIdentity(invocation, facts.store)

        let parsed = invocation.parsed
        if parsed.flag("sim") {
            facts.module = probeSimulatedModule(invocation, identity: identity, facts: &facts)
        } else if let path = parsed.string("port") {
            facts.port = SystemFacts.port(path: path, source: .commandLine)
            facts.module = facts.port?.open == .opened
                ? probeModule(invocation, identity: identity)
                : .portUnavailable
        } else if board.isSupportedPi,
                  let preset = BoardPreset.builtIn.first(where: { $0.name == board.presetName }) {
            // Check the port the preset would use, without talking to whatever is wired to it.
            facts.port = SystemFacts.port(path: preset.serialPort, source: .boardPreset)
        }

        let checks = DoctorChecks.evaluate(facts)
        if invocation.json {
            JSONOutput.print(DoctorReport.json(checks))
        } else {
            StandardStreams.writeOutput(DoctorReport.text(checks) + "\n")
        }
        return DoctorChecks.exitStatus(checks) == 0 ? .ok : .denied
    }

    // MARK: Module

    private static func probeModule(_ invocation: Invocation, identity: ModuleIdentity?) -> ModuleProbe {
        let port = invocation.parsed.string("port") ?? "?"
        invocation.progress("Talking to the module on \(port) (a silent module takes about 30 s: every baud rate is tried)…")
        return connect(invocation, identity: identity).probe
    }

    private static func probeSimulatedModule(_ invocation: Invocation, identity: ModuleIdentity?, facts: inout DoctorFacts) -> ModuleProbe {
        let (probe, devicePath) = connect(invocation, identity: identity)
        if let devicePath {
            facts.port = PortFacts(path: devicePath, resolvedPath: devicePath, source: .simulator, node: nil, open: .simulated)
        }
        return probe
    }

    /// Opens the module as every command does (baud probing, VfyPwd, family detection) and reads
    /// what the checklist reports; returns the device path the session used.
    private static func connect(_ invocation: Invocation, identity: ModuleIdentity?) -> (probe: ModuleProbe, devicePath: String?) {
        let configuredBaud = (try? invocation.parsed.int("baud", range: 9600...115_200)) ?? BaudRate.factoryDefault
        let session: ModuleSession
        do {
            // With a pairing, the one opener's identity check: a reset or foreign module is
            // named as such in about a second, not reported as a wiring fault after a baud probe.
            if identity != nil, let store = try? invocation.openStoreForReading() {
                let (opened, finding) = try ModuleSession.openChecked(try invocation.readerOptions(), store: store)
                if case .reset = finding { opened.close(); return (.failed(.notPaired(finding.description)), nil) }
                if case .swapped = finding { opened.close(); return (.failed(.notPaired(finding.description)), nil) }
                session = opened
            } else {
                session = try ModuleSession.open(try invocation.readerOptions(), identity: identity)
            }
        } catch {
            return (.failed(failure(error, invocation: invocation, configuredBaud: configuredBaud)), nil)
        }
        defer { session.close() }
        let module = session.module
        let passwordSource: ModuleReport.PasswordSource =
            module.password == 0 ? .factory
            : invocation.parsed.string("password") != nil ? .commandLine : .pairing
        let family = module.family ?? .r30x
        let report = ModuleReport(
            familyName: family.profile.displayName, familyCode: family.rawValue,
            port: session.simulator?.devicePath ?? invocation.parsed.string("port") ?? module.transport.description,
            configuredBaud: configuredBaud,
            answeredBaud: module.answeredBaudRate ?? configuredBaud,
            address: module.address, passwordSource: passwordSource,
            capacity: module.capacity,
            templatesUsed: try? module.templateCount())
        return (.answered(report), session.simulator?.devicePath)
    }

    private static func failure(_ error: any Error, invocation: Invocation, configuredBaud: Int) -> ModuleFailure {
        guard let error = error as? ModuleError else { return .other(ErrorReport.message(for: error)) }
        switch error {
        case let .noAnswer(port, rates):
            // The error names the transport with its last baud rate; the path alone reads better.
            return .silent(port: invocation.parsed.string("port") ?? port, triedBaudRates: rates)
        case .timeout:
            return .silent(port: invocation.parsed.string("port") ?? "the port", triedBaudRates: [configuredBaud])
        case let .module(_, code, _) where code.rawValue == 0x13 || code.rawValue == 0x21:
            return .passwordRequired(code: code.rawValue)
        case let .wrongAddress(_, expected, seen):
            return .wrongAddress(expected: expected, seen: seen)
        case .corruptedReply:
            return .corrupted(error.description)
        default:
            return .other(error.description)
        }
    }

    // MARK: Store

    private static func storeFacts(_ invocation: Invocation) -> StoreFacts {
        let paths = invocation.storePaths
        return SystemFacts.store(databasePath: paths.database, keyPath: paths.key, describe: ErrorReport.message(for:))
    }

    /// The pairing, read again for the module session (the facts keep only what is printed).
    private static func pairedIdentity(_ invocation: Invocation, _ facts: StoreFacts) -> ModuleIdentity? {
        guard case .paired = facts.pairing else { return nil }
        return try? invocation.openStoreForReading().moduleIdentity()
    }
}
