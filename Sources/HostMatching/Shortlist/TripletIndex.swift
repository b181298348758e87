/// Every enrolled impression's triangle keys (`MinutiaTriplets`) as an inverted index: for a
/// probe, the impressions that share each of its keys, found by lookup rather than by a
/// comparison with every impression. Built from the gallery's cylinders when a search first
/// shortlists the gallery (`LazyTripletIndex`; templates are stored as before).
///
/// A key's low bits choose its bucket and its top 16 bits are kept beside each posting: a probe
/// holds tens of thousands of keys, so without them most buckets would be shared by chance and
/// every impression would collect votes (measured on FVC2002: the ranking then fails).
struct TripletIndex: Sendable {
    /// Bucket b's postings are at offsets[b] ..< offsets[b + 1] of `impressions` and `checks`.
    let offsets: [UInt32]
    let impressions: [UInt32]
    let checks: [UInt16]
    let bucketMask: UInt64
    /// Distinct keys of each impression: its votes are weighed against them.
    let keyCounts: [UInt32]

    init(_ templates: [CylinderTemplate]) {
        let keys = templates.map { Self.distinct(MinutiaTriplets.enrolledKeys($0)) }
        let total = keys.reduce(0) { $0 + $1.count }
        var buckets = 1024
        while buckets * 2 < total { buckets *= 2 }
        let mask = UInt64(buckets - 1)
        var offsets = [UInt32](repeating: 0, count: buckets + 1)
        for list in keys { for key in list { offsets[Int(key & mask) + 1] += 1 } }
        for bucket in 0..<buckets { offsets[bucket + 1] += offsets[bucket] }
        var next = offsets
        var impressions = [UInt32](repeating: 0, count: total), checks = [UInt16](repeating: 0, count: total)
        for (impression, list) in keys.enumerated() {
            for key in list {
                let position = Int(next[Int(key & mask)])
                impressions[position] = UInt32(impression)
                checks[position] = Self.check(key)
                next[Int(key & mask)] += 1
            }
        }
        self.offsets = offsets
        self.impressions = impressions
        self.checks = checks
        bucketMask = mask
        keyCounts = keys.map { UInt32($0.count) }
    }

    private init(offsets: [UInt32], impressions: [UInt32], checks: [UInt16], bucketMask: UInt64, keyCounts: [UInt32]) {
        self.offsets = offsets
        self.impressions = impressions
        self.checks = checks
        self.bucketMask = bucketMask
        self.keyCounts = keyCounts
    }

    /// This index with `added` impressions after the others (`all` is every impression, old and
    /// added): only the added ones' triangles are found, the others' postings are copied, so an
    /// enrollment does not cost the whole library's triangles again. The buckets stay as they
    /// were until they hold four times the keys they were sized for; then the index is rebuilt.
    func appending(_ added: [CylinderTemplate], all: [CylinderTemplate]) -> TripletIndex {
        let buckets = offsets.count - 1
        var fresh: [(bucket: Int, impression: UInt32, check: UInt16)] = []
        var counts = keyCounts
        for (offset, template) in added.enumerated() {
            let keys = Self.distinct(MinutiaTriplets.enrolledKeys(template))
            counts.append(UInt32(keys.count))
            for key in keys { fresh.append((Int(key & bucketMask), UInt32(keyCounts.count + offset), Self.check(key))) }
        }
        guard impressions.count + fresh.count <= 8 * buckets else { return TripletIndex(all) }
        fresh.sort { $0.bucket < $1.bucket }
        // Old postings are copied in runs: up to the end of each bucket that gains a posting.
        let total = impressions.count + fresh.count
        var postings = [UInt32](repeating: 0, count: total), checks = [UInt16](repeating: 0, count: total)
        postings.withUnsafeMutableBufferPointer { postings in
            checks.withUnsafeMutableBufferPointer { checks in
                var written = 0, copied = 0
                func copy(upTo end: Int) {
                    _ = UnsafeMutableBufferPointer(rebasing: postings[written..<(written + end - copied)]).update(fromContentsOf: impressions[copied..<end])
                    _ = UnsafeMutableBufferPointer(rebasing: checks[written..<(written + end - copied)]).update(fromContentsOf: self.checks[copied..<end])
                    written += end - copied
                    copied = end
                }
                for entry in fresh {
                    copy(upTo: Int(self.offsets[entry.bucket + 1]))
                    postings[written] = entry.impression
                    checks[written] = entry.check
                    written += 1
                }
                copy(upTo: impressions.count)
            }
        }
        var offsets = self.offsets, gained = 0, next = 0
        for bucket in 0...buckets {
            offsets[bucket] += UInt32(gained)
            while next < fresh.count && fresh[next].bucket == bucket {
                gained += 1
                next += 1
            }
        }
        return TripletIndex(offsets: offsets, impressions: postings, checks: checks, bucketMask: bucketMask, keyCounts: counts)
    }

    /// This index without the impressions in `range`; the later ones move down.
    func removing(_ range: Range<Int>) -> TripletIndex {
        let buckets = offsets.count - 1
        let shift = UInt32(range.count), lower = UInt32(range.lowerBound), upper = UInt32(range.upperBound)
        var offsets = [UInt32](repeating: 0, count: buckets + 1)
        var postings: [UInt32] = [], checks: [UInt16] = []
        postings.reserveCapacity(impressions.count)
        checks.reserveCapacity(impressions.count)
        for bucket in 0..<buckets {
            offsets[bucket] = UInt32(postings.count)
            for position in Int(self.offsets[bucket])..<Int(self.offsets[bucket + 1]) {
                let impression = impressions[position]
                guard impression < lower || impression >= upper else { continue }
                postings.append(impression >= upper ? impression - shift : impression)
                checks.append(self.checks[position])
            }
        }
        offsets[buckets] = UInt32(postings.count)
        var counts = keyCounts
        counts.removeSubrange(range)
        return TripletIndex(offsets: offsets, impressions: postings, checks: checks, bucketMask: bucketMask, keyCounts: counts)
    }

    static func check(_ key: UInt64) -> UInt16 { UInt16(truncatingIfNeeded: key >> 48) }

    /// `keys` without repeats, ascending.
    static func distinct(_ keys: [UInt64]) -> [UInt64] {
        var keys = keys
        keys.sort()
        var kept = 0
        for key in keys where kept == 0 || keys[kept - 1] != key {
            keys[kept] = key
            kept += 1
        }
        keys.removeLast(keys.count - kept)
        return keys
    }

    /// Each impression's share of the probe's keys: the keys both hold, over the square root of
    /// the keys the impression holds (an impression of many triangles shares more by chance).
    func similarities(probeKeys: [UInt64]) -> [Float] {
        var votes = [UInt32](repeating: 0, count: keyCounts.count)
        votes.withUnsafeMutableBufferPointer { votes in
            impressions.withUnsafeBufferPointer { impressions in
                checks.withUnsafeBufferPointer { checks in
                    offsets.withUnsafeBufferPointer { offsets in
                        for key in Self.distinct(probeKeys) {
                            let bucket = Int(key & bucketMask), check = Self.check(key)
                            for position in Int(offsets[bucket])..<Int(offsets[bucket + 1]) where checks[position] == check {
                                votes[Int(impressions[position])] &+= 1
                            }
                        }
                    }
                }
            }
        }
        return zip(votes, keyCounts).map { votes, keys in Float(votes) / Float(max(1, keys)).squareRoot() }
    }

    /// The memory the index takes, in bytes.
    var byteCount: Int { 4 * offsets.capacity + 4 * impressions.capacity + 2 * checks.capacity + 4 * keyCounts.capacity + 128 }
}
