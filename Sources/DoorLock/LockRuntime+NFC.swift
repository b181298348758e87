import NFCInput
import Posix
import TemplateStore

/// An NFC reader at the door: its cards go to `presentCard` (the verify mode decides), as a
/// Wiegand reader's. The `nfc` event says the reader is `ready`, `lost` or `unavailable`, or that
/// a read was `rejected` as garbled: never a UID. A garbled read is no card and opens nothing.
extension LockRuntime {
    func startNFC() {
        guard let section = config.nfc else { return }
        let port = NFCPort(settings: .init(section: section)) { [front] happening in
            front.post(.nfc(happening))
        }
        port.start()
        nfc = port
        switch section.mode {
        case .uid:
            log("nfc: reader \(section.device), mode uid: a card's UID opens as its owner's credential. UIDs can be read and copied (docs/nfc.md)")
        }
    }

    func handleNFC(_ happening: NFCPort.Happening) {
        guard let section = nfc?.settings.section else { return }
        switch happening {
        case .ready:
            log("nfc: reader \(section.device) answered; polling for cards")
            emit(LockEvent(name: "nfc", fields: ["result": "ready"]))
        case .card(let card):
            switch section.mode {
            case .uid: presentCard(CardNumber(uid: card.uid), via: "NFC reader")
            }
        case .garbled(let problem):
            log("nfc: a read was refused: \(problem)")
            emit(LockEvent(name: "nfc", fields: ["result": "rejected", "reason": "garbled"]))
            showLED(.deny, revert: true)
            sound(.deny)
        case .lost(let problem):
            log("nfc: \(problem); opening the reader again")
            emit(LockEvent(name: "nfc", fields: ["result": "lost"]))
        case .unavailable(let problem, let retry):
            log("nfc: not available: \(problem). Trying again in \(retry), then less often, until it answers")
            emit(LockEvent(name: "nfc", fields: ["result": "unavailable"]))
        }
    }
}
