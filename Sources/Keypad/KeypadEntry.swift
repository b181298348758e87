/// One person typing a PIN on a door keypad: digits gathered until submit, dropped on clear or
/// after a pause, bounded however many keys arrive. Pure: the caller gives each key with the
/// moment it was pressed (seconds on a monotonic clock, e.g. the kernel's event timestamp), and
/// asks `expire(at:)` when `deadline` passes, so the fake-clock tests drive it as the reader does.
///
/// It never judges a PIN: a submitted entry goes to the PIN check, whose lockout counts guesses.
/// An entry too short or too long to be any PIN is refused here, so the person hears "wrong" at
/// once; no such entry can match, so it is not counted as a guess.
public struct KeypadEntry: Sendable {
    public struct Settings: Equatable, Sendable {
        /// The fewest and most digits a PIN has (fpmod's PIN rule: 4 to 12).
        public var minimumDigits: Int
        public var maximumDigits: Int
        /// Seconds without a key after which a half-typed entry is dropped.
        public var pause: Double

        public static let allowedDigits = 1...32
        public static let allowedPause = 1.0...120.0

        /// Checked before any key is taken: a keypad that can never submit a PIN is a config error.
        public init(minimumDigits: Int = 4, maximumDigits: Int = 12, pause: Double = 5) throws(KeypadSettingsError) {
            guard Self.allowedDigits.contains(minimumDigits), Self.allowedDigits.contains(maximumDigits) else {
                throw KeypadSettingsError("a PIN on the keypad has \(Self.allowedDigits.lowerBound) to \(Self.allowedDigits.upperBound) digits; "
                                          + "got \(minimumDigits) to \(maximumDigits)")
            }
            guard minimumDigits <= maximumDigits else {
                throw KeypadSettingsError("the fewest digits (\(minimumDigits)) is more than the most (\(maximumDigits))")
            }
            guard Self.allowedPause.contains(pause) else {
                throw KeypadSettingsError("the keypad's pause is 1 to 120 seconds; got \(pause)")
            }
            self.minimumDigits = minimumDigits
            self.maximumDigits = maximumDigits
            self.pause = pause
        }
    }

    public enum Outcome: Sendable {
        /// A digit was taken; `count` digits so far (a display shows that many dots, no more).
        case digitTaken(count: Int)
        /// The entry is done: check it, then `wipe()` it.
        case submitted(KeypadSecret)
        case cleared
        /// A half-typed entry was dropped after the pause.
        case timedOut
        case rejected(Rejection)
        /// The key changed nothing (submit or clear with nothing typed, digits after a refusal).
        case ignored
    }

    public enum Rejection: Equatable, Sendable {
        /// Submitted with fewer digits than any PIN has.
        case tooShort
        /// More digits than any PIN has: the entry is dropped, and the digits that follow are
        /// ignored until submit, clear or the pause.
        case tooLong
    }

    public let settings: Settings
    private var digits: [UInt8] = []
    /// After `.tooLong`, until the entry ends: so a flood is one refusal, not many.
    private var overflowed = false
    private var lastKey: Double?

    public init(_ settings: Settings) {
        self.settings = settings
        digits.reserveCapacity(settings.maximumDigits)
    }

    /// Whether someone is in the middle of an entry.
    public var isEntering: Bool { lastKey != nil }

    /// Digits held now (never more than `maximumDigits`).
    public var count: Int { digits.count }

    /// When `expire(at:)` drops the entry in progress; nil when none is.
    public var deadline: Double? { lastKey.map { $0 + settings.pause } }

    public mutating func press(_ key: KeypadKey, at now: Double) -> Outcome {
        // A key after the pause starts afresh, even if nobody called expire in between.
        if let deadline, now >= deadline { reset() }
        switch key {
        case .digit(let digit):
            guard digit <= 9 else { return .ignored }
            lastKey = now
            guard !overflowed else { return .ignored }
            guard digits.count < settings.maximumDigits else {
                wipeDigits()
                overflowed = true
                return .rejected(.tooLong)
            }
            digits.append(digit)
            return .digitTaken(count: digits.count)
        case .submit:
            guard isEntering else { return .ignored }
            defer { reset() }
            if overflowed { return .ignored }
            guard digits.count >= settings.minimumDigits else { return .rejected(.tooShort) }
            return .submitted(KeypadSecret(digits: digits))
        case .clear:
            guard isEntering else { return .ignored }
            reset()
            return .cleared
        }
    }

    /// Drops the entry in progress once its pause has passed.
    public mutating func expire(at now: Double) -> Outcome {
        guard let deadline, now >= deadline else { return .ignored }
        reset()
        return .timedOut
    }

    private mutating func reset() {
        wipeDigits()
        overflowed = false
        lastKey = nil
    }

    private mutating func wipeDigits() {
        for index in digits.indices { digits[index] = 0 }
        digits.removeAll(keepingCapacity: true)
    }
}

/// A keypad setting no entry could work with; the text names the allowed range.
public struct KeypadSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
