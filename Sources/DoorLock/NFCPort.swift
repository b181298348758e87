import Foundation
import NFCInput
import Posix
import Synchronization

/// The door's NFC reader inside the service: libnfc's calls block (a select is up to 300 ms, an
/// open on a silent port about 1.5 s), so the reader lives on a thread of its own, which opens
/// it, polls it, reopens it after it stopped answering, and posts what happened to the loop.
/// The `NFCReader` never leaves that thread. A UID goes to the loop only inside `.card`; no
/// other happening carries one.
final class NFCPort: Sendable {
    enum Happening: Sendable {
        /// The reader answered `nfc_open` and is polled.
        case ready
        /// A card was presented (a held card once; see `CardRepeatFilter`). In `uid` mode any
        /// card; in `desfire` mode one that proved its key.
        case card(NFCCard)
        /// `desfire` mode: a card that is no DESFire card (its UID proves nothing), or a DESFire
        /// card that failed fpmod's authentication.
        case refused(NFCCard, SecureRefusal)
        /// A reply was garbled (noise, a card or reader answering garbage): no card was read.
        case garbled(String)
        /// The reader stopped answering or failed; it is closed and opened again.
        case lost(String)
        /// The reader could not be opened; tried again after `retry`.
        case unavailable(String, retry: Duration)
    }

    enum SecureRefusal: Sendable, Equatable {
        case notDESFire
        case rejected(DESFireRejection)
        /// No DESFire card was ever enrolled in this store, so no card can prove a key.
        case noMasterKey
    }

    struct Settings: Sendable {
        /// The config section it was started with: a reload does not change a running reader.
        var section: LockConfig.NFCReaderSection
        var connstring: String { section.device }
        /// The store's DESFire master key (`desfire` mode); nil when no card was enrolled.
        var masterKey: [UInt8]?
        /// How long one `read` polls before the stop flag is looked at again.
        var readSlice: Duration = .milliseconds(500)
        /// Waits between tries to open a reader that is not there, doubling up to the maximum.
        var reopenInitial: Duration = .seconds(1)
        var reopenMaximum: Duration = .seconds(30)
        /// A held card is taken again only after it was out of sight this long.
        var sameCardQuietSeconds = 1.5
        /// This many garbled replies in a row: the link is bad, reopen rather than go on.
        var garbledInARowLimit = 3
    }

    let settings: Settings
    private let post: @Sendable (Happening) -> Void
    private let stopping = Mutex(false)
    /// Signalled by `stop` to cut a wait between opens short.
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(settings: Settings, post: @escaping @Sendable (Happening) -> Void) {
        self.settings = settings
        self.post = post
    }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "fpmod-nfc"
        thread.start()
    }

    /// Asks the thread to stop after the libnfc call in progress.
    func stop() {
        stopping.withLock { $0 = true }
        wake.signal()
    }

    /// Waits up to `timeout` for the thread to end; false when it was still in a libnfc call.
    @discardableResult
    func waitUntilFinished(timeout: Duration) -> Bool {
        guard finished.wait(timeout: .now() + timeout.timeInterval) == .success else { return false }
        finished.signal()
        return true
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    private func run() {
        var retry = settings.reopenInitial
        var lastProblem: String?
        while !isStopping {
            let reader: NFCReader
            do {
                reader = try NFCReader.open(settings.connstring, deadline: .now + .seconds(3))
            } catch {
                // Said once while it lasts; tried again, less and less often.
                let problem = "\(error)"
                if problem != lastProblem { post(.unavailable(problem, retry: retry)) }
                lastProblem = problem
                _ = wake.wait(timeout: .now() + retry.timeInterval)
                retry = min(retry * 2, settings.reopenMaximum)
                continue
            }
            retry = settings.reopenInitial
            lastProblem = nil
            post(.ready)
            poll(reader)
            reader.close()
        }
    }

    /// One slice of polling: a card and what it is in the configured mode.
    private func readOnce(_ reader: NFCReader) throws(NFCError) -> (NFCCard, Happening)? {
        let deadline = ContinuousClock.now + settings.readSlice
        switch settings.section.mode {
        case .uid:
            return try reader.read(until: deadline).map { ($0, .card($0)) }
        case .desfire:
            guard let masterKey = settings.masterKey else {
                return try reader.read(until: deadline).map { ($0, .refused($0, .noMasterKey)) }
            }
            switch try reader.readSecure(until: deadline, masterKey: masterKey) {
            case nil: return nil
            case .authenticated(let card)?: return (card, .card(card))
            case .plain(let card)?: return (card, .refused(card, .notDESFire))
            case .rejected(let card, let why)?: return (card, .refused(card, .rejected(why)))
            }
        }
    }

    /// Reads until the reader fails or the port stops.
    private func poll(_ reader: NFCReader) {
        var filter = CardRepeatFilter(quiet: settings.sameCardQuietSeconds)
        var garbledInARow = 0
        while !isStopping {
            do {
                if let (card, happening) = try readOnce(reader) {
                    garbledInARow = 0
                    if filter.admit(card.uid, at: Monotonic.seconds()) { post(happening) }
                }
            } catch .garbled(let call, let connection) {
                garbledInARow += 1
                let problem = "\(NFCError.garbled(call: call, connection: connection))"
                guard garbledInARow < settings.garbledInARowLimit else {
                    return post(.lost("\(garbledInARow) garbled replies in a row; the last: \(problem)"))
                }
                post(.garbled(problem))
            } catch {
                return post(.lost("\(error)"))
            }
        }
    }
}
