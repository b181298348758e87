import ArgumentParsing
import NFCInput
import PrintableText
import TemplateStore

/// `fpmod card enroll NAME`: a MIFARE DESFire EV1 card made fpmod's secure card. The card work
/// is NFCInput's (`provisionSecure`), the key the store's; this checks, orders and prints.
///
/// Order: every input is checked (user, label, connection string, timeout) and the reader
/// opened before anything changes; the card is read and refused if it is not a DESFire card or
/// is in the store already; only then is the store's DESFire master key made (the first
/// enroll) and the intent written to the audit log; the card is written and the new key
/// confirmed by authenticating with it; the store commits last. There is no intent row to
/// reconcile: the card itself records how far it got. Interrupted
/// between the card write and the commit, the card carries fpmod's application with this
/// store's key for it, and running the enroll again finds it so (`alreadyKeyed`) and commits.
/// A card whose application has another key (another store's card) is refused, not re-keyed.
enum CardEnrollCommand {
    static func enroll(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        let name = try UserName(validating: try parsed.require("name"))
        let chosen = try parsed.string("label").map { text throws(NameError) in try CardLabel(validating: text) }
        let connection = try NFCConnection(parsed.string("device") ?? "pn532_uart:/dev/serial0:115200")
        let timeout = try parsed.duration("timeout") ?? .seconds(10)
        guard timeout > .zero else { throw CommandFailure(.usage, "--timeout must be longer than 0s.") }
        let store = try invocation.openStore()
        guard try store.user(named: name.text) != nil else { throw StoreError.unknownUser(name.text) }
        if let chosen, try store.cards(of: name.text).contains(where: { $0.label == chosen.text }) {
            throw StoreError.cardLabelTaken(user: name.text, label: chosen.text)
        }
        let deadline = ContinuousClock.now + timeout
        let reader = try NFCReader.open(connection.connstring, deadline: deadline)
        defer { reader.close() }
        invocation.progress("Hold the DESFire card on the reader (\(Printable.escaped(connection.connstring))), up to \(timeout), until this finishes.")
        guard let seen = try reader.read(until: deadline) else {
            throw CommandFailure(.tryLater, "No card on the reader within \(timeout): hold it flat on the antenna, within 2 cm, and try again.")
        }
        guard seen.kind == .desfire else { throw notDESFire(seen) }
        if let found = try store.card(matching: CardNumber(desfireUID: seen.uid)) {
            let (owner, label) = (Printable.escaped(found.card.user), Printable.escaped(found.card.label))
            throw CommandFailure(.dataError, "This card is enrolled already, as \(owner)'s \(label). To give it to someone else, delete it first: fpmod card delete \(owner) \(label)")
        }
        guard let masterKey = try store.desfireMasterKey(create: true) else {
            throw CommandFailure(.ioError, "the store could not keep a DESFire master key")
        }
        // The intent, in the audit log before the card is written: an enroll that stops between
        // the card and the store leaves this row and a card the next enroll finishes.
        try store.appendAudit(event: "card-enroll-started", user: name.text, detail: "DESFire card" + (chosen.map { " \($0.text)" } ?? "") + " by fpmod card enroll")
        // The card was deselected after reading: the provisioning selects it again by polling,
        // and writes only the card that was checked.
        let outcome = try reader.provisionSecure(until: ContinuousClock.now + .seconds(5), masterKey: masterKey, uid: seen.uid)
        let card: NFCCard
        switch outcome {
        case nil:
            throw CommandFailure(.tryLater, "The card left the reader (or another took its place) before fpmod could write it. Hold it still on the antenna and run the enroll again (nothing was written, or what was is finished by the next run).")
        case let .created(written), let .alreadyKeyed(written):
            card = written
        case let .notDESFire(other):
            throw notDESFire(other)
        case .piccKeyNotDefault:
            throw CommandFailure(.permission, "This card's PICC master key is not the factory key, so fpmod cannot add its application, and fpmod never formats a card. "
                                 + "If the card is yours and holds nothing you need, set its PICC master key back to the factory DES zero key (or format it) with the tool that set the key, then enroll it again.")
        case .keyedElsewhere:
            throw CommandFailure(.permission, "This card carries fpmod's application keyed by another fpmod store, so this store cannot authenticate it; fpmod does not re-key it. "
                                 + "Enroll it in the store that made it, or delete the application F54D01 from the card (with the card's PICC master key) and enroll it again.")
        }
        let label = try chosen ?? CardAdminCommand.freeLabel(in: store, user: name.text)
        let added = try store.addCard(CardNumber(desfireUID: card.uid), label: label, for: name, by: "fpmod card enroll")
        invocation.emit("Enrolled \(Printable.escaped(name.text))'s DESFire card \(Printable.escaped(added.label)): fpmod's application on it holds an AES key made for this card alone, "
                        + "and the door takes the card only after it proves that key. The store keeps a keyed hash of its UID, never the UID.",
                        json: CardAdminCommand.json(added))
        return .ok
    }

    static func notDESFire(_ card: NFCCard) -> CommandFailure {
        let what = card.kind == .desfire
            ? "This card answers like a DESFire (SAK 20) but libfreefare does not take it for a MIFARE DESFire (not an NXP UID, or another ATS)"
            : "This is a \(card.kind.rawValue) card, not a MIFARE DESFire EV1"
        return CommandFailure(.dataError, what + ": fpmod's secure cards need DESFire EV1 or later. "
                              + "A UID-only card can be added with fpmod card add NAME uid:HEX, but a UID can be cloned (docs/nfc.md).")
    }
}
