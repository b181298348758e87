@testable import HostMatching
import MinutiaeExtraction
import TestSupport
import Testing

/// Template format 4: what goes in comes back (to the format's resolution), damage is an error
/// naming it, and a format-1 template (libfprint's), format 2 (no ridge directions) or format 3
/// (no ridge pixels) asks for enrolling again.
@Suite struct TemplateCodingTests {
    static func print(minutiae: Int, seed: UInt64) -> ExtractedPrint {
        var state = seed
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        let found = (0..<minutiae).map { _ in
            RidgeMinutia(x: next() * 191, y: next() * 191, angle: next() * 2 * .pi, kind: next() < 0.5 ? .ending : .bifurcation,
                         quality: next())
        }
        let foreground = (0..<(24 * 24)).map { $0 % 7 != 0 }
        let orientations = foreground.map { $0 ? next() * .pi : 0 }
        // Ridges on the print only, as the extractor keeps them: tiles off it are left out.
        let pixels = (0..<(192 * 192)).map { _ in UInt8(next() < 0.45 ? 1 : 0) }
        let ridges = RidgeMap(width: 192, height: 192, pixels: pixels) { x, y in foreground[(y / 8) * 24 + x / 8] }
        return ExtractedPrint(width: 192, height: 192, minutiae: found, blockSize: 8, blocksAcross: 24, blocksDown: 24,
                              foreground: foreground, orientations: orientations, ridges: ridges,
                              quality: PrintQuality(score: 63, area: 0.857, clarity: 0.412))
    }

    @Test func impressionsComeBackToTheFormatsResolution() throws {
        let impressions = (0..<8).map { Self.print(minutiae: 20 + $0, seed: UInt64($0 + 1)) }
        let decoded = try TemplateCoding.decode(TemplateCoding.encode(impressions)).get()
        #expect(decoded.count == 8)
        for (original, back) in zip(impressions, decoded) {
            #expect(back.foreground == original.foreground)
            // Each print block's direction to 1/256 of a half turn, kept in the same step.
            for block in original.foreground.indices where original.foreground[block] {
                #expect(abs(back.orientations[block] - original.orientations[block]) <= .pi / 256)
                #expect(OrientationAgreement.step(back.orientations[block]) == OrientationAgreement.step(original.orientations[block]))
            }
            // Every ridge pixel exactly; the tiles off the print took no room.
            #expect(back.ridges == original.ridges)
            #expect(back.ridges.tiles.count { $0 != 0 } == original.foreground.count { $0 })
            #expect(back.quality.score == 63)
            #expect(abs(back.quality.area - 0.857) < 0.0001)
            #expect(back.minutiae.count == original.minutiae.count)
            for (a, b) in zip(original.minutiae, back.minutiae) {
                #expect(abs(a.x - b.x) <= 1.0 / 16 && abs(a.y - b.y) <= 1.0 / 16)
                var turn = abs(a.angle - b.angle)
                turn = min(turn, 2 * .pi - turn)
                #expect(turn < 0.001)
                #expect(a.kind == b.kind)
                #expect(abs(a.quality - b.quality) <= 1.0 / 255)
            }
        }
    }

    @Test func everyTruncationAndTrailingByteIsRefused() {
        let bytes = TemplateCoding.encode([Self.print(minutiae: 5, seed: 9)])
        for length in 0..<bytes.count {
            guard case .failure = TemplateCoding.decode(bytes.prefix(length)) else {
                Issue.record("a template cut to \(length) of \(bytes.count) bytes was read")
                return
            }
        }
        #expect(TemplateCoding.decode(bytes + [0]) == .failure(.trailingBytes(1)))
    }

    @Test func impossibleValuesAreRefusedNotAllocated() {
        var bytes = TemplateCoding.encode([Self.print(minutiae: 3, seed: 4)])
        bytes[0] = 200
        #expect(TemplateCoding.decode(bytes) == .failure(.impressionCount(200)))
        bytes = TemplateCoding.encode([Self.print(minutiae: 3, seed: 4)])
        bytes[1] = 0xFF
        bytes[2] = 0xFF
        guard case .failure(.outOfRange(0, _)) = TemplateCoding.decode(bytes) else {
            Issue.record("a 65535-pixel-wide image was read")
            return
        }
    }

    @Test func aPrintWithoutRidgesComesBackWithout() throws {
        var print = Self.print(minutiae: 7, seed: 5)
        print.ridges = .none
        let decoded = try TemplateCoding.decode(TemplateCoding.encode([print])).get()
        #expect(decoded.first?.ridges == RidgeMap.none)
    }

    @Test func aRidgeTileListedButEmptyIsRefused() {
        // One foreground block's tile, listed as holding ridge, emptied by hand: the encoder never
        // lists an empty tile, so this is damage (or a hand-made template), not a valid print.
        var print = Self.print(minutiae: 0, seed: 6)
        print.foreground = print.foreground.indices.map { $0 == 0 }
        print.orientations = print.foreground.map { _ in 0 }
        print.ridges = RidgeMap(width: 192, height: 192, tiles: [UInt64.max] + [UInt64](repeating: 0, count: 24 * 24 - 1))
        var bytes = TemplateCoding.encode([print])
        let tile = bytes.count - 7 - 8
        #expect(bytes[tile..<(tile + 8)].allSatisfy { $0 == 0xFF })
        for index in tile..<(tile + 8) { bytes[index] = 0 }
        #expect(TemplateCoding.decode(bytes) == .failure(.outOfRange(impression: 0, what: "empty ridge tile")))
        bytes = TemplateCoding.encode([print])
        bytes[tile - 73] = 2
        #expect(TemplateCoding.decode(bytes) == .failure(.outOfRange(impression: 0, what: "ridge map flag")))
    }

    @Test func aTemplateWithoutRidgePixelsAsksForEnrollingAgain() {
        let payload = TemplateCoding.encode([Self.print(minutiae: 12, seed: 3)])
        let old = HostTemplate(bytes: TemplateEnvelope.wrap(payload, format: TemplateEnvelope.directionsFormat))
        #expect(HostTemplate.olderFormats[3] != nil)
        let error = expectThrows(HostMatchingError.self) { try MinutiaeGallery([old]) }
        #expect(error == .olderTemplateFormat(index: 0))
        #expect(error?.description.contains("enroll that finger again") == true)
    }

    @Test func aLibfprintTemplateAsksForEnrollingAgain() {
        let old = HostTemplate(bytes: TemplateEnvelope.wrap(Array("FP3 an NBIS print".utf8), format: TemplateEnvelope.libfprintFormat))
        let error = expectThrows(HostMatchingError.self) { try MinutiaeGallery([old]) }
        #expect(error == .olderTemplateFormat(index: 0))
        #expect(error?.description.contains("enroll that finger again") == true)
    }

    @Test func aDamagedTemplateNamesItsPosition() {
        let good = HostTemplate(bytes: TemplateEnvelope.wrap(TemplateCoding.encode([Self.print(minutiae: 12, seed: 2)]),
                                                             format: TemplateEnvelope.fpmodFormat))
        var bad = good.bytes
        bad[bad.count - 1] ^= 0x01
        let error = expectThrows(HostMatchingError.self) { try MinutiaeGallery([good, HostTemplate(bytes: bad)]) }
        guard case .unreadableTemplate(1, let message) = error else {
            Issue.record("expected template 1 unreadable, got \(String(describing: error))")
            return
        }
        #expect(message.contains("checksum"))
    }
}
