import Foundation
import AccessPolicy
import ArgumentParsing
import JSONValue
import PrintableText
import TemplateStore

/// `fpmod card add|list|enable|disable|delete` and `fpmod mode`: cards as credentials and a
/// user's own verify mode, in the store (the running service reads them at each card). Every
/// change is audited by the store in the same transaction; numbers are kept only as keyed hashes.
enum CardAdminCommand {
    static func add(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        let name = try UserName(validating: try parsed.require("name"))
        let number = try CardNumber(parsing: try parsed.require("number"))
        let chosen = try parsed.string("label").map { text throws(NameError) in try CardLabel(validating: text) }
        let store = try invocation.openStore()
        guard try store.user(named: name.text) != nil else { throw StoreError.unknownUser(name.text) }
        let label = try chosen ?? freeLabel(in: store, user: name.text)
        let card = try store.addCard(number, label: label, for: name, by: "fpmod card add")
        invocation.emit("Added \(Printable.escaped(name.text))'s \(kindWords(card.kind)) \(Printable.escaped(card.label)). "
                        + "The store keeps a keyed hash of its number, never the number."
                        + (card.kind == .nfcUID ? " A UID alone can be cloned: see docs/nfc.md for the secure cards." : ""),
                        json: json(card))
        return .ok
    }

    static func list(_ invocation: Invocation) throws -> ExitCode {
        let store = try invocation.openStore()
        let cards = try store.cards(of: invocation.parsed.positional(0))
        if invocation.json {
            JSONOutput.print(["cards": .array(cards.map(json))])
            return .ok
        }
        if cards.isEmpty {
            StandardStreams.writeOutput("No cards. Add one with: fpmod card add NAME NUMBER\n")
            return .ok
        }
        let zone = invocation.doorTimeZone
        for card in cards {
            StandardStreams.writeOutput("\(Printable.escaped(card.user))  \(Printable.escaped(card.label))  \(kindWords(card.kind))"
                                        + (card.enabled ? "" : "  (switched off)") + validityText(card, zone) + "\n")
        }
        return .ok
    }

    static func enable(_ invocation: Invocation) throws -> ExitCode { try switchCard(invocation, on: true) }
    static func disable(_ invocation: Invocation) throws -> ExitCode { try switchCard(invocation, on: false) }

    static func delete(_ invocation: Invocation) throws -> ExitCode {
        let (name, label) = (try invocation.parsed.require("name"), try invocation.parsed.require("label"))
        let store = try invocation.openStore()
        let toHub = try store.deleteCard(user: name, label: label, by: "fpmod card delete")
        invocation.emit("Deleted \(Printable.escaped(name))'s card \(Printable.escaped(label)).\(toHub ? Self.fleetFollows : "")",
                        json: ["user": .string(name), "label": .string(label), "deleted": true, "toHub": .bool(toHub)])
        return .ok
    }

    /// `fpmod card panel NAME NUMBER|none`: what the service sends an access panel for NAME
    /// after a grant (config `wiegandOut`).
    static func panel(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        let text = try invocation.parsed.require("number")
        let number: CardNumber? = text == "none" ? nil : try CardNumber(parsing: text)
        if let number, number.kind != .wiegand {
            throw CommandFailure(.usage, "a panel is sent a Wiegand card: give 26:FACILITY:NUMBER or 34:FACILITY:NUMBER, or none")
        }
        let store = try invocation.openStore()
        try store.setPanelCard(number, for: name, by: "fpmod card panel")
        invocation.emit(number == nil ? "\(Printable.escaped(name)) has no panel card now: nothing is sent to the panel for them."
                            : "After a grant, fpmod sends the panel \(Printable.escaped(name))'s card (kept sealed in the store).",
                        json: ["user": .string(name), "panelCard": .bool(number != nil)])
        return .ok
    }

    /// `fpmod mode NAME MODE`: the user's own verify mode; `door` goes back to the door's.
    static func mode(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        let text = try invocation.parsed.require("mode")
        let mode: VerifyMode?
        if text == "door" {
            mode = nil
        } else if let chosen = VerifyMode(rawValue: text) {
            mode = chosen
        } else {
            throw UsageError(.invalidValue(subject: "<mode>", value: text,
                                           expected: VerifyMode.allCases.map(\.rawValue).joined(separator: ", ") + ", or door (the door's policy.verifyMode)"),
                             programName: invocation.parsed.programName, commandPath: invocation.parsed.path)
        }
        let store = try invocation.openStore()
        try store.setVerifyMode(mode?.rawValue, for: name, by: "fpmod mode")
        invocation.emit(mode.map { "\(Printable.escaped(name)) now opens with \($0.rawValue): \($0.instructions)." }
                            ?? "\(Printable.escaped(name)) now opens as the door's policy.verifyMode says.",
                        json: ["user": .string(name), "verifyMode": mode.map { .string($0.rawValue) } ?? .null])
        return .ok
    }

    private static func switchCard(_ invocation: Invocation, on: Bool) throws -> ExitCode {
        let (name, label) = (try invocation.parsed.require("name"), try invocation.parsed.require("label"))
        let store = try invocation.openStore()
        let toHub = try store.setCardEnabled(on, user: name, label: label, by: "fpmod card \(on ? "enable" : "disable")")
        invocation.emit("\(Printable.escaped(name))'s card \(Printable.escaped(label)) is now \(on ? "on" : "off").\(toHub ? Self.fleetFollows : "")",
                        json: ["user": .string(name), "label": .string(label), "enabled": .bool(on), "toHub": .bool(toHub)])
        return .ok
    }

    /// Said after a change to a card the fleet's hub has: it goes up, and every door follows.
    static let fleetFollows = " The fleet's hub has this card: every door follows at this door's next sync."

    /// "card", then "card-2", "card-3"…: the first label the user has not used.
    static func freeLabel(in store: TemplateStore, user: String) throws -> CardLabel {
        try store.freeCardLabel(for: user)
    }

    static func kindWords(_ kind: CardNumber.Kind) -> String {
        switch kind {
        case .wiegand: "Wiegand card"
        case .nfcUID: "NFC card (UID)"
        case .desfire: "DESFire card (AES)"
        }
    }

    static func json(_ card: Card) -> JSONValue {
        var object: [String: JSONValue] = ["user": .string(card.user), "label": .string(card.label), "kind": .string(card.kind.rawValue),
                                           "enabled": .bool(card.enabled)]
        if let from = card.validFrom { object["validFrom"] = .int(from) }
        if let until = card.validUntil { object["validUntil"] = .int(until) }
        return .object(object)
    }

    /// `  valid until 2026-12-07 00:00 Europe/Berlin (expired)` for a card with dates of its own.
    static func validityText(_ card: Card, _ zone: TimeZoneRules) -> String {
        let described = ValidityBounds.describe(from: card.validFrom, until: card.validUntil, in: zone)
        guard !described.isEmpty else { return "" }
        let now = Int64(Date().timeIntervalSince1970)
        return "  " + described + (card.isValid(atUTC: now) ? "" : card.validUntil.map { now >= $0 } == true ? " (expired)" : " (not yet valid)")
    }

    /// `fpmod card validity NAME LABEL [--valid-from WHEN] [--valid-until WHEN]`: the card's own
    /// dates (a visitor's badge until Sunday); an option left out is no bound on that side.
    static func validity(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        let name = try parsed.require("name"), label = try parsed.require("label")
        let zone = invocation.doorTimeZone
        let from = try parsed.string("valid-from").map { try AccessRuleCommands.readMoment($0, option: "--valid-from", zone: zone, endOfDay: false) }
        let until = try parsed.string("valid-until").map { try AccessRuleCommands.readMoment($0, option: "--valid-until", zone: zone, endOfDay: true) }
        let text = ValidityBounds.describeCard(from: from, until: until, in: zone)
        let toHub = try invocation.openStore().setCardValidity(user: name, label: label, from: from, until: until, described: text,
                                                               by: "fpmod card validity")
        invocation.emit("\(Printable.escaped(name))'s card \(Printable.escaped(label)): \(text).\(toHub ? Self.fleetFollows : "")",
                        json: ["user": .string(name), "label": .string(label), "validFrom": from.map { .int($0) } ?? .null,
                               "validUntil": until.map { .int($0) } ?? .null, "toHub": .bool(toHub)])
        return .ok
    }
}
