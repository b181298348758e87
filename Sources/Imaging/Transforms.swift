import Glibc

/// The changes one impression of a finger shows against another: where it sits on the sensor,
/// how it is turned, how much of it the sensor sees, sensor noise. Used to make test prints and
/// to fit a file's image to a sensor's size.
extension GreyImage {
    /// The `width × height` window whose top left corner is at (`x`, `y`); what falls outside
    /// this image is `fill`.
    public func cropped(x: Int, y: Int, width: Int, height: Int, fill: UInt8 = 255) -> GreyImage {
        var out = GreyImage(width: width, height: height, filledWith: fill)
        for row in 0..<height {
            let sourceY = y + row
            guard sourceY >= 0, sourceY < self.height else { continue }
            for column in 0..<width {
                let sourceX = x + column
                guard sourceX >= 0, sourceX < self.width else { continue }
                out[column, row] = self[sourceX, sourceY]
            }
        }
        return out
    }

    /// The `width × height` window around the centre.
    public func centreCropped(width: Int, height: Int, fill: UInt8 = 255) -> GreyImage {
        cropped(x: (self.width - width) / 2, y: (self.height - height) / 2, width: width, height: height, fill: fill)
    }

    /// Resampled to `width × height` (bilinear), stretching if the aspect ratio differs.
    public func scaled(width: Int, height: Int) -> GreyImage {
        var out = GreyImage(width: width, height: height, filledWith: 255)
        let sx = width > 1 ? Double(self.width - 1) / Double(width - 1) : 0
        let sy = height > 1 ? Double(self.height - 1) / Double(height - 1) : 0
        for row in 0..<height {
            for column in 0..<width {
                // Clamped: the last column's position can round past the source's last pixel.
                let x = min(Double(column) * sx, Double(self.width - 1))
                let y = min(Double(row) * sy, Double(self.height - 1))
                out[column, row] = UInt8(clamping: bilinear(x: x, y: y) ?? 255)
            }
        }
        return out
    }

    /// Fitted to a sensor of `width × height`: the centre is cut out when the image covers the
    /// sensor (ridge spacing, which the matcher depends on, is kept: files and sensors are all
    /// near 500 dpi); a smaller image is first scaled up, keeping its aspect ratio, to cover it.
    public func fitted(width: Int, height: Int) -> GreyImage {
        if self.width >= width && self.height >= height {
            return centreCropped(width: width, height: height)
        }
        let factor = max(Double(width) / Double(self.width), Double(height) / Double(self.height))
        let grown = scaled(width: Int((Double(self.width) * factor).rounded(.up)),
                           height: Int((Double(self.height) * factor).rounded(.up)))
        return grown.centreCropped(width: width, height: height)
    }

    /// Turned by `degrees` (counter-clockwise as seen, y pointing down) about the centre,
    /// bilinear; corners uncovered by the turn are `fill`.
    public func rotated(degrees: Double, fill: UInt8 = 255) -> GreyImage {
        let angle = degrees * Double.pi / 180
        let cosine = cos(angle), sine = sin(angle)
        let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2
        var out = GreyImage(width: width, height: height, filledWith: fill)
        for row in 0..<height {
            for column in 0..<width {
                // Each output pixel is looked up in the source by the inverse turn.
                let dx = Double(column) - cx, dy = Double(row) - cy
                let sourceX = cx + dx * cosine - dy * sine
                let sourceY = cy + dx * sine + dy * cosine
                if let level = bilinear(x: sourceX, y: sourceY) { out[column, row] = UInt8(clamping: level) }
            }
        }
        return out
    }

    /// Moved right by `dx` and down by `dy` pixels; what is uncovered is `fill`.
    public func shifted(dx: Int, dy: Int, fill: UInt8 = 255) -> GreyImage {
        cropped(x: -dx, y: -dy, width: width, height: height, fill: fill)
    }

    /// With Gaussian noise of standard deviation `sigma` grey levels added to every pixel; the
    /// same `seed` gives the same noise.
    public func withNoise(sigma: Double, seed: UInt64) -> GreyImage {
        var generator = SeededGenerator(seed: seed)
        var out = self
        for index in out.pixels.indices {
            out.pixels[index] = UInt8(clamping: Double(pixels[index]) + sigma * generator.nextGaussian())
        }
        return out
    }
}
