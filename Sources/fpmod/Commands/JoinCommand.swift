import ArgumentParsing
import DoorFleet
import Foundation
import JSONValue
import Posix
import PrintableText

/// `fpmod join URL CODE`: this door joins the fleet whose hub is at URL, with the one-time code
/// `fpmod hub add-door` printed. The steps, their checks and their rollback are `FleetJoin`'s;
/// here only the person's part: comparing the authority's fingerprint.
enum JoinCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        guard let hub = invocation.positional(0), let typedCode = invocation.positional(1) else {
            throw CommandFailure(.usage, "Give the hub and the join code: fpmod join https://HUB:8443 CODE.")
        }
        let storePaths = invocation.storePaths
        let expected = invocation.parsed.string("authority-sha256")
        // Checked before anything is sent: the address, the code, the fingerprint's form, this
        // door not joined, the store there (its audit log records the join) and its folder writable.
        let join: FleetJoin
        do { join = try FleetJoin(hub: hub, code: typedCode, files: FleetFiles(storeDatabase: storePaths.database)) } catch {
            throw CommandFailure(error.isUsage ? .usage : .config, error.description)
        }
        if let expected, expected.filter(\.isHexDigit).count != 64 || !expected.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == " " }) {
            throw CommandFailure(.usage, "--authority-sha256 is the 64 hex digits `fpmod hub serve` printed (colons allowed).")
        }
        // A new door has no store yet: the join makes it (and its folder) once the hub's authority
        // was confirmed; a join that fails leaves none (`join` is a store creator: StoreFootprint).
        if FileSystem.exists(storePaths.database) { _ = try invocation.openStore() }

        let presented: PresentedAuthority
        do { presented = try join.presentedAuthority() } catch { throw CommandFailure(.unavailable, error.description) }
        if let expected {
            guard presented.matches(expected) else {
                throw CommandFailure(.denied, FleetJoinError.authorityMismatch(presented: presented.sha256Fingerprint, expected: expected).description)
            }
        } else {
            invocation.progress("The hub at \(join.address) presents the fleet authority SHA-256:\n  \(presented.sha256Fingerprint)")
            let accepted = try invocation.prompter.confirm(.confirmation(
                key: "authority", prompt: "Is it the one `fpmod hub serve` printed on the hub", default: false))
            guard accepted == true else {
                throw CommandFailure(.denied, accepted == nil
                    ? "Nothing was sent: there is no terminal to compare the fingerprint on; give it with --authority-sha256."
                    : "Nothing was sent: the fingerprint was not confirmed.")
            }
        }

        let store = try invocation.openStore(create: true)
        let owner = try? FileSystem.status(storePaths.database)
        let membership: FleetMembership
        do {
            // Root joining for the service: the files go to the store's owner, who runs it.
            let runAsOwner = CurrentProcess.effectiveUserID == 0 ? owner.map { (user: $0.ownerID, group: $0.groupID) } : nil
            membership = try join.join(pinning: presented, owner: runAsOwner)
        } catch {
            var message = error.description
            if let pending = try? join.files.pendingKeyPath(code: join.code), FileSystem.exists(pending) {
                message += " The key pair this join sent a request for is kept (\(pending))"
                if let answer = try? join.files.pendingAnswerPath(code: join.code), FileSystem.exists(answer) {
                    message += ", and the hub's answer with its certificate (\(answer)): the same fpmod join again tries that certificate, and finishes the join."
                } else {
                    message += ": the same fpmod join again asks with it, and finishes the join if the hub redeemed the code for it."
                }
            }
            throw CommandFailure(error.isUnreachable ? .unavailable : .denied, message)
        }
        try store.appendAudit(event: "fleet-join", user: nil,
                              detail: "hub \(membership.hub) as door \(membership.door), authority SHA-256 \(membership.authoritySHA256)")
        invocation.emit("""
            This door joined the fleet at \(membership.hub) as \(Printable.escaped(membership.door)).
            Its key, certificate and the fleet's authority are beside the store (\(join.files.directory)/fleet-*.pem, fleet.json).
            """, json: ["hub": .string(membership.hub.description), "door": .string(membership.door),
                        "authoritySHA256": .string(membership.authoritySHA256), "directory": .string(join.files.directory)])
        return .ok
    }
}

extension FleetJoinError {
    /// What the person typed was wrong (exit 64), rather than the place or the hub.
    var isUsage: Bool {
        switch self {
        case .badAddress, .badCode: true
        default: false
        }
    }

    var isUnreachable: Bool {
        if case .unreachable = self { return true }
        return false
    }
}
