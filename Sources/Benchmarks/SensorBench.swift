import HostMatching

/// Identify on the simulated image sensor through the host reader, stage by stage as the module
/// bench reports it (see `SensorFloor` for what each stage is set against), over a library of
/// `templates` templates (`SensorBenchTarget`).
public enum SensorBench {
    public struct Settings: Sendable {
        /// The simulated sensor's captures (NAME/*.png); nil: generated fingers.
        public var imagesDirectory: String?
        public var templates: Int
        public var touches: Int
        /// The SPI clock the capture floor is computed at.
        public var spiClockHz: Int
        /// Also the same touches 1:1 against the card holder's fingers, as card-and-finger does.
        public var cardAndFinger: Bool

        public init(imagesDirectory: String?, templates: Int, touches: Int = 40, spiClockHz: Int = 4_000_000, cardAndFinger: Bool = false) {
            self.imagesDirectory = imagesDirectory
            self.templates = templates
            self.touches = touches
            self.spiClockHz = spiClockHz
            self.cardAndFinger = cardAndFinger
        }
    }

    public static func run(_ settings: Settings, into output: inout BenchOutput, progress: @escaping (String) -> Void) throws {
        let target = try SensorBenchTarget(imagesDirectory: settings.imagesDirectory, templates: settings.templates, progress: progress)
        defer { target.close() }
        let owners = try target.owners()
        let identity = target.recorder.identity
        let matcher = MinutiaeMatcher()
        let gallery = try MinutiaeGallery(try target.libraryTemplates())
        let criteria = matcher.criteria(for: gallery)
        let floor = SensorFloor(spiClockHz: settings.spiClockHz, width: identity.width, height: identity.height, matcher: matcher,
                                gallery: gallery)
        let slots = owners.keys
        let description = SensorBenchDescription(
            model: identity.model, connection: identity.connection, imagesDirectory: target.imagesDirectory,
            templates: target.templates, capacity: target.reader.readerDescription.capacity ?? target.templates,
            enrolledThroughReader: target.genuine.count, fillers: target.fillers, distinctFillers: target.distinctFillers,
            strangers: target.strangers.count, threshold: criteria.single, pairThreshold: criteria.pair,
            enrollNanoseconds: target.enrollNanoseconds, fillNanoseconds: target.fillNanoseconds,
            searchRange: (slots.min() ?? 0)..<((slots.max() ?? -1) + 1))
        output.describe(sensor: description, floor: floor)

        let plan = SensorIdentifyBench.plan(settings.touches, genuine: target.genuine, strangers: target.strangers)
        progress("fpmod bench: \(plan.count) identify touches over \(target.templates) templates…")
        let sensor = target.sensor
        let bench = SensorIdentifyBench(reader: target.reader, recorder: target.recorder, floor: floor, owners: owners,
                                        place: { sensor.place($0) }, lift: { sensor.lift() },
                                        prepare: { finger in
                                            sensor.place(finger)
                                            _ = try? sensor.capture()
                                            sensor.lift()
                                        })
        let result = try bench.run(plan, warmUp: plan.first { $0.owner != nil })
        output.sensorIdentify(result, sensor: description, floor: floor)
        if settings.cardAndFinger {
            progress("fpmod bench: the same \(plan.count) touches 1:1, as after a card…")
            let users = Array(Set(target.genuine.map(\.user))).sorted()
            let verified = try bench.run(plan, warmUp: nil, verifying: users)
            output.cardAndFinger(verified, identify: result, sensor: description)
        }
    }
}
