import MinutiaeExtraction

/// Enrolled templates made ready for fast 1:N search: every impression of every template as
/// cylinders, built once (the slow part of a comparison), kept in one array in gallery order.
public struct MinutiaeGallery: Sendable {
    let impressions: [CylinderTemplate]
    /// The impressions' triangles, for a large search's first stage (`GalleryShortlist`), built
    /// when a search first needs them.
    let lazyTriplets: LazyTripletIndex
    /// Template t's impressions are impressions[firstImpression[t] ..< firstImpression[t + 1]].
    let firstImpression: [Int]

    public var count: Int { firstImpression.count - 1 }
    /// Comparisons one search makes: what the false-match rate of an attempt grows with.
    public var impressionCount: Int { impressions.count }
    /// Pairs of impressions of one template: the comparisons the two-impression criterion makes.
    public var impressionPairCount: Int {
        (0..<count).reduce(0) { total, template in
            let n = impressionRange(of: template).count
            return total + n * (n - 1) / 2
        }
    }

    /// The triangle index, built now if no search has needed it yet.
    var triplets: TripletIndex { lazyTriplets.index(of: impressions) }

    /// The memory the prepared impressions take, in bytes (their cylinders, minutiae and print
    /// areas, with the arrays' headers, and the triangle index once built; not the allocator's
    /// own rounding).
    public var byteCount: Int {
        impressions.reduce(0) { $0 + $1.byteCount } + (lazyTriplets.ifBuilt?.byteCount ?? 0) + MemoryLayout<Int>.stride * firstImpression.count
    }

    /// Whether the triangle index has been built (a search shortlisted this gallery or one it
    /// was made from).
    public var hasTripletIndex: Bool { lazyTriplets.ifBuilt != nil }

    /// Reads every template; a damaged one, or one of another format, is an error naming its
    /// position, so a gallery never silently loses a finger.
    public init(_ templates: [HostTemplate]) throws(HostMatchingError) {
        var prints: [[ExtractedPrint]] = []
        for (index, template) in templates.enumerated() { prints.append(try Self.impressions(of: template, index: index)) }
        self.init(prints: prints)
    }

    /// From extracted impressions directly: one list per template (tests, the bench).
    public init(prints templates: [[ExtractedPrint]]) {
        var impressions: [CylinderTemplate] = []
        var first = [0]
        for prints in templates {
            impressions += prints.map { CylinderTemplate($0) }
            first.append(impressions.count)
        }
        self.init(impressions: impressions, firstImpression: first)
    }

    /// This gallery with `template` added at the end (position `count`): only its own cylinders
    /// are built (and its triangles, when this gallery's index was built), so an enroll costs
    /// one template, not the whole library again.
    public func appending(_ template: HostTemplate) throws(HostMatchingError) -> MinutiaeGallery {
        let added = try Self.impressions(of: template, index: count).map { CylinderTemplate($0) }
        let all = impressions + added
        return MinutiaeGallery(impressions: all, triplets: lazyTriplets.ifBuilt?.appending(added, all: all),
                               firstImpression: firstImpression + [impressions.count + added.count])
    }

    /// This gallery without the template at `index`; the later ones move down one position.
    public func removing(at index: Int) -> MinutiaeGallery {
        precondition((0..<count).contains(index), "no template at gallery position \(index)")
        let range = firstImpression[index]..<firstImpression[index + 1]
        var impressions = impressions
        impressions.removeSubrange(range)
        var first = firstImpression
        first.remove(at: index + 1)
        for position in (index + 1)..<first.count { first[position] -= range.count }
        return MinutiaeGallery(impressions: impressions, triplets: lazyTriplets.ifBuilt?.removing(range), firstImpression: first)
    }

    private init(impressions: [CylinderTemplate], triplets: TripletIndex? = nil, firstImpression: [Int]) {
        self.impressions = impressions
        lazyTriplets = LazyTripletIndex(triplets)
        self.firstImpression = firstImpression
    }

    /// Template `index`'s impressions.
    func impressionRange(of index: Int) -> Range<Int> { firstImpression[index]..<firstImpression[index + 1] }

    /// The impressions a template holds, or why it cannot be read: `.olderTemplateFormat` for
    /// a libfprint print (fpmod's first image-sensor matcher), `.unreadableTemplate` otherwise.
    public static func impressions(of template: HostTemplate, index: Int) throws(HostMatchingError) -> [ExtractedPrint] {
        let payload: ArraySlice<UInt8>
        switch TemplateEnvelope.unwrap(template.bytes, format: TemplateEnvelope.fpmodFormat) {
        case .success(let bytes): payload = bytes
        case .failure(.otherFormat(let found, _)) where HostTemplate.olderFormats[Int(found)] != nil:
            throw .olderTemplateFormat(index: index)
        case .failure(let damage): throw .unreadableTemplate(index: index, message: damage.description)
        }
        switch TemplateCoding.decode(payload) {
        case .success(let prints): return prints
        case .failure(let damage): throw .unreadableTemplate(index: index, message: damage.description)
        }
    }
}
