@testable import fpmod
import Benchmarks
import Foundation
import ImageSensorSimulator
import Testing

/// `fpmod bench --sim --sim-profile fpc1020` as a real subprocess: the simulated image sensor,
/// the host reader and libfprint's extraction all run for real. What is checked is the report's
/// shape and that its counts agree with each other and with the touches asked for; never a time.
@Suite struct SensorBenchTests {
    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    @Test func benchOnTheSimulatedSensorReportsEveryStageAndCountsThatAddUp() throws {
        let result = try CLI().run(["bench", "--sim", "--sim-profile", "fpc1020", "--templates", "10", "--touches", "6", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json, "not JSON: \(result.stdout)")

        let target = try #require(json["target"] as? [String: Any])
        #expect(target["reader"] as? String == "image-sensor")
        #expect(target["profile"] as? String == "fpc1020")
        #expect(target["templates"] as? Int == 10)
        let throughReader = try #require(target["enrolled_through_reader"] as? Int)
        let fillers = try #require(target["filler_templates"] as? Int)
        #expect(throughReader >= 1 && throughReader + fillers == 10)

        let identify = try #require(json["identify"] as? [String: Any])
        #expect(identify["cycles"] as? Int == 6)
        #expect(identify["templates_searched"] as? Int == 10)
        let touches = try #require(identify["touches"] as? [String: Int])
        let genuine = try #require(touches["genuine"]), strangers = try #require(touches["strangers"])
        #expect(genuine + strangers == 6)
        #expect(strangers == 2, "every third touch is a stranger")
        #expect(touches["genuine_matched"]! + touches["genuine_missed"]! + touches["genuine_wrong_finger"]!
            + touches["genuine_unusable"]! == genuine)
        #expect(touches["strangers_rejected"]! + touches["strangers_matched"]! + touches["strangers_unusable"]! == strangers)
        #expect(touches["genuine_matched"] == genuine, "every genuine touch should find its finger: \(touches)")
        #expect(touches["strangers_matched"] == 0, "a stranger was let in: \(touches)")
        #expect(identify["misses"] as? Int == 0)

        // The module bench's stage keys, one entry per stage, each timed once per searched touch.
        let stages = try #require(identify["stages"] as? [[String: Any]])
        #expect(stages.map { $0["stage"] as? String } == ["capture", "extract", "search", "decision", "total"])
        let searched = 6 - touches["genuine_unusable"]! - touches["strangers_unusable"]!
        for stage in stages {
            let name = stage["stage"] as? String ?? "?"
            for key in ["measured", "limit", "overhead", "host_code", "ratio_measured_to_limit"] {
                #expect(stage.keys.contains(key), "\(name) has no \(key)")
            }
            let measured = try #require(stage["measured"] as? [String: Any], "\(name)")
            #expect(measured["count"] as? Int == searched, "\(name)")
            let p50 = try #require(Self.number(measured["p50_ms"])), p99 = try #require(Self.number(measured["p99_ms"]))
            #expect(p50 <= p99, "\(name)")
        }

        // The capture floor is the SPI wire time of one capture at the default 4 MHz: the
        // command, the interrupt read, the image read command with its dummy byte, 192 × 192 pixels.
        let floors = try #require(identify["floors"] as? [String: Any])
        let captureFloor = try #require(Self.number(floors["capture_ms"]))
        #expect(abs(captureFloor - Double(1 + 2 + 2 + 192 * 192) * 8 / 4_000_000 * 1000) < 0.001)
        let capture = try #require(stages.first { $0["stage"] as? String == "capture" })
        let captureLimit = try #require(capture["limit"] as? [String: Any])
        #expect(Self.number(captureLimit["p50_ms"]) == captureFloor)

        let rates = try #require(identify["templates_compared_per_second"] as? [String: Any])
        #expect((Self.number(rates["measured"]) ?? 0) > 0 && (Self.number(rates["floor"]) ?? 0) > 0)
    }

    /// With --sim-images DIR the folders take roles in name order: the last quarter strangers,
    /// then of the rest the first half enrolled through the reader, the others the fillers'
    /// fingers (so a library of real prints is measured at real prints' cost).
    /// card-and-finger's 1:1 beside 1:N on the same touches: the same verdicts (genuine fingers
    /// found, strangers with someone's card refused), each touch counted once.
    @Test func cardAndFingerComparesTheSameTouchesOneToOne() throws {
        let result = try CLI().run(["bench", "--sim", "--sim-profile", "fpc1020", "--templates", "10", "--touches", "6", "--card-and-finger", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json, "not JSON: \(result.stdout)")
        let verified = try #require(json["card_and_finger"] as? [String: Any])
        #expect(verified["touches"] as? Int == 6)
        #expect(verified["genuine_matched"] as? Int == 4, "\(verified)")
        #expect(verified["strangers_rejected"] as? Int == 2, "\(verified)")
        #expect(verified["misses"] as? Int == 0)
        #expect((verified["search_p50_ns"] as? Int ?? 0) > 0)
    }

    @Test func imageFoldersAreSplitIntoEnrolledFillersAndStrangers() throws {
        let cli = CLI()
        let images = cli.directory + "/images"
        try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: true)
        for finger in ["anna", "ben", "carl", "dora"] { try FingerImageFolder.write(finger: finger, captures: 8, directory: images) }
        let result = try cli.run(["bench", "--sim", "--sim-profile", "fpc1020", "--sim-images", images,
                                  "--templates", "4", "--touches", "3", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json, "not JSON: \(result.stdout)")
        let target = try #require(json["target"] as? [String: Any])
        #expect(target["images"] as? String == images)
        #expect(target["enrolled_through_reader"] as? Int == 2, "anna and ben")
        #expect(target["filler_templates"] as? Int == 2 && target["distinct_filler_templates"] as? Int == 1, "copies of carl")
        let identify = try #require(json["identify"] as? [String: Any])
        let touches = try #require(identify["touches"] as? [String: Int])
        #expect(touches["genuine"] == 2 && touches["strangers"] == 1, "anna, ben, then the stranger dora: \(touches)")
        #expect(touches["genuine_matched"] == 2 && touches["strangers_rejected"] == 1, "\(touches)")
        let stages = try #require(identify["stages"] as? [[String: Any]])
        for stage in stages { #expect((stage["measured"] as? [String: Any])?["count"] as? Int == 3, "\(stage["stage"] ?? "?")") }
    }

    @Test func aFolderlessImageDirectoryIsAUsageErrorNamingTheLayout() throws {
        let cli = CLI()
        let empty = cli.directory + "/no-fingers"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let result = try cli.run(["bench", "--sim", "--sim-profile", "fpc1020", "--sim-images", empty, "--templates", "2", "--touches", "1"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(empty + "/NAME/"), "\(result.stderr)")
    }
}
