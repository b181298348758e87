import Administration
import DoorLock
import Foundation
import JSONValue
import TemplateStore

/// The demo's story, scene by scene. Each scene waits for the service's own events and fails
/// (naming the scene) when the lock does not behave as told, so the demo doubles as a smoke test.
struct DemoScript {
    /// The demo policy: production numbers except where waiting would bore the audience.
    // Long enough that a slow machine (qemu-user, a loaded CI) still types the PIN of scene 4
    // inside the lockout; scene 4 ends it, so nobody waits for it.
    static let lockoutSeconds = 10
    static let heldOpenSeconds = 2
    static let relayPulseSeconds = 3

    let stage: DemoStage
    var narrator: DemoNarrator
    private var shown = 0
    private var unlocks: [DemoLatencyTable.Row] = []

    init(stage: DemoStage, narrator: DemoNarrator) {
        self.stage = stage
        self.narrator = narrator
    }

    mutating func run() throws {
        narrator.say("""
            fpmod demo: a door lock with nothing real but the software.
              module  simulated Grow R307 on a pseudo-terminal (\(stage.simulator.devicePath)), datasheet timing:
                      capture \(DemoStage.profile.captureMilliseconds) ms, extract \(DemoStage.profile.extractMilliseconds) ms, bytes paced at 57600 baud
              GPIO    simulated Raspberry Pi 4 header (board preset '\(DemoStage.board)'): touch, relay, exit button, door contact
              store   a temporary directory, removed at the end: \(stage.directory)
            """)
        try enrollPeople()
        try aliceComesHome()
        try strangerIsLockedOut()
        try pinClearsLockout()
        try doorHeldOpen()
        try duressFinger()
        showLatencies()
    }

    // MARK: Scenes

    private mutating func enrollPeople() throws {
        narrator.scene("Enrolling alice (admin, with a PIN) and bob")
        // The service takes the port only after the administrator let go of it.
        let administrator = try stage.openAdministrator()
        do {
            defer { stage.closeAdministrator(administrator) }
            let identity = try administrator.pair()
            narrator.result("paired the \(identity.family) module (\(identity.capacity) slots): it now answers only to a random password and address, kept encrypted in the store")
            try enroll(administrator, user: "alice", displayName: "Alice Archer", label: "right-index", admin: true)
            try StoreAdministration.setPIN(stage.store, user: "alice", pin: "4826")
            narrator.result("alice's PIN 4826 is stored as a memory-hard hash")
            try enroll(administrator, user: "bob", displayName: "Bob Baker", label: "right-index", admin: false)
            narrator.say("  bob also enrolls his left index as a duress finger (fpmod enroll bob --finger left-index --duress)")
            try enroll(administrator, user: "bob", displayName: nil, label: "left-index", admin: false, duress: true)
        }

        let config = try stage.startService(configJSON: try configJSON())
        narrator.say("""
              the lock service starts (fpmod run's LockService) with a demo policy:
                relay pulse \(Int(config.relayPulseSeconds)) s; lockout after \(config.policy.fingerprintLockout.failuresPerTimedLockout) failed matches for \
            \(Int(config.policy.fingerprintLockout.timedLockoutSeconds)) s (30 s in production, shortened so you need not wait);
                held-open alarm after \(Int(config.policy.heldOpenSeconds)) s (30 s in production)
            """)
        shown = narrator.showEvents(stage.events, from: shown)
    }

    private mutating func aliceComesHome() throws {
        narrator.scene("Alice comes home")
        narrator.say("  alice touches the sensor…")
        let before = stage.eventCount
        try stage.touch("alice-right-index", expecting: "unlocked")
        let match = try stage.waitForEvent(named: "match", after: before)
        record("alice, scene 2", match)
        shown = narrator.showEvents(stage.events, from: shown)
        guard stage.relayIsOn else { throw DemoFailure("scene 2: alice matched but the relay is off") }
        narrator.result("match: alice (slot \(match.fields["slot"] ?? "?"), score \(match.fields["score"] ?? "?")) → relay pulse, door unlocked for \(Self.relayPulseSeconds) s")
        narrator.say("  she opens the door, walks in, and it shuts behind her…")
        let opened = stage.eventCount
        stage.drive(.doorContact, active: true)
        try stage.waitForEvent(named: "door-opened", after: opened)
        stage.drive(.doorContact, active: false)
        try stage.waitForEvent(named: "locked", after: opened)
        shown = narrator.showEvents(stage.events, from: shown)
        guard !stage.relayIsOn else { throw DemoFailure("scene 2: the door closed and locked but the relay is still on") }
        narrator.result("door closed → relay off, locked at once (no tailgating on the rest of the pulse)")
    }

    private mutating func strangerIsLockedOut() throws {
        narrator.scene("A stranger tries, until the lockout")
        let before = stage.eventCount
        for attempt in 1...5 {
            narrator.say("  try \(attempt): an unknown finger touches the sensor…")
            try stage.touch("stranger-right-thumb", expecting: "no-match")
            if attempt == 5 { try stage.waitForEvent(named: "lockout", after: before) }
            shown = narrator.showEvents(stage.events, from: shown)
        }
        let lockout = try stage.waitForEvent(named: "lockout", after: before)
        narrator.result("lockout: \(lockout.fields["failures"] ?? "5") failed matches → fingerprints refused for \(lockout.fields["seconds"] ?? "\(Self.lockoutSeconds)") s")
        narrator.say("  even alice's finger is refused now…")
        let refused = try stage.touch("alice-right-index", expecting: "lockout")
        shown = narrator.showEvents(stage.events, from: shown)
        guard !stage.relayIsOn else { throw DemoFailure("scene 3: the relay switched on during the lockout") }
        narrator.result("refused during the lockout (\(refused.fields["remaining"] ?? "?") s left); the relay stayed off")
    }

    private mutating func pinClearsLockout() throws {
        narrator.scene("Alice's PIN clears the lockout")
        narrator.say("  alice types her PIN on the keypad; the keypad sends 'pin alice 4826' to the control socket…")
        let before = stage.eventCount
        let reply = try stage.control("pin alice 4826")
        narrator.say("    reply: " + Self.text(reply))
        guard reply["ok"]?.boolValue == true else { throw DemoFailure("scene 4: the PIN was refused: \(Self.text(reply))") }
        try stage.waitForEvent(named: "lockout-cleared", after: before)
        shown = narrator.showEvents(stage.events, from: shown)
        let status = try stage.control("status")
        narrator.say("    status: fingerprintLockout=\(status["fingerprintLockout"]?.stringValue ?? "?") failures=\(status["failures"]?.intValue.map(String.init) ?? "?")")
        narrator.result("PIN cleared the lockout and opened the door; fingerprints work again")
    }

    private mutating func doorHeldOpen() throws {
        narrator.scene("The door is held open")
        narrator.say("  alice touches again to carry in the shopping, and props the door open…")
        let before = stage.eventCount
        try stage.touch("alice-right-index", expecting: "unlocked")
        record("alice, scene 5", try stage.waitForEvent(named: "match", after: before))
        stage.drive(.doorContact, active: true)
        let alarm = try stage.waitForEvent(named: "door-held-open", after: before)
        shown = narrator.showEvents(stage.events, from: shown)
        narrator.result("held-open alarm (\(alarm.name)): the door stood open for \(Self.heldOpenSeconds) s")
        narrator.say("  she closes it…")
        let closing = stage.eventCount
        stage.drive(.doorContact, active: false)
        try stage.waitForEvent(named: "door-held-open-cleared", after: closing)
        shown = narrator.showEvents(stage.events, from: shown)
        narrator.result("alarm cleared when the door closed")
    }

    private mutating func duressFinger() throws {
        narrator.scene("Bob, forced to open the door, uses his duress finger")
        narrator.say("  bob touches with his left index (enrolled with --duress)…")
        let before = stage.eventCount
        try stage.touch("bob-left-index", expecting: "unlocked")
        let match = try stage.waitForEvent(named: "match", after: before)
        try stage.waitForEvent(named: "duress", after: before)
        record("bob (duress), scene 6", match)
        shown = narrator.showEvents(stage.events, from: shown)
        guard !stage.events.dropFirst(before).contains(where: { $0.name == "duress" && $0.isPublic }) else {
            throw DemoFailure("scene 6: the duress event was published on the events socket")
        }
        narrator.say("  what the person forcing bob sees: the door opens as always (green LED, the same 'match' event)")
        narrator.say("  what the security desk sees:")
        let deskLog = stage.directory + "/security-desk.log"
        try stage.waitUntil("the on-duress hook to write \(deskLog)", timeout: .seconds(5)) {
            ((try? String(contentsOfFile: deskLog, encoding: .utf8)) ?? "").contains("DURESS")
        }
        for line in ((try? String(contentsOfFile: deskLog, encoding: .utf8)) ?? "").split(separator: "\n") {
            narrator.say("    pager (hooks.onDuress): \(line)")
        }
        if let row = try stage.store.auditEntries(limit: 50).last(where: { $0.event == "duress" }) {
            narrator.say("    audit log: \(row.event) user=\(row.user ?? "?") slot=\(row.slot.map(String.init) ?? "?") — \(row.detail ?? "")")
        }
        narrator.result("duress: the door opened for bob and a silent duress alarm reached the security desk only")
    }

    private mutating func showLatencies() {
        narrator.scene("Touch-to-relay times measured in this run")
        let templates = (try? stage.store.allFingers().count) ?? 3
        let limit = DemoLatencyTable.limit(profile: DemoStage.profile, baudRate: 57_600, templates: templates)
        narrator.say(DemoLatencyTable.render(unlocks, limit: limit, limitLabel: "module + wire limit"))
        narrator.say("""
              start: touch edge → GenImg sent; capture/extract/search: GenImg, Img2Tz, Search round trips;
              decide: store lookup + policy; relay: energising the relay line. The limit is the R307's datasheet
              times plus the replies' bytes at 57600 baud (\(templates) templates searched): what any driver would pay.
            """)
        narrator.result("latency table: \(unlocks.count) unlocks measured")
    }

    // MARK: Helpers

    private func enroll(_ administrator: Administrator, user: UserName, displayName: DisplayName?, label: FingerLabel, admin: Bool,
                        duress: Bool = false) throws {
        narrator.say("  \(user) enrolls \(label)\(admin ? " as an administrator" : "")\(duress ? " as a duress finger" : ""):")
        // The virtual finger touches the sensor once per capture, lifting in between.
        stage.simulator.touch("\(user)-\(label)", times: 2)
        let result = try administrator.enroll(user: user, displayName: displayName, label: label, captures: 2, admin: admin,
                                              duress: duress) { step in
            narrator.say("    " + step.description)
        }
        narrator.result("enroll-completed: \(user)'s \(label) in slot \(result.slot)")
    }

    private mutating func record(_ label: String, _ event: LockEvent) {
        if let timing = event.timing { unlocks.append(.init(label: label, timing: timing)) }
    }

    private func configJSON() throws -> String {
        let directory = stage.directory
        // Built in parts: one literal of this depth is too much for the type checker.
        let lockout: JSONValue = ["failuresPerTimedLockout": 5, "timedLockoutSeconds": JSONValue(Self.lockoutSeconds)]
        let policy: JSONValue = ["fingerprintLockout": lockout, "heldOpenSeconds": JSONValue(Self.heldOpenSeconds)]
        let duressHook = "echo \"DURESS user=$FPMOD_USER slot=$FPMOD_SLOT — send help quietly\" >> '\(directory)/security-desk.log'"
        let hooks: JSONValue = ["onDuress": .array(["/bin/sh", "-c", .string(duressHook)])]
        let config: JSONValue = [
            "board": .string(DemoStage.board),
            "relayPulseSeconds": JSONValue(Self.relayPulseSeconds),
            "policy": policy,
            "events": ["socket": .string(directory + "/events.sock")],
            "control": ["socket": .string(directory + "/control.sock")],
            "hooks": hooks,
        ]
        return config.encoded
    }

    private static func text(_ object: [String: JSONValue]) -> String { JSONValue.object(object).encoded }
}
