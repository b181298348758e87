import ArgumentParsing
import Posix
import Keypad
import KeypadInput
import PrintableText

/// `fpmod keypad list|test|type`: bringing up a keypad, as `evtest` does for any input device
/// but in the door's terms. The work is KeypadInput's; this reads options and prints.
enum KeypadCommand {
    static func list(_ invocation: Invocation) throws -> ExitCode {
        let keypads = KeypadDevices.keypads()
        invocation.emit(keypads.isEmpty ? "No keypad found (no input device with digit keys that this user may read)."
                            : keypads.map { "\($0.path)  \(Printable.escaped($0.name))" }.joined(separator: "\n"),
                        json: .array(keypads.map { ["path": .string($0.path), "name": .string($0.name)] }))
        return .ok
    }

    static func test(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        // Every value checked before the device is looked for.
        let device = try parsed.require("device")
        let duration = try parsed.duration("duration") ?? .seconds(60)
        let wait = try parsed.duration("wait") ?? .zero
        let entries = try parsed.int("entries", range: 1...1_000)
        let pause = try parsed.duration("pause") ?? .seconds(5)
        let settings = try KeypadEntry.Settings(pause: pause.timeInterval)
        let path = try KeypadDevices.resolve(device, waitingUntil: wait > .zero ? .now + wait : nil)
        let keypad = try EvdevKeypad(path: path)
        invocation.progress("Watching \(Printable.escaped(keypad.name)) (\(path)), grabbed: type digits, # to submit, * to clear.")
        let summary = try KeypadWatch.run(keypad, settings: settings, until: .now + duration, entriesWanted: entries) {
            invocation.emit($0, json: .null)
        }
        invocation.emit("\(summary.keys) keys: \(summary.entries) \(summary.entries == 1 ? "entry" : "entries") submitted, \(summary.refused) refused, \(summary.cleared) cleared, \(summary.timedOut) dropped after a pause.",
                        json: ["device": .string(path), "name": .string(keypad.name), "keys": .int(Int64(summary.keys)),
                               "entries": .int(Int64(summary.entries)), "refused": .int(Int64(summary.refused)),
                               "cleared": .int(Int64(summary.cleared)), "timedOut": .int(Int64(summary.timedOut)),
                               "eventsLost": .int(Int64(summary.eventsLost))])
        return .ok
    }

    static func type(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        let keys = try parsed.require("keys")
        _ = try VirtualKeypad.codes(for: keys)  // checked before the device is made
        let name = parsed.string("name") ?? VirtualKeypad.defaultName
        let wait = try parsed.duration("wait") ?? .seconds(1)
        let interval = try parsed.duration("interval") ?? .milliseconds(100)
        let keypad = try VirtualKeypad(name: name)
        invocation.progress("Made \(Printable.escaped(name)) at \(keypad.devicePath); typing in \(wait).")
        CurrentProcess.sleep(for: wait)
        try keypad.type(keys, interval: interval)
        // Readers get the last key before the device goes away.
        CurrentProcess.sleep(for: .milliseconds(200))
        invocation.emit("Typed \(keys.count) keys on \(keypad.devicePath).", json: ["device": .string(keypad.devicePath), "keys": .int(Int64(keys.count))])
        return .ok
    }
}
