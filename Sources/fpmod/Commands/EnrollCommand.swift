import Administration
import ArgumentParsing

/// `fpmod enroll NAME`: guided enrollment with fprintd-style progress on stderr.
enum EnrollCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        let name = try parsed.require("name")
        let label = parsed.string("finger") ?? "right-index"
        let captures = try parsed.int("captures", range: 2...6) ?? 2
        // With --sim and no --sim-finger, the virtual finger is named after the user and label,
        // so `fpmod --sim enroll alice` just works and `--sim-finger alice-right-index` matches it.
        let virtualFinger = parsed.flag("sim") && parsed.string("sim-finger") == nil ? "\(name)-\(label)" : nil
        let (_, session, administrator) = try AdminCommand.open(invocation, virtualFinger: virtualFinger)
        defer { session.close() }
        let result = try administrator.enroll(user: name, displayName: parsed.string("display-name"), label: label,
                                              captures: captures, admin: parsed.flag("admin")) { step in
            invocation.progress(step.description)
        }
        invocation.progress("enroll-completed")
        invocation.emit("Enrolled \(result.user)'s \(result.label) in slot \(result.slot)"
                        + (result.newUser ? " (new user)" : "") + ".",
                        json: ["result": "enroll-completed", "user": .string(result.user), "finger": .string(result.label),
                               "slot": .int(Int64(result.slot)), "captures": .int(Int64(result.captures)),
                               "retries": .int(Int64(result.retries)), "newUser": .bool(result.newUser)])
        return .ok
    }
}
