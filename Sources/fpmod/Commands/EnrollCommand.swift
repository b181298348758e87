import Administration
import ArgumentParsing
import DoorLock
import PrintableText
import ServiceClient
import TemplateStore
import UserPrompts

/// `fpmod enroll NAME`: guided enrollment with fprintd-style progress on stderr — through the
/// running service when there is one, else with the reader opened here (a module merges
/// --captures touches, 2 by default; an image sensor keeps --captures impressions, 8 by default
/// or the config's `imageSensor.enrollCaptures`).
enum EnrollCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        // Checked before anything is opened: a refused name creates no store or key, asks for
        // no finger and writes nothing to the module.
        let name = try UserName(validating: try parsed.require("name"))
        let label = try FingerLabel(validating: parsed.string("finger") ?? "right-index")
        var displayName: DisplayName?
        if let text = parsed.string("display-name") { displayName = try DisplayName(validating: text) }
        // The widest range any reader takes; the reader checks its own before the first touch.
        let asked = try parsed.int("captures", range: 2...15)
        if let service = try ServiceConnection.connectIfRunning(invocation.serviceAddress()) {
            var request = EnrollRequest(user: name, label: label)
            request.captures = asked
            request.admin = parsed.flag("admin")
            request.duress = parsed.flag("duress")
            request.displayName = displayName
            request.fingerTimeout = try parsed.duration("timeout")
            // The service holds the reader and streams its finger steps as values: they reach the
            // same prompter as when the reader is opened here (an older service's worded lines too).
            let prompter = invocation.prompter
            let reply = try service.send(.enroll(request), lineTimeout: (request.fingerTimeout ?? .seconds(15)) + .seconds(30),
                                         fingerStep: { prompter.fingerStep($0) }, progress: { invocation.progress(Printable.escaped($0)) })
            try ServiceConnection.check(reply)
            return report(user: reply["user"]?.stringValue ?? name.text, label: reply["label"]?.stringValue ?? label.text,
                          slot: reply["slot"]?.intValue ?? -1, captures: reply["captures"]?.intValue ?? asked ?? 0,
                          retries: reply["retries"]?.intValue ?? 0, newUser: reply["newUser"]?.boolValue ?? false,
                          duress: request.duress, invocation)
        }
        // With --sim and no --sim-finger, the virtual finger is named after the user and label,
        // so `fpmod --sim enroll alice` just works and `--sim-finger alice-right-index` matches it
        // (on the simulated image sensor too: DIR/alice-right-index/ with --sim-images).
        let virtualFinger = parsed.flag("sim") && parsed.string("sim-finger") == nil ? "\(name)-\(label)" : nil
        let (_, session) = try AdminCommand.openReader(invocation, virtualFinger: virtualFinger, createStore: true)
        defer { session.close() }
        let result = try session.reader.enroll(user: name, displayName: displayName, label: label,
                                              captures: asked ?? session.reader.defaultEnrollCaptures, admin: parsed.flag("admin"),
                                              duress: parsed.flag("duress"), prompter: invocation.prompter)
        return report(user: result.user, label: result.label, slot: result.slot, captures: result.captures,
                      retries: result.retries, newUser: result.newUser, duress: parsed.flag("duress"), invocation)
    }

    private static func report(user: String, label: String, slot: Int, captures: Int, retries: Int, newUser: Bool,
                               duress: Bool, _ invocation: Invocation) -> ExitCode {
        invocation.progress("enroll-completed")
        invocation.emit("Enrolled \(Printable.escaped(user))'s \(Printable.escaped(label))\(duress ? " as a duress finger" : "") in slot \(slot)"
                        + (newUser ? " (new user)" : "") + ".",
                        json: ["result": "enroll-completed", "user": .string(user), "finger": .string(label),
                               "slot": .int(Int64(slot)), "captures": .int(Int64(captures)),
                               "retries": .int(Int64(retries)), "newUser": .bool(newUser), "duress": .bool(duress)])
        return .ok
    }
}
