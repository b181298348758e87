/// A plane of Float values, row by row from the top left: the extractor's working images.
struct FloatPlane: Sendable {
    let width: Int
    let height: Int
    var values: [Float]

    init(width: Int, height: Int, filledWith value: Float = 0) {
        self.width = width
        self.height = height
        values = [Float](repeating: value, count: width * height)
    }

    subscript(x: Int, y: Int) -> Float {
        get { values[y * width + x] }
        set { values[y * width + x] = newValue }
    }
}

/// A grid of blocks over an image: the unit of orientation, frequency and segmentation.
struct BlockGrid: Sendable {
    let blockSize: Int
    let across: Int
    let down: Int

    init(width: Int, height: Int, blockSize: Int) {
        self.blockSize = blockSize
        across = (width + blockSize - 1) / blockSize
        down = (height + blockSize - 1) / blockSize
    }

    var count: Int { across * down }

    func index(ofPixelX x: Int, y: Int) -> Int { (y / blockSize) * across + x / blockSize }
}
