import Glibc
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
    let matcher = NBISMatcher()
    var images: [Int: GreyImage] = [:]
    var templates: [Int: HostTemplate] = [:]

    mutating func prepare(_ index: Int, image: GreyImage) throws -> Bool {
        let stages = try matcher.enrollStages()
        do {
            templates[index] = try Self.patiently { try matcher.enroll(images: Array(repeating: image, count: stages)) }
            images[index] = image
            return true
        } catch let error as HostMatchingError {
            if case .notEnoughUsableImages = error { return false }
            if case .unusableImage = error { return false }
            throw error
        }
    }

    mutating func score(_ a: Int, _ b: Int) throws -> Double {
        let template = templates[a]!, image = images[b]!
        let result = try Self.patiently { try matcher.verify(image: image, template: template) }
        return Double(result.score ?? 0)
    }

    /// libfprint's overheating guard pauses a device kept busy for minutes; a long run waits for
    /// it to cool rather than failing.
    static func patiently<R>(_ body: () throws -> R) throws -> R {
        for _ in 0..<40 {
            do { return try body() } catch let error as HostMatchingError where error == .deviceTooHot {
                var pause = timespec(tv_sec: 15, tv_nsec: 0)
                nanosleep(&pause, nil)
            }
        }
        return try body()
    }
}
