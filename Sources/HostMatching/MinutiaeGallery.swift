/// Enrolled templates made ready for fast 1:N search: each template's images as pair tables,
/// built once (the slow part of a comparison), kept in one array in gallery order.
public struct MinutiaeGallery: Sendable {
    let tables: [PairTable]
    /// Template t's tables are tables[firstTable[t] ..< firstTable[t + 1]].
    let firstTable: [Int]

    public var count: Int { firstTable.count - 1 }

    /// Reads every template's minutiae; a damaged one is an error naming its position, so a
    /// gallery never silently loses a finger.
    public init(_ templates: [HostTemplate]) throws(HostMatchingError) {
        var images: [[[Minutia]]] = []
        for (index, template) in templates.enumerated() { images.append(try Self.minutiae(of: template, index: index)) }
        self.init(minutiae: images)
    }

    /// From minutiae directly: one list of images per template (tests, the bench).
    public init(minutiae templates: [[[Minutia]]]) {
        var tables: [PairTable] = []
        var firstTable = [0]
        for images in templates {
            tables += images.map { PairTable($0, bothWays: true) }
            firstTable.append(tables.count)
        }
        self.tables = tables
        self.firstTable = firstTable
    }

    /// This gallery with `template` added at the end (position `count`): only its own pair
    /// tables are built, so an enroll costs one template, not the whole library again.
    public func appending(_ template: HostTemplate) throws(HostMatchingError) -> MinutiaeGallery {
        let images = try Self.minutiae(of: template, index: count)
        let added = images.map { PairTable($0, bothWays: true) }
        return MinutiaeGallery(tables: tables + added, firstTable: firstTable + [tables.count + added.count])
    }

    /// This gallery without the template at `index`; the later ones move down one position.
    public func removing(at index: Int) -> MinutiaeGallery {
        precondition((0..<count).contains(index), "no template at gallery position \(index)")
        let range = firstTable[index]..<firstTable[index + 1]
        var tables = tables
        tables.removeSubrange(range)
        var firstTable = firstTable
        firstTable.remove(at: index + 1)
        for position in (index + 1)..<firstTable.count { firstTable[position] -= range.count }
        return MinutiaeGallery(tables: tables, firstTable: firstTable)
    }

    private init(tables: [PairTable], firstTable: [Int]) {
        self.tables = tables
        self.firstTable = firstTable
    }

    /// The best score over template `index`'s images.
    func score(_ probe: PairTable, template index: Int, using matcher: inout PairMatcher) -> Int {
        var best = 0
        for table in firstTable[index]..<firstTable[index + 1] { best = max(best, matcher.score(probe: probe, gallery: tables[table])) }
        return best
    }

    static func minutiae(of template: HostTemplate, index: Int) throws(HostMatchingError) -> [[Minutia]] {
        let payload: ArraySlice<UInt8>
        switch TemplateEnvelope.unwrap(template.bytes) {
        case .success(let bytes): payload = bytes
        case .failure(let damage): throw .unreadableTemplate(index: index, message: damage.description)
        }
        switch MinutiaeReader.images(inPrint: payload) {
        case .success(let images) where !images.isEmpty: return images
        case .success: throw .unreadableTemplate(index: index, message: "it holds no images")
        case .failure(let damage): throw .unreadableTemplate(index: index, message: damage.description)
        }
    }
}
