import Foundation
import Imaging
import Testing

/// The "done when" through the real binary: `fpmod --sim --sim-profile fpc1020` enrolls,
/// identifies, verifies and deletes on the simulated FPC1020 with the host matching, from
/// images this test makes (no NIST prints, nothing shipped), and without images (fingers the
/// simulator generates from their names).
@Suite(.serialized) struct ImageSensorCLITests {
    /// `fpmod --sim --sim-profile fpc1020 [--sim-images DIR] ARGS…`
    static func sensor(_ cli: CLI, _ arguments: [String], images: String? = nil) throws -> CLI.Result {
        try cli.run(["--sim", "--sim-profile", "fpc1020"] + (images.map { ["--sim-images", $0] } ?? []) + arguments)
    }

    @Test func enrollIdentifyVerifyDeleteWithGeneratedImages() throws {
        let cli = CLI()
        let images = cli.directory + "/images"
        try FingerPictures.write(finger: "alice-right-index", seed: 11, impressions: 0..<10, into: images)
        try FingerPictures.write(finger: "bob-right-index", seed: 12, impressions: 0..<10, into: images)

        let enroll = try Self.sensor(cli, ["enroll", "alice", "--finger", "right-index", "--json"], images: images)
        #expect(enroll.status == 0, "\(enroll.stderr)")
        for capture in 1...8 {
            #expect(enroll.stderr.contains("Place your finger (\(capture)/8)"), "no capture \(capture)/8 in: \(enroll.stderr)")
        }
        #expect(!enroll.stderr.contains("(9/8)"))
        #expect(enroll.json?["result"] as? String == "enroll-completed")
        #expect(enroll.json?["user"] as? String == "alice")
        #expect(enroll.json?["finger"] as? String == "right-index")

        let alice = try Self.sensor(cli, ["identify", "--sim-finger", "alice-right-index", "--json"], images: images)
        #expect(alice.status == 0, "\(alice.stderr)")
        #expect(alice.json?["result"] as? String == "match")
        #expect(alice.json?["user"] as? String == "alice")
        #expect(alice.json?["times"] != nil)

        let bob = try Self.sensor(cli, ["identify", "--sim-finger", "bob-right-index"], images: images)
        #expect(bob.status == 1, "\(bob.stdout) \(bob.stderr)")
        #expect(bob.stdout.contains("verify-no-match"))

        #expect(try Self.sensor(cli, ["verify", "alice", "--sim-finger", "alice-right-index"], images: images).status == 0)
        let impostor = try Self.sensor(cli, ["verify", "alice", "--sim-finger", "bob-right-index"], images: images)
        #expect(impostor.status == 1)
        #expect(impostor.stdout.contains("verify-no-match"))

        // list and log need no reader at all.
        #expect(try cli.userNames() == ["alice"])
        let list = try cli.run(["list"])
        #expect(list.stdout.contains("right-index"))
        #expect(try cli.auditEvents().contains("enroll"))

        let delete = try Self.sensor(cli, ["delete", "alice", "--json"], images: images)
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(delete.json?["userRemoved"] as? Bool == true)
        #expect(try cli.userNames().isEmpty)
        let gone = try Self.sensor(cli, ["identify", "--sim-finger", "alice-right-index"], images: images)
        #expect(gone.status == 1)
    }

    /// Other impressions of the same finger than those enrolled (a second folder, the same
    /// names): the host matcher must find alice from touches it never saw.
    @Test func identifiesFromImpressionsNotEnrolled() throws {
        let cli = CLI()
        let enrolled = cli.directory + "/enrolled", later = cli.directory + "/later"
        try FingerPictures.write(finger: "alice-right-index", seed: 21, impressions: 0..<8, into: enrolled)
        try FingerPictures.write(finger: "alice-right-index", seed: 21, impressions: 8..<11, into: later)
        #expect(try Self.sensor(cli, ["enroll", "alice"], images: enrolled).status == 0)
        let identify = try Self.sensor(cli, ["identify", "--sim-finger", "alice-right-index", "--json"], images: later)
        #expect(identify.status == 0, "\(identify.stdout) \(identify.stderr)")
        #expect(identify.json?["user"] as? String == "alice")
    }

    @Test func withoutImagesTheSimulatorGeneratesFingersFromTheirNames() throws {
        let cli = CLI()
        let enroll = try Self.sensor(cli, ["enroll", "carol", "--finger", "left-thumb"])
        #expect(enroll.status == 0, "\(enroll.stderr)")
        #expect(enroll.stderr.contains("Place your finger (8/8)"))
        let carol = try Self.sensor(cli, ["identify", "--sim-finger", "carol-left-thumb", "--json"])
        #expect(carol.status == 0, "\(carol.stderr)")
        #expect(carol.json?["user"] as? String == "carol")
        #expect(try Self.sensor(cli, ["identify", "--sim-finger", "dave-left-thumb"]).status == 1)
        #expect(try Self.sensor(cli, ["verify", "carol", "--sim-finger", "carol-left-thumb"]).status == 0)

        // The unlock switch takes a verification from whichever reader, and a stranger's is none.
        #expect(try Self.sensor(cli, ["disable", "carol", "--sim-finger", "dave-left-thumb"]).status == 1)
        let disable = try Self.sensor(cli, ["disable", "carol", "--sim-finger", "carol-left-thumb"])
        #expect(disable.status == 0, "\(disable.stderr)")
        let users = try cli.run(["list", "--json"]).json?["users"] as? [[String: Any]]
        #expect(users?.first?["fingerprintUnlock"] as? Bool == false)
        #expect(try cli.auditEvents().contains("unlock-disabled"))

        let wipe = try Self.sensor(cli, ["wipe", "--yes"])
        #expect(wipe.status == 0, "\(wipe.stderr)")
        #expect(wipe.stdout.contains("the host library is empty and 1 user(s) were removed"))
        #expect(try cli.userNames().isEmpty)
        #expect(try Self.sensor(cli, ["identify", "--sim-finger", "carol-left-thumb"]).status == 1)
    }

    @Test func aFingerWithoutItsFolderNamesTheFolder() throws {
        let cli = CLI()
        let images = cli.directory + "/images"
        try FingerPictures.write(finger: "alice-right-index", seed: 11, impressions: 0..<10, into: images)
        let result = try Self.sensor(cli, ["enroll", "erin"], images: images)
        #expect(result.status == 78, "a folder to set up, as a configuration problem")
        #expect(result.stderr.contains(images + "/erin-right-index"), "\(result.stderr)")
        // The first enroll failed: it leaves no store behind.
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/store.db"))
    }

    @Test func moduleOnlyCommandsRefuseTheImageSensor() throws {
        let cli = CLI()
        #expect(try Self.sensor(cli, ["enroll", "alice"]).status == 0)
        for command in [["sync"], ["pair"], ["layout"], ["raw", "TempleteNum"]] {
            let result = try Self.sensor(cli, command)
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("`fpmod \(command[0])` works on a UART module only"), "\(result.stderr)")
            #expect(result.stderr.contains("drop --sim-profile fpc1020"))
        }
        // Images are for the simulated sensor only, and the module's doctor check says why it is skipped.
        let images = try cli.sim(["--sim-images", cli.directory, "identify"], finger: "alice-right-index")
        #expect(images.status == 64)
        #expect(images.stderr.contains("add --sim-profile fpc1020"))
        let doctor = try Self.sensor(cli, ["doctor"])
        #expect(doctor.stdout.contains("The module check needs a UART module"), "\(doctor.stdout)")
        // The store alone is enough for a backup.
        let backup = try cli.run(["backup", cli.directory + "/users.fpb"], environment: ["FPMOD_BACKUP_PASSPHRASE": "correct horse battery"])
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(backup.stdout.contains("1 finger(s)"))
    }

    @Test func aStoreOfModuleFingersIsRefused() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        for command in [["identify", "--sim-finger", "alice-right-index"], ["enroll", "bob"]] {
            let result = try Self.sensor(cli, command)
            #expect(result.status == 65, "\(command): a refused store is neither 'no match' nor a device error: \(result.stderr)")
            #expect(result.stderr.contains("belongs to a UART fingerprint module"), "\(result.stderr)")
            #expect(result.stderr.contains("--store PATH"))
        }
        // Nothing changed: alice is still the module's, and bob was not enrolled.
        #expect(try cli.userNames() == ["alice"])
        #expect(try cli.sim(["identify"], finger: "alice-right-index").status == 0)
    }

    @Test func aStoreOfImageSensorFingersIsRefusedByAModule() throws {
        let cli = CLI()
        #expect(try Self.sensor(cli, ["enroll", "alice"]).status == 0)
        let result = try cli.sim(["identify"], finger: "alice-right-index")
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("enrolled on an image sensor"), "\(result.stderr)")
        #expect(try Self.sensor(cli, ["identify", "--sim-finger", "alice-right-index"]).status == 0)
    }

    @Test func infoAndCaptureOnTheSimulatedSensor() throws {
        let cli = CLI()
        let images = cli.directory + "/images"
        try FingerPictures.write(finger: "alice-right-index", seed: 11, impressions: 0..<2, into: images)
        let info = try Self.sensor(cli, ["info", "--json"], images: images)
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.json?["kind"] as? String == "image-sensor")
        let sensor = info.json?["sensor"] as? [String: Any]
        #expect(sensor?["width"] as? Int == 192)
        #expect(sensor?["height"] as? Int == 192)
        #expect(sensor?["dpi"] as? Int == 508)
        #expect(try cli.sim(["info", "--json"]).json?["kind"] as? String == "module")

        let png = cli.directory + "/capture.png"
        let capture = try Self.sensor(cli, ["capture", "--sim-finger", "alice-right-index", "--image", png], images: images)
        #expect(capture.status == 0, "\(capture.stderr)")
        let image = try PNGGrey.decode(try Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(image.width == 192 && image.height == 192)
        // The first capture is the first file of the folder, as the sensor saw it.
        let first = try PNGFile.read(images + "/alice-right-index/0.png")
        #expect(image.pixels == first.pixels)
    }
}

/// Finger pictures for the simulated sensor's folders: impressions of a generated finger,
/// moved and turned mildly (±5°, ±4 px, noise σ 4) at the FPC1020's 192 × 192, so the test
/// rests on the plumbing, not on NBIS at its limits (the README's numbers measure those).
enum FingerPictures {
    static let maker: ImpressionMaker = {
        var maker = ImpressionMaker()
        maker.maximumRotation = 5
        maker.maximumShift = 4
        maker.noiseSigma = 4
        return maker
    }()

    /// Writes DIR/FINGER/<index>.png for each impression index.
    static func write(finger: String, seed: UInt64, impressions: Range<Int>, into directory: String) throws {
        let folder = directory + "/" + finger
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let master = SyntheticFinger(seed: seed).image()
        for index in impressions {
            try PNGFile.write(maker.impression(of: master, index: index, seed: seed), to: folder + "/\(index).png")
        }
    }
}

/// The reader commands on a sensor another process serves (`fpmod sim --profile fpc1020
/// --link`), its fingers put down through that simulator's control socket.
@Suite(.serialized) struct SensorSocketCLITests {
    @Test func enrollAndIdentifyThroughTheLink() throws {
        let cli = CLI()
        let images = cli.directory + "/images"
        try FingerPictures.write(finger: "alice-right-index", seed: 31, impressions: 0..<10, into: images)
        try FingerPictures.write(finger: "bob-right-index", seed: 32, impressions: 0..<2, into: images)
        let simulator = try SensorSimProcessTests.Simulator(cli, extra: ["--images", images])
        defer { _ = simulator.terminate() }
        let reader = ["--sensor-socket", simulator.link]

        #expect(try simulator.say("auto-touch alice-right-index").hasPrefix("ok"))
        let enroll = try cli.run(reader + ["enroll", "alice"])
        #expect(enroll.status == 0, "\(enroll.stderr) \(simulator.process.log)")
        #expect(enroll.stderr.contains("Place your finger (8/8)"))
        let alice = try cli.run(reader + ["identify", "--json"])
        #expect(alice.status == 0, "\(alice.stderr)")
        #expect(alice.json?["user"] as? String == "alice")

        #expect(try simulator.say("auto-touch bob-right-index").hasPrefix("ok"))
        let bob = try cli.run(reader + ["identify"])
        #expect(bob.status == 1, "\(bob.stderr)")
        #expect(bob.stdout.contains("verify-no-match"))

        let sync = try cli.run(reader + ["sync"])
        #expect(sync.status == 64)
        #expect(sync.stderr.contains("leave out --sensor-socket"))
    }

    @Test func noSimulatorAtThePathSaysHowToStartOne() throws {
        let cli = CLI()
        let result = try cli.run(["--sensor-socket", cli.directory + "/none.link", "info"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("fpmod sim --profile fpc1020 --link \(cli.directory)/none.link"))
    }
}
