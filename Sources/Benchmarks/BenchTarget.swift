import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import ReaderSessions
import SerialPort

/// The module a measurement runs against: a simulator started for it (own library, no state
/// file, so the user's `--sim` module is untouched) or the real module on `--port`.
public final class BenchTarget {
    /// The finger touched for every cycle; its template is the last one enrolled.
    public static let fingerName = "bench-finger"

    public let module: FingerprintModule
    public let simulator: ModuleSimulatorServer?
    public let limits: LimitModel
    private let session: ModuleSession?

    private init(module: FingerprintModule, simulator: ModuleSimulatorServer?, limits: LimitModel, session: ModuleSession?) {
        self.module = module
        self.simulator = simulator
        self.limits = limits
        self.session = session
    }

    /// Starts a simulator at `baudRate` with `templates` templates written straight into its
    /// flash (no captures: fast at any timing), the bench finger resting on the sensor.
    public static func simulated(profile: SimulatorProfile, timing: TimingMode, baudRate: Int, templates: Int,
                          searchModel: SearchModel = .bestMatch) throws -> BenchTarget {
        let count = min(max(templates, 1), profile.capacity)
        var library: [Int: [UInt8]] = [:]
        for slot in 0..<count {
            library[slot] = enrolledTemplate(of: slot == count - 1 ? fingerName : "bench-filler-\(slot)", profile: profile)
        }
        return try simulated(profile: profile, timing: timing, baudRate: baudRate, library: library,
                             searchModel: searchModel, finger: fingerName)
    }

    /// Starts a simulator holding `library` (slot → template), `finger` on the sensor if given.
    public static func simulated(profile: SimulatorProfile, timing: TimingMode, baudRate: Int, library: [Int: [UInt8]],
                          searchModel: SearchModel, finger: String?) throws -> BenchTarget {
        let server = try ModuleSimulatorServer(.init(profile: profile, timing: timing, baudRate: baudRate, searchModel: searchModel))
        server.withModule { module in
            module.configure { flash in flash.library = library }
        }
        if let finger { server.place(finger) }
        server.start()
        do {
            let module = try FingerprintModule.open(port: server.devicePath, baudRate: baudRate)
            _ = try module.readIndexTable()
            return BenchTarget(module: module, simulator: server,
                               limits: LimitModel(timing: TimingModel(profile: profile, mode: timing), pacesHostToModule: false),
                               session: nil)
        } catch {
            server.stop()
            throw error
        }
    }

    /// The module on --port: its own processing time is unknown, so only wire time is a known limit.
    public static func hardware(_ options: ReaderOptions) throws -> BenchTarget {
        let session = try ModuleSession.openVerified(options)
        _ = try session.module.readIndexTable()
        return BenchTarget(module: session.module, simulator: nil,
                           limits: LimitModel(timing: nil, pacesHostToModule: true), session: session)
    }

    /// A template as enrollment would make it: two captures of the finger merged.
    public static func enrolledTemplate(of name: String, profile: SimulatorProfile) -> [UInt8] {
        let finger = VirtualFinger(name: name)
        var random = SeededRandom(name: "enroll:" + name)
        let captures = (0..<2).map { _ in
            CharFile.encode(finger.capture(quality: .good, using: &random), quality: 0x58, size: profile.charFileSize)
        }
        return CharFile.template(from: captures, templateSize: profile.templateSize)
    }

    /// Occupied slots in `range` — what the module's Search actually compares.
    public func templatesSearched(in range: Range<Int>) -> Int {
        module.indexTable.map { table in table.occupied.filter { range.contains($0) }.count } ?? range.count
    }

    public func close() {
        if let session {
            session.close()
        } else {
            module.transport.close()
            simulator?.stop()
        }
    }
}
