/// When the lock entity says `JAMMED` besides a forced door: the strike was released for a
/// person at the door (a finger, a keypad PIN, the grace window) `threshold` times in a row,
/// each for its full time, and the door contact never opened, each try begun within
/// `retryWindow` seconds of the end of the one before. That is someone trying and the door not giving way: a strike that does not
/// release, or a bolt that sticks. One unused unlock is not jammed (people change their mind,
/// and a remote unlock or the exit button may have nobody pushing), and without a door contact
/// nothing can be known, so nothing is said. Cleared when the door next opens (it moves
/// again), or at a restart. Pure: the runtime feeds it the policy's events with its clock.
public struct HomeAssistantJam: Sendable, Equatable {
    /// Unopened unlocks in a row that make it jammed; 0 = never (only a forced door is).
    public var threshold: Int
    /// Seconds from the end of one unopened unlock to the start of the next that still make
    /// them "in a row": a second try comes within moments; one in the evening is a new day.
    public static let retryWindow: Double = 60

    public private(set) var jammed = false
    public private(set) var unopenedInARow = 0
    private var inWindow = false
    private var counts = false
    private var openedInWindow = false
    private var lastUnopenedEnd: Double?

    public init(threshold: Int) { self.threshold = threshold }

    /// An unlock began (`reason` as in the `unlocked` event); `doorOpen` as the contact says
    /// (nil: no contact). An unlock during an unlock only extends it.
    public mutating func unlocked(reason: String, doorOpen: Bool?, at time: Double) {
        guard !inWindow else { return }
        inWindow = true
        openedInWindow = doorOpen == true
        counts = doorOpen == false && Self.personAtTheDoor.contains(reason)
        if counts, let last = lastUnopenedEnd, time - last > Self.retryWindow { unopenedInARow = 0 }
    }

    /// The contact opened: the door moves, whatever happened before.
    public mutating func doorOpened() {
        openedInWindow = true
        jammed = false
        unopenedInARow = 0
        lastUnopenedEnd = nil
    }

    /// The unlock window ended. Only one that ran its full time (`ranOut`) was a try that had
    /// its chance; one cut short (`LOCK`, tamper) says nothing about the door.
    public mutating func locked(ranOut: Bool = true, at time: Double) {
        guard inWindow else { return }
        inWindow = false
        guard counts, ranOut, !openedInWindow else { return }
        unopenedInARow += 1
        lastUnopenedEnd = time
        if threshold > 0 && unopenedInARow >= threshold { jammed = true }
    }

    /// Unlock reasons where someone stands outside and pushes the door.
    static let personAtTheDoor: Set<String> = ["fingerprint", "pin", "grace"]
}
