import MinutiaeExtraction

/// What to tell the person after a touch, from where the print lay in the sensor's window: a
/// touch off to one side or pressed lightly shows less of the finger than the window could.
public enum PlacementAdvice: String, Sendable, Equatable, CaseIterable {
    case pressFlatter = "press the finger flatter, covering the whole sensor"
    case moveUp = "move the finger up"
    case moveDown = "move the finger down"
    case moveLeft = "move the finger left"
    case moveRight = "move the finger right"

    /// The advice for `print`, or nil when it filled the window well.
    public static func advice(for print: ExtractedPrint) -> PlacementAdvice? {
        var count = 0, sumX = 0.0, sumY = 0.0
        for row in 0..<print.blocksDown {
            for column in 0..<print.blocksAcross where print.foreground[row * print.blocksAcross + column] {
                count += 1
                sumX += Double(column) + 0.5
                sumY += Double(row) + 0.5
            }
        }
        guard count > 0 else { return .pressFlatter }
        // The centroid's offset from the window's centre, in fractions of the window.
        let dx = sumX / Double(count) / Double(print.blocksAcross) - 0.5
        let dy = sumY / Double(count) / Double(print.blocksDown) - 0.5
        let area = Double(count) / Double(print.foreground.count)
        if area >= 0.85 { return nil }
        // A print filling one side of the window: the finger should move towards the empty side
        // (the print sits left of centre → the finger is too far left → move it right).
        if max(abs(dx), abs(dy)) >= 0.08 {
            if abs(dx) >= abs(dy) { return dx < 0 ? .moveRight : .moveLeft }
            return dy < 0 ? .moveDown : .moveUp
        }
        return area < 0.6 ? .pressFlatter : nil
    }
}
