import Foundation
import Keypad
import KeypadInput
import Posix
import PrintableText

/// The door's keypad inside the service: the configured device, found when it is there (also
/// when it is plugged in later: the loop polls a `DirectoryWatch` until then), read from the
/// loop's own poll (no thread of its own), its keys turned into entries. What an entry means is
/// the runtime's: a submitted one goes to the PIN check like `pin PIN` on the control socket.
/// No key and no entry is ever logged.
final class KeypadPort {
    enum Happening {
        /// A finished entry: check it, then wipe it. `submittedAt`: the kernel's time of the
        /// submit key (CLOCK_MONOTONIC seconds), for the decision's latency.
        case entry(KeypadSecret, submittedAt: Double)
        /// Too short or too long to be a PIN: refused at once, not a guess.
        case refused(KeypadEntry.Rejection)
        /// For the log: the keypad came, went or could not be used.
        case note(String)
    }

    let spec: String
    let settings: KeypadEntry.Settings
    private var keypad: EvdevKeypad?
    private var watch: DirectoryWatch?
    private var entry: KeypadEntry
    /// The last problem logged, so a keypad that stays away is said once, not at every wake.
    private var lastProblem: String?

    init(spec: String, settings: KeypadEntry.Settings) {
        self.spec = spec
        self.settings = settings
        entry = KeypadEntry(settings)
    }

    /// What the loop polls: the keypad, or while it is away the folder its node appears in.
    var pollRequest: (FileDescriptor, PollEvents)? {
        if let keypad { return (keypad.fileDescriptor, .readable) }
        return watch.map { ($0.fileDescriptor, .readable) }
    }

    /// When the entry in progress is due to be dropped.
    var nextWake: ContinuousClock.Instant? {
        entry.deadline.map { .now + .milliseconds(Int64(max(0, $0 - Monotonic.seconds()) * 1000) + 1) }
    }

    /// Opens the keypad if it is there; otherwise watches for it. The watch is made before the
    /// look, so a device that appears in between still wakes the loop.
    func connect() -> [Happening] {
        let newWatch = try? DirectoryWatch(path: KeypadDevices.watchedFolder(for: spec))
        do {
            let path = try KeypadDevices.resolve(spec)
            let opened = try EvdevKeypad(path: path)
            keypad = opened
            watch = nil
            lastProblem = nil
            return [.note("keypad: \(Printable.escaped(opened.name)) (\(path)) grabbed")]
        } catch {
            keypad = nil
            watch = newWatch
            return [noteProblem("\(error)")]
        }
    }

    /// Called when the polled descriptor is ready.
    func service() -> [Happening] {
        guard let keypad else {
            _ = try? watch?.waitForChange(deadline: .now)
            return connect()
        }
        let readings: [EvdevKeypad.Reading]
        do {
            readings = try keypad.read(until: .now)
        } catch {
            self.keypad = nil
            _ = entry.press(.clear, at: Monotonic.seconds())
            return [noteProblem("\(error)")] + connect()
        }
        var happenings: [Happening] = []
        for reading in readings {
            switch reading {
            case .eventsLost:
                // What was typed is not known: drop it, as if cleared.
                if entry.isEntering { _ = entry.press(.clear, at: Monotonic.seconds()) }
            case .pressed(let key, let time):
                switch entry.press(key, at: time) {
                case .submitted(let secret): happenings.append(.entry(secret, submittedAt: time))
                case .rejected(let rejection): happenings.append(.refused(rejection))
                default: break
                }
            }
        }
        return happenings
    }

    /// Drops an entry whose pause has passed.
    func expire() {
        _ = entry.expire(at: Monotonic.seconds())
    }

    /// A problem for the log, once while it lasts.
    private func noteProblem(_ problem: String) -> Happening {
        defer { lastProblem = problem }
        return .note(problem == lastProblem ? "" : "keypad: \(problem) Waiting for it.")
    }

}
