import Imaging

/// Grey levels made comparable across pressure, dryness and sensors: each pixel minus the mean
/// of its neighbourhood, over the neighbourhood's deviation, so ridges are negative and valleys
/// positive everywhere with unit contrast, whether the skin pressed hard or barely touched.
enum Normalisation {
    /// `radius`: half the side of the neighbourhood (about two ridge periods).
    static func locallyNormalised(_ image: GreyImage, radius: Int) -> FloatPlane {
        let width = image.width, height = image.height
        // Summed-area tables of the values and their squares: every window's mean and variance in O(1).
        let stride = width + 1
        var sum = [Double](repeating: 0, count: stride * (height + 1))
        var squares = [Double](repeating: 0, count: stride * (height + 1))
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                var rowSum = 0.0, rowSquares = 0.0
                for x in 0..<width {
                    let value = Double(pixels[y * width + x])
                    rowSum += value
                    rowSquares += value * value
                    sum[(y + 1) * stride + x + 1] = sum[y * stride + x + 1] + rowSum
                    squares[(y + 1) * stride + x + 1] = squares[y * stride + x + 1] + rowSquares
                }
            }
        }
        var out = FloatPlane(width: width, height: height)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                let top = max(0, y - radius), bottom = min(height, y + radius + 1)
                for x in 0..<width {
                    let left = max(0, x - radius), right = min(width, x + radius + 1)
                    let area = Double((bottom - top) * (right - left))
                    let s = sum[bottom * stride + right] - sum[top * stride + right] - sum[bottom * stride + left] + sum[top * stride + left]
                    let q = squares[bottom * stride + right] - squares[top * stride + right] - squares[bottom * stride + left]
                        + squares[top * stride + left]
                    let mean = s / area
                    let deviation = max(4, (max(0, q / area - mean * mean)).squareRoot())
                    out.values[y * width + x] = Float((Double(pixels[y * width + x]) - mean) / deviation)
                }
            }
        }
        return out
    }
}
