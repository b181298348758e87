import Keypad
import Posix
import TemplateStore
import Wiegand
import WiegandInput

/// The door's Wiegand reader inside the service: its two lines on the loop's own poll (no
/// thread), frames decoded into cards (as `CardNumber`s, for the store's lookup) and the keys of
/// its keypad into PIN entries, as a USB keypad's are. No number and no key is ever logged.
final class WiegandPort {
    enum Happening {
        case card(CardNumber, format: WiegandFormat)
        /// A finished PIN typed on the reader's keypad: check it, then wipe it.
        case entry(KeypadSecret)
        /// Too short or too long to be a PIN: refused at once, not a guess.
        case refused(KeypadEntry.Rejection)
        /// A frame that is no credential (lost bit, bad parity, noise), with why.
        case rejected(WiegandRejection)
        /// The lines could not be read any more.
        case failed(String)
    }

    private let listener: WiegandListener
    private var entry: KeypadEntry

    init(listener: WiegandListener, settings: KeypadEntry.Settings) {
        self.listener = listener
        entry = KeypadEntry(settings)
    }

    var pollRequests: [(FileDescriptor, PollEvents)] { listener.pollRequests }

    /// The next of: a held edge due, a frame's gap ending, a half-typed PIN's pause ending.
    var nextWake: ContinuousClock.Instant? {
        let pause = entry.deadline.map { ContinuousClock.now + .milliseconds(Int64(max(0, $0 - Monotonic.seconds()) * 1000) + 1) }
        return [listener.nextWake, pause].compactMap { $0 }.min()
    }

    var isDue: Bool { nextWake.map { $0 <= .now } ?? false }

    func service(d0Ready: Bool, d1Ready: Bool) -> [Happening] {
        _ = entry.expire(at: Monotonic.seconds())
        let events: [WiegandEvent]
        do { events = try listener.service(d0Ready: d0Ready, d1Ready: d1Ready) } catch {
            return [.failed("\(error)")]
        }
        var happenings: [Happening] = []
        for event in events {
            switch event {
            case .card(let format, let facility, let number, _):
                // A card while a PIN is half typed: the digits were not meant for it.
                if entry.isEntering { _ = entry.press(.clear, at: Monotonic.seconds()) }
                happenings.append(.card(CardNumber(wiegandBits: format.bitCount, facility: facility, number: number), format: format))
            case .key(let key, _):
                let pressed: KeypadKey = switch key {
                case .digit(let digit): .digit(digit)
                case .star: .clear
                case .hash: .submit
                }
                switch entry.press(pressed, at: Monotonic.seconds()) {
                case .submitted(let secret): happenings.append(.entry(secret))
                case .rejected(let rejection): happenings.append(.refused(rejection))
                default: break
                }
            case .rejected(let reason):
                happenings.append(.rejected(reason))
            }
        }
        return happenings
    }
}
