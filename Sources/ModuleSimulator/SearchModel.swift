/// How the simulated module's 1:N Search walks its library — what it answers and how long it
/// takes. No datasheet says what a real module does (protocol.md §7 gives only "< 1 s at
/// 1:1000"), and the two plausible algorithms reward different library layouts, so the
/// simulator offers both and `fpmod bench` runs under either.
///
/// In both, a template "matches" when its score reaches the security level's threshold, the
/// time is `searchBase + searchPerTemplate × templates compared`, and a miss compares every
/// occupied template in the range.
public enum SearchModel: String, Sendable, CaseIterable, Codable {
    /// Compares every occupied template in the range and answers the highest score (ties: the
    /// lowest slot). Time grows with the templates in the range, wherever the match sits.
    case bestMatch = "best-match"
    /// Walks the occupied slots of the range in slot order and answers the first template over
    /// the threshold. Time grows with its position: a finger in a low slot is found sooner.
    case firstMatch = "first-match"

    public static let choices = allCases.map(\.rawValue)
}
