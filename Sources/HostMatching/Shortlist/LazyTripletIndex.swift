import Synchronization

/// A gallery's `TripletIndex`, built the first time a search shortlists it: a door's few
/// templates are always compared whole (`GalleryShortlist.minimum`), so their triangles would
/// cost memory (about 5.5 kB an impression) and time (about 0.5 ms an impression, on every
/// read of the library and every enroll) for nothing.
///
/// Galleries are values shared between threads (a search runs on every core), so the index is
/// held behind a lock; whoever asks first builds it, holding the lock, and every later search
/// of that gallery uses the same. A gallery made by `appending` or `removing` gets its own
/// holder: the index changed to match when this one was built, else nothing (built when needed).
final class LazyTripletIndex: Sendable {
    private let index: Mutex<TripletIndex?>

    init(_ built: TripletIndex? = nil) {
        index = Mutex(built)
    }

    /// The index of `impressions` (the gallery's, in order), built now if it was not yet.
    func index(of impressions: [CylinderTemplate]) -> TripletIndex {
        index.withLock { index in
            if let index { return index }
            let built = TripletIndex(impressions)
            index = built
            return built
        }
    }

    /// The index if it was built, else nil (nothing is built by asking).
    var ifBuilt: TripletIndex? { index.withLock { $0 } }
}
