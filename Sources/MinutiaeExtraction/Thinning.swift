/// Ridges one pixel wide (Zhang and Suen, 1984): pixels are peeled from the ridges' borders in
/// two alternating sub-passes until none changes, keeping every ridge connected and its ends.
enum Thinning {
    /// `mask`: 1 on ridge pixels. The border row and column stay 0.
    static func thin(_ mask: inout [UInt8], width: Int, height: Int) {
        for x in 0..<width { mask[x] = 0; mask[(height - 1) * width + x] = 0 }
        for y in 0..<height { mask[y * width] = 0; mask[y * width + width - 1] = 0 }
        var removable: [Int] = []
        var changed = true
        while changed {
            changed = false
            for pass in 0..<2 {
                removable.removeAll(keepingCapacity: true)
                mask.withUnsafeBufferPointer { m in
                    for y in 1..<(height - 1) {
                        for x in 1..<(width - 1) {
                            let i = y * width + x
                            guard m[i] != 0 else { continue }
                            // Neighbours P2…P9 clockwise from north.
                            let p2 = m[i - width], p3 = m[i - width + 1], p4 = m[i + 1], p5 = m[i + width + 1]
                            let p6 = m[i + width], p7 = m[i + width - 1], p8 = m[i - 1], p9 = m[i - width - 1]
                            let count = Int(p2) + Int(p3) + Int(p4) + Int(p5) + Int(p6) + Int(p7) + Int(p8) + Int(p9)
                            guard count >= 2, count <= 6 else { continue }
                            // 0 → 1 steps around the ring: exactly one means one ridge passes here.
                            var transitions = 0
                            if p2 == 0 && p3 != 0 { transitions += 1 }
                            if p3 == 0 && p4 != 0 { transitions += 1 }
                            if p4 == 0 && p5 != 0 { transitions += 1 }
                            if p5 == 0 && p6 != 0 { transitions += 1 }
                            if p6 == 0 && p7 != 0 { transitions += 1 }
                            if p7 == 0 && p8 != 0 { transitions += 1 }
                            if p8 == 0 && p9 != 0 { transitions += 1 }
                            if p9 == 0 && p2 != 0 { transitions += 1 }
                            guard transitions == 1 else { continue }
                            if pass == 0 {
                                guard p2 & p4 & p6 == 0, p4 & p6 & p8 == 0 else { continue }
                            } else {
                                guard p2 & p4 & p8 == 0, p2 & p6 & p8 == 0 else { continue }
                            }
                            removable.append(i)
                        }
                    }
                }
                for i in removable { mask[i] = 0 }
                if !removable.isEmpty { changed = true }
            }
        }
    }
}
