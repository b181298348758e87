import MinutiaeExtraction

/// One image made ready for comparison: what the extractor found in it, and its cylinders
/// (built once, compared many times).
public struct Probe: Sendable {
    public let print: ExtractedPrint
    let cylinders: CylinderTemplate

    /// The minutiae found (a comparison's cost grows with them).
    public var minutiaCount: Int { print.minutiae.count }

    init(_ print: ExtractedPrint) {
        self.print = print
        self.cylinders = CylinderTemplate(print, withShapes: true)
    }
}
