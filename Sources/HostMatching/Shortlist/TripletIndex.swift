/// Every enrolled impression's triangle keys (`MinutiaTriplets`) as an inverted index: for a
/// probe, the impressions that share each of its keys, found by lookup rather than by a
/// comparison with every impression. Built from the gallery's cylinders when a search first
/// shortlists the gallery (`LazyTripletIndex`; templates are stored as before).
///
/// A key's low bits choose its bucket and its top 16 bits are kept beside each posting: a probe
/// holds tens of thousands of keys, so without them most buckets would be shared by chance and
/// every impression would collect votes (measured on FVC2002: the ranking then fails).
///
/// Impressions enrolled after the buckets were laid out wait in a small index of their own (the
/// recent list: each key cut to its bucket and check bits, so it matches exactly what a posting in
/// the buckets would) until it holds `recentLimit` postings: an enrollment into a library of
/// 10,000 then costs its own triangles and that list, not a copy of the whole index, and one in
/// about 35 lays the list into the buckets.
struct TripletIndex: Sendable {
    /// Bucket b's postings are at offsets[b] ..< offsets[b + 1] of `impressions` and `checks`.
    let offsets: [UInt32]
    let impressions: [UInt32]
    let checks: [UInt16]
    let bucketMask: UInt64
    /// Distinct keys of each impression (in the buckets and the recent list): its votes are
    /// weighed against them.
    let keyCounts: [UInt32]
    /// The recent impressions' postings: keys as `cut` makes them, in `recentOrder`, and whose
    /// each is; the postings of keys whose low 16 bits are r are at recentOffsets[r] ..<
    /// recentOffsets[r + 1] (empty when there are none).
    let recentKeys: [UInt64]
    let recentImpressions: [UInt32]
    let recentOffsets: [UInt32]
    static let recentBuckets = 1 << 16
    /// At most this many recent postings (about four to a recent bucket), and at most an eighth
    /// of the buckets' postings once past the first 8,192 (in a small index, laying the list into
    /// the buckets costs little).
    static let recentLimit = 1 << 18

    /// `buckets` (a power of two): as many as an index grown to these templates has (tests);
    /// nil: sized for them.
    init(_ templates: [CylinderTemplate], buckets chosen: Int? = nil) {
        let keys = templates.map { Self.distinct(MinutiaTriplets.enrolledKeys($0)) }
        let total = keys.reduce(0) { $0 + $1.count }
        var buckets = 1024
        while buckets * 2 < total { buckets *= 2 }
        if let chosen { buckets = chosen }
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
        recentKeys = []
        recentImpressions = []
        recentOffsets = []
    }

    private init(offsets: [UInt32], impressions: [UInt32], checks: [UInt16], bucketMask: UInt64, keyCounts: [UInt32],
                 recentKeys: [UInt64] = [], recentImpressions: [UInt32] = []) {
        self.offsets = offsets
        self.impressions = impressions
        self.checks = checks
        self.bucketMask = bucketMask
        self.keyCounts = keyCounts
        self.recentKeys = recentKeys
        self.recentImpressions = recentImpressions
        if recentKeys.isEmpty {
            recentOffsets = []
        } else {
            var starts = [UInt32](repeating: 0, count: Self.recentBuckets + 1)
            for key in recentKeys { starts[Int(key & UInt64(Self.recentBuckets - 1)) + 1] += 1 }
            for bucket in 0..<Self.recentBuckets { starts[bucket + 1] += starts[bucket] }
            recentOffsets = starts
        }
    }

    /// `key` as the buckets tell keys apart: its bucket bits and its check bits, nothing between.
    func cut(_ key: UInt64) -> UInt64 { (key & bucketMask) | (key & 0xFFFF_0000_0000_0000) }

    /// The recent list's order: by the low 16 bits (its buckets), then the key.
    static func recentOrder(_ a: UInt64, _ b: UInt64) -> Bool {
        let (lowA, lowB) = (a & UInt64(recentBuckets - 1), b & UInt64(recentBuckets - 1))
        return lowA != lowB ? lowA < lowB : a < b
    }

    /// This index with `added` impressions after the others (`all` is every impression, old and
    /// added): only the added ones' triangles are found. They join the recent list (merged in
    /// order, a copy of that list only); when it would hold more than its limit (`recentLimit`),
    /// it and they are laid into the buckets (the postings copied once). The buckets stay as they
    /// were until they hold eight times the keys they were sized for; then the index is rebuilt.
    func appending(_ added: [CylinderTemplate], all: [CylinderTemplate]) -> TripletIndex {
        let buckets = offsets.count - 1
        var fresh: [(key: UInt64, impression: UInt32)] = []
        var counts = keyCounts
        for (offset, template) in added.enumerated() {
            let keys = Self.distinct(MinutiaTriplets.enrolledKeys(template))
            counts.append(UInt32(keys.count))
            for key in keys { fresh.append((cut(key), UInt32(keyCounts.count + offset))) }
        }
        guard impressions.count + recentKeys.count + fresh.count <= 8 * buckets else { return TripletIndex(all) }
        fresh.sort { Self.recentOrder($0.key, $1.key) }
        if recentKeys.count + fresh.count <= min(Self.recentLimit, max(8_192, impressions.count / 8)) {
            // Two lists in the recent order merged; among equal keys the older posting first.
            var keys: [UInt64] = [], owners: [UInt32] = []
            keys.reserveCapacity(recentKeys.count + fresh.count)
            owners.reserveCapacity(recentKeys.count + fresh.count)
            var old = 0
            for entry in fresh {
                while old < recentKeys.count && !Self.recentOrder(entry.key, recentKeys[old]) {
                    keys.append(recentKeys[old])
                    owners.append(recentImpressions[old])
                    old += 1
                }
                keys.append(entry.key)
                owners.append(entry.impression)
            }
            keys.append(contentsOf: recentKeys[old...])
            owners.append(contentsOf: recentImpressions[old...])
            return TripletIndex(offsets: offsets, impressions: impressions, checks: checks, bucketMask: bucketMask, keyCounts: counts,
                                recentKeys: keys, recentImpressions: owners)
        }
        var entering = zip(recentKeys, recentImpressions).map { (bucket: Int($0 & bucketMask), impression: $1, check: Self.check($0)) }
        entering += fresh.map { (bucket: Int($0.key & bucketMask), impression: $0.impression, check: Self.check($0.key)) }
        return laidIntoBuckets(entering, keyCounts: counts)
    }

    /// This index's buckets with `entering` postings added (the recent list emptied into them):
    /// the old postings are copied in runs, up to the end of each bucket that gains one.
    private func laidIntoBuckets(_ entering: [(bucket: Int, impression: UInt32, check: UInt16)], keyCounts counts: [UInt32]) -> TripletIndex {
        let buckets = offsets.count - 1
        var fresh = entering
        fresh.sort { $0.bucket != $1.bucket ? $0.bucket < $1.bucket : $0.impression < $1.impression }
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
        var recentKeys: [UInt64] = [], recentImpressions: [UInt32] = []
        for (key, impression) in zip(self.recentKeys, self.recentImpressions) where impression < lower || impression >= upper {
            recentKeys.append(key)
            recentImpressions.append(impression >= upper ? impression - shift : impression)
        }
        return TripletIndex(offsets: offsets, impressions: postings, checks: checks, bucketMask: bucketMask, keyCounts: counts,
                            recentKeys: recentKeys, recentImpressions: recentImpressions)
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
                        recentKeys.withUnsafeBufferPointer { recentKeys in
                            for key in Self.distinct(probeKeys) {
                                let bucket = Int(key & bucketMask), check = Self.check(key)
                                for position in Int(offsets[bucket])..<Int(offsets[bucket + 1]) where checks[position] == check {
                                    votes[Int(impressions[position])] &+= 1
                                }
                                guard !recentKeys.isEmpty else { continue }
                                // The recent list: its bucket's postings of this cut key.
                                let wanted = cut(key), recent = Int(wanted & UInt64(Self.recentBuckets - 1))
                                for position in Int(recentOffsets[recent])..<Int(recentOffsets[recent + 1]) where recentKeys[position] == wanted {
                                    votes[Int(recentImpressions[position])] &+= 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return zip(votes, keyCounts).map { votes, keys in Float(votes) / Float(max(1, keys)).squareRoot() }
    }

    /// The memory the index takes, in bytes.
    var byteCount: Int {
        4 * offsets.capacity + 4 * impressions.capacity + 2 * checks.capacity + 4 * keyCounts.capacity
            + 8 * recentKeys.capacity + 4 * recentImpressions.capacity + 4 * recentOffsets.capacity + 128
    }
}
