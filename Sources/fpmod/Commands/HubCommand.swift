import AccessPolicy
import Administration
import ArgumentParsing
import ConsoleAuth
import ConsoleHTTP
import DoorLock
import Foundation
import HubServer
import HubStore
import JSONValue
import Posix
import PrintableText
import TemplateStore
import WebConsole

/// `fpmod hub …`: the fleet hub, whose truth is a PostgreSQL database (`HubStore`), and its
/// HTTPS API for doors (`HubServer`).
enum HubCommand {
    /// The hub's database: `--database`, else `FPMOD_HUB_DATABASE`, else the one the packaged
    /// hub's settings name (`/etc/default/fpmod-hub`, which `fpmod-hub.service` reads), so
    /// `sudo -u fpmod-hub fpmod hub add-door garage` on the hub's machine needs neither.
    static func database(_ invocation: Invocation) throws -> String {
        if let given = invocation.parsed.string("database") { return given }
        let path = invocation.environment["FPMOD_HUB_SETTINGS"] ?? HubSettingsFile.path
        if let database = HubSettingsFile.database(at: path) { return database }
        throw CommandFailure(.usage, "Name the hub's database: --database CONNINFO, FPMOD_HUB_DATABASE, or FPMOD_HUB_DATABASE in \(Printable.escaped(path)) (what fpmod-hub.service reads).")
    }

    /// `fpmod hub migrate --database CONNINFO`: brings the hub's database to this fpmod's
    /// schema, one migration per transaction; run again it changes nothing. A database a newer
    /// fpmod migrated is refused untouched.
    static func migrate(_ invocation: Invocation) throws -> ExitCode {
        let conninfo = try Self.database(invocation)
        let (from, to) = try HubStore.migrate(conninfo: conninfo)
        let text = from == to
            ? "The hub's database is at schema version \(to) already; nothing changed."
            : "The hub's database went from schema version \(from) to \(to)."
        invocation.emit(text, json: ["from": .int(Int64(from)), "to": .int(Int64(to))])
        return .ok
    }

    /// `fpmod hub add-door NAME`: a one-time join code for the door (24 hours), shown once.
    static func addDoor(_ invocation: Invocation) throws -> ExitCode {
        guard let name = invocation.positional(0) else { throw CommandFailure(.usage, "Name the door: fpmod hub add-door NAME.") }
        let store = try HubStore(conninfo: try Self.database(invocation))
        let code = try store.joinCode(forDoor: name)
        invocation.emit("""
            Join code for door \(Printable.escaped(name)) (works once, for \(HubStore.joinCodeLifetimeHours) hours): \(code)
            On the door: fpmod join https://HUB:8443 CODE, with the authority's SHA-256 fpmod hub serve printed (docs/fleet.md).
            """, json: ["door": .string(name), "code": .string(code), "validHours": .int(Int64(HubStore.joinCodeLifetimeHours))])
        return .ok
    }

    /// `fpmod hub doors`: every door, joined or waiting, revoked or not, and when it was last seen.
    static func doors(_ invocation: Invocation) throws -> ExitCode {
        let store = try HubStore(conninfo: try Self.database(invocation))
        let doors = try store.doors()
        let lines = doors.map { door in
            let seen = door.lastSeen.map { "last seen \(Date(timeIntervalSince1970: $0))" } ?? "never seen"
            return "\(Printable.escaped(door.name))  \(FleetListing.state(of: door)), \(seen), at revision \(door.lastRevision), \(Self.describeReader(door))"
        }
        invocation.emit(doors.isEmpty ? "No doors yet: fpmod hub add-door NAME." : lines.joined(separator: "\n"),
                        json: ["doors": .array(doors.map(FleetListing.json))])
        return .ok
    }

    /// "reader: a r30x module (768-byte templates)", as the door last said it.
    static func describeReader(_ door: HubDoor) -> String {
        door.readerDescription.map { "reader: " + Printable.escaped($0) } ?? "reader not known yet"
    }

    /// `fpmod hub revoke-door NAME`: the door's certificate refused from its next request on.
    static func revokeDoor(_ invocation: Invocation) throws -> ExitCode {
        guard let name = invocation.positional(0) else { throw CommandFailure(.usage, "Name the door: fpmod hub revoke-door NAME.") }
        let store = try HubStore(conninfo: try Self.database(invocation))
        guard try store.revokeDoor(named: name) else {
            throw CommandFailure(.usage, "No door \(Printable.escaped(name).debugDescription); `fpmod hub doors` lists them.")
        }
        invocation.emit("Door \(Printable.escaped(name)) is revoked: its certificate is refused from its next request on.",
                        json: ["door": .string(name), "revoked": true])
        return .ok
    }

    /// `fpmod hub add-user NAME [--display-name TEXT] [--admin]`: a user every door follows.
    static func addUser(_ invocation: Invocation) throws -> ExitCode {
        guard let name = invocation.positional(0) else { throw CommandFailure(.usage, "Name the user: fpmod hub add-user NAME.") }
        let store = try HubStore(conninfo: try Self.database(invocation))
        if try store.hasUser(named: name) {
            throw CommandFailure(.usage, "The hub has a user \(Printable.escaped(name).debugDescription) already; fpmod hub users lists them.")
        }
        let user = HubUser(name: name, displayName: invocation.parsed.string("display-name"), role: invocation.parsed.flag("admin") ? .admin : .user,
                           schedule: invocation.parsed.string("schedule"))
        let revision = try store.putUser(user)
        invocation.emit("""
            User \(Printable.escaped(name)) added at revision \(revision): every door has them at its next sync. \
            Enroll their finger at any door (fpmod enroll \(Printable.escaped(name)) there); it reaches the others with its kind of reader from the hub.
            """, json: ["user": .string(name), "revision": .int(revision)])
        return .ok
    }

    /// `fpmod hub set-user NAME --schedule NAME | --no-schedule`: the schedule they come in by, at every door.
    static func setUser(_ invocation: Invocation) throws -> ExitCode {
        guard let name = invocation.positional(0) else { throw CommandFailure(.usage, "Name the user: fpmod hub set-user NAME --schedule NAME (or --no-schedule).") }
        let schedule = invocation.parsed.string("schedule")
        guard (schedule != nil) != invocation.parsed.flag("no-schedule") else {
            throw CommandFailure(.usage, "Give one of --schedule NAME (a schedule the hub has) or --no-schedule.")
        }
        let store = try HubStore(conninfo: try Self.database(invocation))
        guard let revision = try store.setSchedule(ofUser: name, to: schedule) else {
            throw CommandFailure(.usage, "No user \(Printable.escaped(name).debugDescription) on the hub; fpmod hub users lists them.")
        }
        let has = schedule.map { "schedule \(Printable.escaped($0))" } ?? "no schedule of their own"
        invocation.emit("User \(Printable.escaped(name)) has \(has) at revision \(revision): every door has it at its next sync.",
                        json: ["user": .string(name), "schedule": schedule.map(JSONValue.string) ?? .null, "revision": .int(revision)])
        return .ok
    }

    /// `fpmod hub users`: the hub's users, the fingers and cards it holds for each, and for each
    /// finger the joined doors whose reader cannot use it, and why.
    static func users(_ invocation: Invocation) throws -> ExitCode {
        let store = try HubStore(conninfo: try Self.database(invocation))
        let users = try store.users()
        let doors = try FleetListing.workingDoors(store)
        var lines: [String] = [], listed: [JSONValue] = []
        for user in users {
            let fingers = user.fingers.isEmpty ? "no finger yet" : user.fingers.map { Printable.escaped($0) }.joined(separator: ", ")
            let cards = user.cards.isEmpty ? "" : "; cards " + user.cards.map { Printable.escaped($0) }.joined(separator: ", ")
            // Their validity, only when they have one, in UTC as fpmod hub user-validity reads it by default.
            let bounded = user.validFrom != nil || user.validUntil != nil || user.usesLeft != nil
            let validity = bounded ? "; " + ValidityBounds.describeUser(from: user.validFrom, until: user.validUntil, usesLeft: user.usesLeft, in: .utc) : ""
            lines.append("\(Printable.escaped(user.name))\(user.role == .admin ? " (admin)" : "")  \(fingers)\(cards)\(validity)")
            let reach = user.fingers.isEmpty ? [] : try FleetListing.reach(of: user.name, in: store, doors: doors)
            for finger in reach {
                for (door, why) in finger.notUsableAt {
                    lines.append("  \(Printable.escaped(finger.label)) (\(Printable.escaped(finger.family))) not at \(Printable.escaped(door)): \(why)")
                }
            }
            var entry = FleetListing.json(user, reach: reach)
            if case .object(var object) = entry {
                object["validFrom"] = user.validFrom.map { .int($0) } ?? .null
                object["validUntil"] = user.validUntil.map { .int($0) } ?? .null
                object["usesLeft"] = user.usesLeft.map { .int(Int64($0)) } ?? .null
                entry = .object(object)
            }
            listed.append(entry)
        }
        invocation.emit(users.isEmpty ? "No users yet: fpmod hub add-user NAME." : lines.joined(separator: "\n"), json: ["users": .array(listed)])
        return .ok
    }

    /// `fpmod hub remove-user NAME`: gone, with their fingers, from every door at its next sync.
    static func removeUser(_ invocation: Invocation) throws -> ExitCode {
        guard let name = invocation.positional(0) else { throw CommandFailure(.usage, "Name the user: fpmod hub remove-user NAME.") }
        let store = try HubStore(conninfo: try Self.database(invocation))
        guard let revision = try store.deleteUser(named: name) else {
            throw CommandFailure(.usage, "No user \(Printable.escaped(name).debugDescription) on the hub; fpmod hub users lists them.")
        }
        invocation.emit("User \(Printable.escaped(name)) removed at revision \(revision): every door drops them and their fingers at its next sync.",
                        json: ["user": .string(name), "revision": .int(revision)])
        return .ok
    }

    /// `fpmod hub add-card NAME NUMBER [--label LABEL] [--dir DIR]`: a card every door follows,
    /// kept as its number's hash under the fleet's card key (made from the key in the hub's
    /// directory), never the number.
    static func addCard(_ invocation: Invocation) throws -> ExitCode {
        guard let name = invocation.positional(0), let text = invocation.positional(1) else {
            throw CommandFailure(.usage, "Name the user and the card: fpmod hub add-card NAME 26:FACILITY:NUMBER (or uid:HEX).")
        }
        let number: CardNumber
        do { number = try CardNumber(parsing: text) } catch { throw CommandFailure(.usage, "\(error)") }
        let label: CardLabel
        do { label = try CardLabel(validating: invocation.parsed.string("label") ?? "card") } catch {
            throw CommandFailure(.usage, "--label: \(error)")
        }
        let directory = invocation.parsed.string("dir") ?? "/var/lib/fpmod-hub"
        let key: FleetTemplateKey
        do { key = try HubFiles.templateKey(directory: directory) } catch { throw CommandFailure(.config, "\(error)") }
        let store = try HubStore(conninfo: try Self.database(invocation))
        let put: Result<Int64, HubStoreError>
        do { put = .success(try store.putCard(HubCard(user: name, label: label.text, kind: number.kind, numberHash: key.cardHash(number)))) } catch {
            put = .failure(error)
        }
        let revision: Int64
        switch put {
        case .success(let done): revision = done
        case .failure(.unknownUser): throw CommandFailure(.usage, "No user \(Printable.escaped(name).debugDescription) on the hub; fpmod hub users lists them.")
        case .failure(.invalid(let problem)): throw CommandFailure(.usage, "The card was not added: \(problem).")
        case .failure(let error): throw error
        }
        invocation.emit("Card \(label.text) (\(number.kind.rawValue)) given to \(Printable.escaped(name)) at revision \(revision): every door has it at its next sync.",
                        json: ["user": .string(name), "label": .string(label.text), "kind": .string(number.kind.rawValue), "revision": .int(revision)])
        return .ok
    }

    /// `fpmod hub remove-card NAME LABEL`: gone from every door at its next sync.
    static func removeCard(_ invocation: Invocation) throws -> ExitCode {
        guard let name = invocation.positional(0), let label = invocation.positional(1) else {
            throw CommandFailure(.usage, "Name the user and the card's label: fpmod hub remove-card NAME LABEL.")
        }
        let store = try HubStore(conninfo: try Self.database(invocation))
        guard let revision = try store.deleteCard(user: name, label: label) else {
            throw CommandFailure(.usage, "The hub has no card \(Printable.escaped(label).debugDescription) of \(Printable.escaped(name).debugDescription); fpmod hub users lists them.")
        }
        invocation.emit("Card \(Printable.escaped(label)) of \(Printable.escaped(name)) removed at revision \(revision): every door drops it at its next sync.",
                        json: ["user": .string(name), "label": .string(label), "revision": .int(revision)])
        return .ok
    }

    /// `fpmod hub card-switch NAME LABEL on|off`: the card switched off (a badge left at home)
    /// or on again at every door, as `fpmod card disable|enable` does at one.
    static func cardSwitch(_ invocation: Invocation) throws -> ExitCode {
        guard let name = invocation.positional(0), let label = invocation.positional(1), let state = invocation.positional(2) else {
            throw CommandFailure(.usage, "Name the user, the card's label and on or off: fpmod hub card-switch NAME LABEL on|off.")
        }
        guard state == "on" || state == "off" else {
            throw CommandFailure(.usage, "A card is switched on or off, not \(Printable.escaped(state).debugDescription).")
        }
        let on = state == "on"
        let store = try HubStore(conninfo: try Self.database(invocation))
        let revision = try Self.changeCard(name, label) { () throws(HubStoreError) in try store.setCardState(user: name, label: label, enabled: on) }
        invocation.emit("Card \(Printable.escaped(label)) of \(Printable.escaped(name)) is \(state) at revision \(revision): every door follows at its next sync.",
                        json: ["user": .string(name), "label": .string(label), "enabled": .bool(on), "revision": .int(revision)])
        return .ok
    }

    /// `fpmod hub card-validity NAME LABEL [--valid-from WHEN] [--valid-until WHEN] [--time-zone
    /// ZONE]`: the card's own dates at every door, as `fpmod card validity` takes them (an option
    /// left out is no bound on that side). The hub has no door clock: WHEN is read in UTC unless
    /// --time-zone names the doors' zone.
    static func cardValidity(_ invocation: Invocation) throws -> ExitCode {
        guard let name = invocation.positional(0), let label = invocation.positional(1) else {
            throw CommandFailure(.usage, "Name the user and the card's label: fpmod hub card-validity NAME LABEL [--valid-from WHEN] [--valid-until WHEN].")
        }
        let zone = try Self.timeZone(invocation)
        let parsed = invocation.parsed
        let from = try parsed.string("valid-from").map { try AccessRuleCommands.readMoment($0, option: "--valid-from", zone: zone, endOfDay: false) }
        let until = try parsed.string("valid-until").map { try AccessRuleCommands.readMoment($0, option: "--valid-until", zone: zone, endOfDay: true) }
        if let from, let until, until <= from {
            throw CommandFailure(.usage, "--valid-until is not after --valid-from: the card could never open. Nothing was changed.")
        }
        let store = try HubStore(conninfo: try Self.database(invocation))
        let revision = try Self.changeCard(name, label) { () throws(HubStoreError) in
            try store.setCardState(user: name, label: label, validity: CardValidity(from: from, until: until))
        }
        let text = ValidityBounds.describeCard(from: from, until: until, in: zone)
        invocation.emit("Card \(Printable.escaped(label)) of \(Printable.escaped(name)): \(text), at revision \(revision); every door follows at its next sync.",
                        json: ["user": .string(name), "label": .string(label), "validFrom": from.map { .int($0) } ?? .null,
                               "validUntil": until.map { .int($0) } ?? .null, "timeZone": .string(zone.name), "revision": .int(revision)])
        return .ok
    }

    /// The zone a hub command reads WHEN in: --time-zone's, else UTC (the hub has no door clock).
    static func timeZone(_ invocation: Invocation) throws -> TimeZoneRules {
        guard let zoneName = invocation.parsed.string("time-zone") else { return .utc }
        do { return try TimeZoneDatabase.load(zoneName) } catch {
            throw CommandFailure(.usage, "--time-zone \(Printable.escaped(zoneName).debugDescription) is not a time zone this machine knows (such as Europe/Berlin, or UTC).")
        }
    }

    /// A change of a card the hub has: its revision, or a usage error naming `fpmod hub users`.
    private static func changeCard(_ name: String, _ label: String, _ change: () throws(HubStoreError) -> Int64?) throws -> Int64 {
        let revision: Int64?
        // One catch-all clause: Swift 6.0.3's SIL verifier crashes on a typed catch that is not exhaustive.
        do { revision = try change() } catch {
            if case .invalid(let problem) = error { throw CommandFailure(.usage, "The card was not changed: \(Printable.escaped(problem)).") }
            throw error
        }
        guard let revision else {
            throw CommandFailure(.usage, "The hub has no card \(Printable.escaped(label).debugDescription) of \(Printable.escaped(name).debugDescription); fpmod hub users lists them.")
        }
        return revision
    }

    /// `fpmod hub add-schedule NAME TEXT`: a weekly schedule every door follows.
    static func addSchedule(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name"), text = try invocation.parsed.require("text")
        let store = try HubStore(conninfo: try Self.database(invocation))
        let revision = try store.putSchedule(name: name, text: text)
        invocation.emit("Schedule \(Printable.escaped(name)) is \(Printable.escaped(text)) at revision \(revision), on each door's clock.",
                        json: ["schedule": .string(name), "revision": .int(revision)])
        return .ok
    }

    static func removeSchedule(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        let store = try HubStore(conninfo: try Self.database(invocation))
        guard let revision = try store.deleteSchedule(named: name) else {
            throw CommandFailure(.usage, "No schedule \(Printable.escaped(name).debugDescription) on the hub.")
        }
        invocation.emit("Schedule \(Printable.escaped(name)) removed at revision \(revision).", json: ["schedule": .string(name), "revision": .int(revision)])
        return .ok
    }

    /// `fpmod hub add-holiday NAME …`: as `fpmod holiday add` takes one, for every door.
    static func addHoliday(_ invocation: Invocation) throws -> ExitCode {
        let (name, first, last, yearly, hours) = try AccessRuleCommands.holidayRequest(invocation.parsed)
        let store = try HubStore(conninfo: try Self.database(invocation))
        let revision = try store.putHoliday(name: name.text, first: first, last: last, yearly: yearly, hours: hours?.text)
        let described = AccessAdministration.describe(first: first, last: last, yearly: yearly, hours: hours?.text)
        invocation.emit("Holiday \(name): \(described), at revision \(revision); every door has it at its next sync.",
                        json: ["holiday": .string(name.text), "revision": .int(revision)])
        return .ok
    }

    static func removeHoliday(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        let store = try HubStore(conninfo: try Self.database(invocation))
        guard let revision = try store.deleteHoliday(named: name) else {
            throw CommandFailure(.usage, "No holiday \(Printable.escaped(name).debugDescription) on the hub.")
        }
        invocation.emit("Holiday \(Printable.escaped(name)) removed at revision \(revision).", json: ["holiday": .string(name), "revision": .int(revision)])
        return .ok
    }

    /// `fpmod hub door-mode DOOR MODE`: that door's mode, from the hub.
    static func doorMode(_ invocation: Invocation) throws -> ExitCode {
        let door = try invocation.parsed.require("door"), modeText = try invocation.parsed.require("mode")
        guard let mode = DoorMode(rawValue: modeText) else {
            throw CommandFailure(.usage, "A door mode is one of \(DoorMode.allCases.map(\.rawValue).joined(separator: ", ")), not \(Printable.escaped(modeText).debugDescription).")
        }
        let store = try HubStore(conninfo: try Self.database(invocation))
        let revision = try store.setDoorMode(door: door, mode: mode)
        invocation.emit("Door \(Printable.escaped(door)) is set to \(mode.rawValue) at revision \(revision); its service puts it into effect at its next sync.",
                        json: ["door": .string(door), "mode": .string(mode.rawValue), "revision": .int(revision)])
        return .ok
    }

    /// `fpmod hub console-setup-code [--dir DIR]`: the one-time code that makes the fleet
    /// console's first admin (it has no default password).
    static func consoleSetupCode(_ invocation: Invocation) throws -> ExitCode {
        let directory = invocation.parsed.string("dir") ?? "/var/lib/fpmod-hub"
        guard FileManager.default.fileExists(atPath: directory + "/authority.pem") else {
            throw CommandFailure(.config, "\(Printable.escaped(directory)) holds no hub (no authority.pem): start fpmod hub serve --dir \(Printable.escaped(directory)) once first, or give the --dir it uses.")
        }
        let setup = SetupCode(store: try FleetConsoleRoutes.accountStore(directory: directory))
        guard try setup.needed() else {
            throw CommandFailure(.denied, "The fleet console is set up already (it has accounts); sign in at /fleet, or have an admin add an account there.")
        }
        let code = try setup.issue()
        invocation.emit("""
            Fleet console setup code (works once, for 24 hours): \(code)
            Open https://HUB:8443/fleet (the address fpmod hub serve printed) and type it with the first admin's name and password.
            """, json: ["code": .string(code), "validHours": 24])
        return .ok
    }

    /// `fpmod hub serve`: the hub's HTTPS API for doors until SIGTERM or SIGINT.
    static func serve(_ invocation: Invocation) throws -> ExitCode {
        let signals = try SignalWatcher(signals: [SIGTERM, SIGINT])
        let conninfo = try Self.database(invocation)
        let listen = invocation.parsed.string("listen") ?? "0.0.0.0:8443"
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65_535).contains(port) else {
            throw CommandFailure(.usage, "--listen is ADDRESS:PORT, e.g. 0.0.0.0:8443, not \(Printable.escaped(listen).debugDescription).")
        }
        let names = (invocation.parsed.string("names") ?? "localhost,127.0.0.1").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        let addresses = names.filter { IPAddress.bytes(of: $0) != nil }
        let hostNames = names.filter { !addresses.contains($0) }
        let directory = invocation.parsed.string("dir") ?? "/var/lib/fpmod-hub"
        let connectionsText = invocation.parsed.string("connections") ?? "4"
        guard let connections = Int(connectionsText), (1...64).contains(connections) else {
            throw CommandFailure(.usage, "--connections is 1 to 64, not \(Printable.escaped(connectionsText).debugDescription).")
        }
        let store = try HubStore(conninfo: conninfo, connections: connections)
        let files: HubFiles
        do { files = try HubFiles.load(directory: directory, hostNames: hostNames, ipAddresses: addresses) } catch {
            throw CommandFailure(.config, "The hub's files in \(directory): \(error)")
        }
        var configuration = HTTPServerConfiguration()
        configuration.bindAddress = String(listen[..<colon])
        configuration.port = port
        configuration.tls = (files.serverCertificatePEM, files.serverKeyPEM)
        configuration.clientAuthorityPEM = files.authority.certificatePEM
        // A door back from a week offline uploads its events a thousand at a time.
        configuration.maxBodyBytes = 4 << 20
        configuration.log = { message in StandardStreams.writeError(message + "\n") }
        let listener = try HubChangeListener(conninfo: conninfo)
        defer { listener.stop() }
        // Doors wait on long polls, a thread each, and many share one address behind a router.
        configuration.maxConnections = 1_024
        configuration.maxConnectionsPerAddress = 1_024
        let handler = HubHandler(store: store, authority: files.authority, listener: listener, templateKey: files.templateKey) { message in
            StandardStreams.writeError(message + "\n")
        }
        let consoleStore: TemplateStore
        do { consoleStore = try FleetConsoleRoutes.accountStore(directory: directory) } catch {
            throw CommandFailure(.config, "The fleet console's store in \(directory): \(error)")
        }
        let site = HubSite(doors: handler, console: FleetConsoleRoutes(hub: store, accounts: consoleStore, authorityFingerprint: files.authorityFingerprint, templateKey: files.templateKey))
        let server: HTTPServer
        do { server = try HTTPServer(configuration: configuration, handler: site) } catch {
            throw CommandFailure(.unavailable, "\(error)")
        }
        defer { server.stop() }
        invocation.progress("fpmod hub: https://\(configuration.bindAddress):\(server.port)/ for \(names.joined(separator: ", ")); "
            + "fleet authority SHA-256 \(files.authorityFingerprint)")
        if (try? SetupCode(store: consoleStore).needed()) == true {
            invocation.progress("The fleet console (/fleet) has no account yet: make its first admin with fpmod hub console-setup-code --dir \(directory).")
        }
        _ = signals.waitForAny()
        return .ok
    }
}
