import AccessPolicy
import NFCInput
import Posix
import TemplateStore

/// An NFC reader at the door: its cards go to `presentCard` (the verify mode decides), as a
/// Wiegand reader's. The `nfc` event says the reader is `ready`, `lost` or `unavailable`, or that
/// a read was `rejected` as garbled: never a UID. A garbled read is no card and opens nothing.
extension LockRuntime {
    func startNFC() {
        guard let section = config.nfc else { return }
        var settings = NFCPort.Settings(section: section)
        if section.mode == .desfire {
            do { settings.masterKey = try store.desfireMasterKey(create: false) } catch {
                // Unreadable: no card can prove a key, so every card is refused (and said so).
                log("nfc: the store's DESFire master key cannot be read (\(error)); every card is refused")
            }
        }
        let port = NFCPort(settings: settings) { [front] happening in
            front.post(.nfc(happening))
        }
        port.start()
        nfc = port
        switch section.mode {
        case .uid:
            log("nfc: reader \(section.device), mode uid: a card's UID opens as its owner's credential. UIDs can be read and copied (docs/nfc.md)")
        case .desfire:
            log("nfc: reader \(section.device), mode desfire: only DESFire cards keyed by fpmod card enroll that prove their key"
                + (settings.masterKey == nil ? "; no card was enrolled in this store yet, so every card is refused until one is (stop the service, fpmod card enroll NAME)" : ""))
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
            case .uid: presentCard(CardNumber(uid: card.uid), via: "NFC reader", reader: .nfc)
            case .desfire: presentCard(CardNumber(desfireUID: card.uid), via: "NFC reader (DESFire, AES)", reader: .nfc)
            }
        case .refused(let card, let why):
            // Never looked up by its UID: a copy of a user's card must not be taken for it. It
            // counts toward the card lockout as an unknown card does (a run of copies is an attack).
            let reason: String
            switch why {
            case .notDESFire: reason = "not-secure"
            case .noMasterKey: reason = "no-enrolled-cards"
            case .rejected(.wrongKey): reason = "wrong-key"
            case .rejected(.noApplication): reason = "not-enrolled"
            }
            log("nfc: \(card) refused: " + (why == .notDESFire ? "not a DESFire card; in mode desfire a UID alone opens nothing" : "\(why)"))
            emit(LockEvent(name: "nfc", fields: ["result": "rejected", "reason": reason]))
            decide(.cardPresented(CardPresentation(user: nil, enabled: false, label: "\(card.kind.rawValue) card refused by the NFC reader (\(reason))")))
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
