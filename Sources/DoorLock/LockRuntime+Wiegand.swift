import AccessPolicy
import Posix
import Wiegand
import WiegandInput

/// A Wiegand reader at the door: its cards go to `presentCard` (the verify mode decides), the
/// PINs typed on its keypad to the same check as a USB keypad's. A frame that is no credential
/// never reaches the policy: the `wiegand` event says it was refused and why (no number), the
/// LED and buzzer say no.
extension LockRuntime {
    func startWiegand() {
        guard let section = config.wiegand else { return }
        do {
            let timing = try section.timing
            let settings = try section.entrySettings
            func offset(_ line: String, _ role: String) throws(WiegandListenerError) -> Int {
                guard let found = chip.lineOffset(spec: line) else { throw .noSuchName(line, role: role, chip: chip.name) }
                return found
            }
            let listener = try WiegandListener(chip: chip, d0: try offset(section.d0, "D0"), d1: try offset(section.d1, "D1"),
                                               timing: timing, consumer: "fpmod-wiegand")
            wiegand = WiegandPort(listener: listener, settings: settings)
            log("wiegand: reader on D0 \(section.d0), D1 \(section.d1)")
        } catch {
            log("wiegand: not used: \(error)")
        }
    }

    func handleWiegand(d0Ready: Bool, d1Ready: Bool) {
        guard let wiegand else { return }
        for happening in wiegand.service(d0Ready: d0Ready, d1Ready: d1Ready) {
            switch happening {
            case .card(let number, let format):
                presentCard(number, via: "Wiegand reader (\(format))", reader: .wiegand)
            case .entry(var secret):
                // The frame's end was just seen: the decision is timed from here.
                offerKeypadPIN(secret.reveal(), submittedAt: Monotonic.seconds())
                secret.wipe()
            case .refused:
                keypadFeedback("wrong", reason: nil)
                showLED(.deny, revert: true)
                sound(.deny)
            case .rejected(let reason):
                emit(LockEvent(name: "wiegand", fields: ["result": "rejected", "reason": Self.wiegandReasonName(reason)]))
                log("wiegand: frame refused: \(reason)")
                showLED(.deny, revert: true)
                sound(.deny)
            case .failed(let problem):
                log("wiegand: reading the lines failed (\(problem)); the reader is not used until fpmod restarts")
                self.wiegand = nil
                return
            }
        }
    }

    /// A short name for the event (the full reason goes to the log).
    static func wiegandReasonName(_ reason: WiegandRejection) -> String {
        switch reason {
        case .badParity: "bad-parity"
        case .unsupportedLength: "length"
        case .noise: "noise"
        case .unknownKey, .badKeyComplement: "bad-key"
        case .tooFast, .bothLines: "too-fast"
        case .stalled: "stalled"
        case .overlong: "overlong"
        case .outOfOrder: "out-of-order"
        }
    }
}
