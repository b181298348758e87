import HostMatching
import Imaging
import MatcherAccuracy

/// fpmod's matcher under the FVC protocol: the same extraction and comparison a door runs.
struct FpmodScorer: PairScorer {
    let name = "fpmod"
    let matcher: MinutiaeMatcher
    var probes: [Int: Probe] = [:]

    init(matcher: MinutiaeMatcher) { self.matcher = matcher }

    mutating func prepare(_ index: Int, image: GreyImage) throws -> Bool {
        guard let probe = try? matcher.probe(image) else { return false }
        probes[index] = probe
        return true
    }

    mutating func score(_ a: Int, _ b: Int) throws -> Double {
        Double(matcher.score(probes[a]!, probes[b]!))
    }
}

/// NIST's NBIS as libfprint ships it (mindtct, bozorth3), the baseline: each image enrolled on
/// its own (libfprint's five stages, the same image five times) and every other image verified
/// against it; the score is bozorth3's.
struct NBISScorer: PairScorer {
    let name = "NBIS (libfprint)"
    var matcher = NBISMatcher()
    var images: [Int: GreyImage] = [:]
    var templates: [Int: HostTemplate] = [:]

    mutating func prepare(_ index: Int, image: GreyImage) throws -> Bool {
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

    mutating func score(_ a: Int, _ b: Int) throws -> Double {
        let template = templates[a]!, image = images[b]!
        return Double(try matcher.verify(image: image, template: template).score ?? 0)
    }
}
