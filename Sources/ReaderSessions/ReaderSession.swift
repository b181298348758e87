import Administration
import Glibc
import HostReader
import Posix
import TemplateStore

/// The fingerprint reader one command uses, whichever kind the options name: a UART module with
/// its store (`Administrator`, opened as `ModuleSession.openAdministrator`), or an FPC1020 image
/// sensor, real or simulated, with the host matching against the store (`HostReader`). Front
/// ends drive `reader`; the rest is what to close afterwards.
public final class ReaderSession {
    public let choice: ReaderChoice
    public let reader: any FingerprintReader
    /// The module's session (port, in-process simulator); nil for an image sensor.
    public let module: ModuleSession?
    /// The image sensor under the host reader; nil for a module.
    public let imageSensor: ImageSensorSession?

    /// The module reader, for what only a module has (its index table, the search order).
    public var administrator: Administrator? { reader as? Administrator }

    private init(choice: ReaderChoice, reader: any FingerprintReader, module: ModuleSession?, imageSensor: ImageSensorSession?) {
        self.choice = choice
        self.reader = reader
        self.module = module
        self.imageSensor = imageSensor
    }

    /// Opens the reader the options select on `store`. `virtualFinger` is the finger the
    /// simulator (module or sensor) touches when the options do not say (enroll's `<user>-<label>`).
    public static func open(_ options: ReaderOptions, store: TemplateStore, virtualFinger: String? = nil,
                            allowUntrusted: Bool = false) throws -> ReaderSession {
        let choice = try ReaderChoice(options)
        guard choice.isImageSensor else {
            let (session, administrator) = try ModuleSession.openAdministrator(
                options, store: store, virtualFinger: virtualFinger, allowUntrusted: allowUntrusted)
            return ReaderSession(choice: choice, reader: administrator, module: session, imageSensor: nil)
        }
        let sensor = try ImageSensorSession.open(options, choice: choice, virtualFinger: virtualFinger)
        do {
            // Refuses a store whose fingers hold module templates, naming the fix.
            let reader = try HostReader(sensor: sensor.sensor, store: store, settings: HostReader.Settings(options.config))
            configure(reader, options, beforeKill: {})
            return ReaderSession(choice: choice, reader: reader, module: nil, imageSensor: sensor)
        } catch {
            sensor.close()
            throw error
        }
    }

    /// What every reader takes from the options: the finger timeout, and the failpoint test
    /// hook, which kills the process at that named point of a crash-sensitive sequence (after
    /// `beforeKill`, e.g. stopping an in-process simulator so its flash holds what it acknowledged).
    static func configure(_ reader: any FingerprintReader, _ options: ReaderOptions, beforeKill: @escaping () -> Void) {
        if let timeout = options.fingerTimeout { reader.fingerTimeout = timeout }
        if let failpoint = options.failpoint, !failpoint.isEmpty {
            let progress = options.progress
            reader.failpoint = { name in
                guard name == failpoint else { return }
                progress("FPMOD_FAILPOINT: killing fpmod at \(name)")
                beforeKill()
                try? CurrentProcess.send(SIGKILL)  // cannot fail for our own pid; nothing left to report to
            }
        }
    }

    public func close() {
        if let module {
            // The module's transport is the reader's: closed once, with the simulator stopped.
            module.close()
        } else {
            reader.close()
            imageSensor?.close()
        }
    }
}
