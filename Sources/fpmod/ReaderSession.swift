import Administration
import ArgumentParsing
import Glibc
import HostReader
import Posix
import TemplateStore

/// The fingerprint reader one command uses, whichever kind the command line names: a UART
/// module with its store (`Administrator`, opened as `ModuleSession.openAdministrator` always
/// did), or an FPC1020 image sensor, real or simulated, with the host matching against the
/// store (`HostReader`). Commands drive `reader`; the rest is what to close afterwards.
final class ReaderSession {
    let choice: ReaderChoice
    let reader: any FingerprintReader
    /// The module's session (port, in-process simulator); nil for an image sensor.
    let module: ModuleSession?
    /// The image sensor under the host reader; nil for a module.
    let imageSensor: ImageSensorSession?

    /// The module reader, for what only a module has (its index table, the search order).
    var administrator: Administrator? { reader as? Administrator }

    private init(choice: ReaderChoice, reader: any FingerprintReader, module: ModuleSession?, imageSensor: ImageSensorSession?) {
        self.choice = choice
        self.reader = reader
        self.module = module
        self.imageSensor = imageSensor
    }

    /// Opens the reader the options select on `store`. `virtualFinger` is the finger the
    /// simulator (module or sensor) touches when --sim-finger does not say (enroll's
    /// `<user>-<label>`).
    static func open(_ invocation: Invocation, store: TemplateStore, virtualFinger: String? = nil,
                     allowUntrusted: Bool = false) throws -> ReaderSession {
        let choice = try invocation.readerChoice()
        guard choice.isImageSensor else {
            let (session, administrator) = try ModuleSession.openAdministrator(
                invocation, store: store, virtualFinger: virtualFinger, allowUntrusted: allowUntrusted)
            return ReaderSession(choice: choice, reader: administrator, module: session, imageSensor: nil)
        }
        let sensor = try ImageSensorSession.open(invocation, choice: choice, virtualFinger: virtualFinger)
        do {
            // Refuses a store whose fingers hold module templates, naming the fix.
            let reader = try HostReader(sensor: sensor.sensor, store: store, settings: RunImageSensor.settings(invocation.configFile))
            try configure(reader, invocation, beforeKill: {})
            return ReaderSession(choice: choice, reader: reader, module: nil, imageSensor: sensor)
        } catch {
            sensor.close()
            throw error
        }
    }

    /// What every reader takes from the command line: --timeout of the commands that wait for
    /// a finger, and the FPMOD_FAILPOINT test hook, which kills fpmod at that named point of a
    /// crash-sensitive sequence (after `beforeKill`, e.g. stopping an in-process simulator so
    /// its flash holds what it acknowledged).
    static func configure(_ reader: any FingerprintReader, _ invocation: Invocation,
                          beforeKill: @escaping () -> Void) throws {
        let parsed = invocation.parsed
        // Only the commands that wait for a finger declare --timeout.
        if ["enroll", "identify", "verify", "enable", "disable"].contains(parsed.path.last ?? ""),
           let timeout = try parsed.duration("timeout") {
            reader.fingerTimeout = timeout
        }
        if let failpoint = invocation.environment["FPMOD_FAILPOINT"], !failpoint.isEmpty {
            reader.failpoint = { name in
                guard name == failpoint else { return }
                StandardStreams.writeError("FPMOD_FAILPOINT: killing fpmod at \(name)\n")
                beforeKill()
                try? CurrentProcess.send(SIGKILL)  // cannot fail for our own pid; nothing left to report to
            }
        }
    }

    func close() {
        if let module {
            // The module's transport is the reader's: closed once, with the simulator stopped.
            module.close()
        } else {
            reader.close()
            imageSensor?.close()
        }
    }
}
