import DoorLock
import Foundation
import Synchronization
import Testing

/// `privacy.identity`: the config key, the masking of events and free text, and two of the
/// surfaces on a running lock (the event socket, the service's log lines). MQTT is in
/// HomeAssistantRemoteTests, `fpmod run`'s journal lines in PrivacyRunTests.
struct IdentityPrivacyTests {
    func privacy(_ json: String) throws(LockConfigError) -> LockConfig.Privacy {
        try LockConfig.parse(Data(json.utf8)).privacy
    }

    @Test func theDefaultsMaskWhatOthersReadAndKeepTheLocalSocketFull() throws {
        let defaults = try privacy("{}")
        #expect(defaults.log == .masked)
        #expect(defaults.mqtt == .masked)
        #expect(defaults.eventSocket == .full)
        #expect(try privacy(#"{"privacy": {}}"#) == defaults)
    }

    @Test func identitySetsEverySurfaceAndEachKeyOverridesOne() throws {
        let all = try privacy(#"{"privacy": {"identity": "none"}}"#)
        #expect(all == LockConfig.Privacy(all: .none))
        let mixed = try privacy(#"{"privacy": {"identity": "masked", "eventSocket": "full"}}"#)
        #expect(mixed.log == .masked && mixed.mqtt == .masked && mixed.eventSocket == .full)
        let one = try privacy(#"{"privacy": {"mqtt": "none"}}"#)
        #expect(one.mqtt == IdentityPrivacy.none)
        #expect(one.log == .masked && one.eventSocket == .full)
    }

    @Test func badValuesAndKeysAreNamedWithTheFix() {
        let bad = problems(#"{"privacy": {"identity": "partial"}}"#)
        #expect(bad.count == 1)
        #expect(bad.first?.hasPrefix("privacy.identity: 'partial' is not one of full, masked, none") == true)
        #expect(bad.first?.contains("a***e") == true)
        let unknown = problems(#"{"privacy": {"journal": "none"}}"#)
        #expect(unknown.count == 1)
        #expect(unknown.first?.hasPrefix("privacy.journal") == true)
        #expect(problems(#"{"privacy": {"log": true}}"#).first?.hasPrefix("privacy.log") == true)
        #expect(problems(#"{"privacy": "masked"}"#).first?.hasPrefix("privacy") == true)
    }

    @Test func anEventIsShownWithItsNameFieldsMaskedOrLeftOut() {
        let event = LockEvent(name: "error", fields: ["user": "alice", "reason": "alice's flag not changed (alicebob kept)"])
        #expect(event.shown(.full) == event)
        let masked = event.shown(.masked)
        #expect(masked.fields == ["user": "a***e", "reason": "a***e's flag not changed (alicebob kept)"])
        let none = event.shown(.none)
        #expect(none.fields == ["reason": "someone's flag not changed (alicebob kept)"])
        #expect(none.name == "error" && none.time == event.time)
    }

    @Test func redactionTakesWholeNamesOnly() {
        #expect(IdentityPrivacy.masked.redact("al and alice, al.", name: "al") == "a*** and alice, a***.")
        #expect(IdentityPrivacy.masked.redact("no name here", name: "bob") == "no name here")
        #expect(IdentityPrivacy.full.redact("bob", name: "bob") == "bob")
        #expect(IdentityPrivacy.none.redact("bob@home bob", name: "bob") == "bob@home someone")
    }

    @Test func theEventSocketIsFullByDefaultAndMaskedWhenAsked() throws {
        for (json, shown) in [("{}", "alice"), (#"{"privacy": {"eventSocket": "masked"}}"#, "a***e"),
                              (#"{"privacy": {"identity": "none"}}"#, nil)] {
            let lock = try LockHarness(configJSON: json)
            let subscriber = try EventSubscriber(path: lock.options.eventsSocket)
            // Connected before the scan: the loop accepts it before it handles the touch.
            let match = try lock.scan("alice-index", expecting: ["match"])
            #expect(match.fields["user"] == "alice", "observers get the full event")
            let lines = try subscriber.lines(until: { $0.contains(#""event":"unlocked""#) && $0.contains(#""reason":"fingerprint""#) })
            let matchLine = try #require(lines.first { $0.contains(#""event":"match""#) })
            if let shown {
                #expect(matchLine.contains(#""user":"\#(shown)""#), "\(matchLine)")
            } else {
                #expect(!matchLine.contains(#""user""#), "\(matchLine)")
            }
            if shown != "alice" { #expect(!lines.contains { $0.contains("alice") }, "\(lines)") }
            // The audit log keeps the full name whatever the surfaces show.
            #expect(try lock.store.auditEntries(limit: 50).contains { $0.event == "match" && $0.user == "alice" })
        }
    }
}

/// The service's log lines, collected (the runtime's logger is what the journal gets).
final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
    /// Whether a line with `text` arrives within `timeout`: the runtime logs after it publishes,
    /// so a line can land a moment after the event a test waited for.
    func arrives(_ text: String, timeout: Duration = .seconds(10)) -> Bool {
        (try? waitUntil("a log line with \(text)", timeout: timeout) { contains(text) }) != nil
    }
}
