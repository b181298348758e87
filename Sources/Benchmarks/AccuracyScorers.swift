import HostMatching
import Imaging
import MatcherAccuracy

/// fpmod's matcher under the FVC protocol: the same extraction and comparison a door runs.
public struct FpmodScorer: PairScorer {
    public let name = "fpmod"
    public let matcher: MinutiaeMatcher
    public var probes: [Int: Probe] = [:]

    public init(matcher: MinutiaeMatcher) { self.matcher = matcher }

    public mutating func prepare(_ index: Int, image: GreyImage) throws -> Bool {
        guard let probe = try? matcher.probe(image) else { return false }
        probes[index] = probe
        return true
    }

    public mutating func score(_ a: Int, _ b: Int) throws -> Double {
        Double(matcher.score(probes[a]!, probes[b]!))
    }
}

/// NIST's NBIS as libfprint ships it (mindtct, bozorth3), the baseline: each image enrolled on
/// its own (libfprint's five stages, the same image five times) and every other image verified
/// against it; the score is bozorth3's.
public struct NBISScorer: PairScorer {
    public let name = "NBIS (libfprint)"
    public var matcher = NBISMatcher()
    public var images: [Int: GreyImage] = [:]
    public var templates: [Int: HostTemplate] = [:]

    public mutating func prepare(_ index: Int, image: GreyImage) throws -> Bool {
        let stages = try matcher.enrollStages()
        do {
            templates[index] = try matcher.enroll(images: Array(repeating: image, count: stages))
            images[index] = image
            return true
        } catch {
            if case .notEnoughUsableImages = error { return false }
            if case .unusableImage = error { return false }
            throw error
        }
    }

    public mutating func score(_ a: Int, _ b: Int) throws -> Double {
        let template = templates[a]!, image = images[b]!
        return Double(try matcher.verify(image: image, template: template).score ?? 0)
    }
}
