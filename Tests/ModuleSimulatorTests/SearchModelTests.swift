import FingerprintProtocol
import ModuleSimulator
import Testing

/// The two search models (`SearchModel`): which slot a Search answers, byte for byte on a real
/// pseudo-terminal, and how many templates the timing model charges for it.
@Suite struct SearchModelTests {
    /// Slots 0, 1, 4 and 8 hold strangers; 2 holds a weak (partial-press) template of alice and
    /// 6 a full one, so the first template over the threshold is not the best one.
    static func library(profile: SimulatorProfile) -> [Int: [UInt8]] {
        var library: [Int: [UInt8]] = [:]
        for slot in [0, 1, 4, 8] { library[slot] = template("stranger-\(slot)", quality: .good, profile: profile) }
        library[2] = template("alice", quality: .partial, profile: profile)
        library[6] = template("alice", quality: .good, profile: profile)
        return library
    }

    static func template(_ name: String, quality: CaptureQuality, profile: SimulatorProfile) -> [UInt8] {
        var random = SeededRandom(name: "template:\(name):\(quality.rawValue)")
        let finger = VirtualFinger(name: name)
        let files = (0..<2).map { _ in
            CharFile.encode(finger.capture(quality: quality, using: &random), quality: 0x50, size: profile.charFileSize)
        }
        return CharFile.template(from: files, templateSize: profile.templateSize)
    }

    /// What each model should answer for `probe` over slots 0..<10: computed from the scores.
    static func expected(_ model: SearchModel, probe: [Minutia], library: [Int: [UInt8]], charFileSize: Int)
        -> (hit: SearchHit?, compared: Int) {
        let threshold = Matcher.threshold(securityLevel: 3)
        let scored = library.keys.sorted().map { slot in
            (slot, Matcher.score(probe, against: CharFile.features(in: library[slot]!, charFileSize: charFileSize)))
        }
        let over = scored.filter { $0.1 >= threshold }
        switch model {
        case .bestMatch:
            let best = over.max { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 > $1.0) }
            return (best.map { SearchHit(slot: $0.0, score: $0.1) }, scored.count)
        case .firstMatch:
            guard let first = over.first else { return (nil, scored.count) }
            return (SearchHit(slot: first.0, score: first.1), scored.filter { $0.0 <= first.0 }.count)
        }
    }

    @Test(arguments: SearchModel.allCases)
    func answersTheSlotItsModelPicksByteForByte(model: SearchModel) throws {
        let host = try Harness(.init(searchModel: model))
        let library = Self.library(profile: .r307)
        host.server.withModule { module in module.configure { $0.library = library } }
        host.server.place("alice")
        #expect(try host.capture(into: 1) == 0)
        let upload = try host.upload(.upChar(buffer: 1))
        let probe = CharFile.features(in: upload.payload, charFileSize: 256)
        let best = Self.expected(.bestMatch, probe: probe, library: library, charFileSize: 256)
        let first = Self.expected(.firstMatch, probe: probe, library: library, charFileSize: 256)
        // The set-up must make the models disagree, else this test could not tell them apart.
        try #require(best.hit?.slot == 6 && first.hit?.slot == 2, "scores: best \(String(describing: best.hit)), first \(String(describing: first.hit))")
        let hit = try #require((model == .bestMatch ? best : first).hit)
        try host.send(Command.search(buffer: 1, start: 0, count: 10))
        let expected = Acknowledgement(code: .success, payload: hit.payload).frame(address: Frame.defaultAddress).encoded()
        #expect(try host.readRaw() == expected)
        #expect(host.server.status().searchModel == model.rawValue)

        // A stranger is a miss in both models: 09 and four zero bytes on an R307.
        host.server.place("nobody-enrolled")
        #expect(try host.capture(into: 1) == 0)
        try host.send(Command.search(buffer: 1, start: 0, count: 10))
        #expect(try host.readRaw() == Acknowledgement(code: .notFound, payload: [0, 0, 0, 0]).frame(address: Frame.defaultAddress).encoded())
    }

    @Test(arguments: SearchModel.allCases)
    func searchTimeIsChargedForTheTemplatesTheModelCompares(model: SearchModel) throws {
        var module = SimulatedModule(profile: .r307, timing: .datasheet, searchModel: model)
        let library = Self.library(profile: .r307)
        module.configure { $0.library = library }
        module.sensor.place(Placement(name: "alice"))
        func send(_ command: Command) -> ReplyPlan? { module.handle(frame: command.frame(address: Frame.defaultAddress)) }
        #expect(send(.genImg)?.frames.first.flatMap { try? Acknowledgement(frame: $0) }?.code == .success)
        #expect(send(.img2Tz(buffer: 1))?.frames.first.flatMap { try? Acknowledgement(frame: $0) }?.code == .success)
        let upload = try #require(send(.upChar(buffer: 1)))
        let probe = CharFile.features(in: upload.frames.dropFirst().flatMap(\.content), charFileSize: 256)
        let expected = Self.expected(model, probe: probe, library: library, charFileSize: 256)
        let plan = try #require(send(.search(buffer: 1, start: 0, count: 10)))
        let reply = try Acknowledgement(frame: try #require(plan.frames.first))
        #expect(try SearchHit(payload: reply.payload) == expected.hit)
        #expect(plan.segments.first?.delay == module.timing.searchDuration(templates: expected.compared))
        #expect(expected.compared == (model == .bestMatch ? 6 : 3))

        // A range that starts after the weak template: both models find the full one at 6, the
        // first-match model after comparing 4 and 6 only.
        let narrow = try #require(send(.search(buffer: 1, start: 3, count: 7)))
        #expect(try SearchHit(payload: Acknowledgement(frame: try #require(narrow.frames.first)).payload).slot == 6)
        #expect(narrow.segments.first?.delay == module.timing.searchDuration(templates: model == .bestMatch ? 3 : 2))
    }
}
