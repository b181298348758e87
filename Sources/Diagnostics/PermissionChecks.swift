extension DoctorChecks {
    /// Who runs fpmod; root is noted because the service should not need it.
    static func userAccount(_ context: DoctorContext) -> DoctorCheck {
        let user = context.facts.user
        let title = "User"
        if user.isRoot {
            return DoctorCheck("permissions.user", title, .ok,
                               "Running as root: every device opens. The service itself should run as its own user in dialout and gpio (tools/install.sh sets that up).")
        }
        let relevant = ["dialout", "gpio"].filter { user.sessionGroups.contains($0) }
        let groups = relevant.isEmpty ? "neither dialout nor gpio" : relevant.joined(separator: " and ")
        let pending = ["dialout", "gpio"].filter { user.accountGroups.contains($0) && !user.sessionGroups.contains($0) }
        if !pending.isEmpty {
            return DoctorCheck("permissions.user", title, .warning,
                               "\(user.name) was added to \(pending.joined(separator: ", ")) after this login (this session has \(groups)).",
                               fix: "Log out and back in (or reboot) so the new groups take effect.")
        }
        return DoctorCheck("permissions.user", title, .ok, "\(user.name) (uid \(user.uid)), in \(groups).")
    }

    /// The module's port may be opened for reading and writing.
    static func serialPermission(_ context: DoctorContext) -> DoctorCheck {
        let title = "Serial port access"
        let user = context.facts.user
        guard let port = context.facts.port else {
            if user.isRoot || user.sessionGroups.contains("dialout") {
                return DoctorCheck("permissions.serial", title, .ok, "No port given; \(user.isRoot ? "root" : "the dialout group") opens serial ports.")
            }
            return DoctorCheck("permissions.serial", title, .warning,
                               "No port given, and \(user.name) is not in dialout (serial ports are root:dialout 0660).",
                               fix: groupFix(group: "dialout", user: user))
        }
        if context.portKind == .simulator {
            return DoctorCheck("permissions.serial", title, .skipped, "simulated module (--sim): the pseudo-terminal belongs to this process.")
        }
        guard let node = port.node else {
            return DoctorCheck("permissions.serial", title, .skipped, "\(port.path) does not exist (see Serial port).")
        }
        let owner = "\(node.owner):\(node.group) \(node.modeText)"
        if node.readWritable {
            return DoctorCheck("permissions.serial", title, .ok, "\(port.resolvedPath) is \(owner); \(user.name) may read and write it.")
        }
        let groupHasAccess = node.mode & 0o060 == 0o060
        let fix = groupHasAccess && node.group != "root"
            ? groupFix(group: node.group, user: user)
            : "The device is \(owner): give a group read/write access with a udev rule (tools/99-fpmod.rules sets GROUP=\"dialout\", MODE=\"0660\"), then add \(user.name) to that group."
        return DoctorCheck("permissions.serial", title, .problem, "\(port.resolvedPath) is \(owner); \(user.name) may not open it.", fix: fix)
    }

    /// The GPIO chips may be opened (touch line, relay, buttons).
    static func gpioPermission(_ context: DoctorContext) -> DoctorCheck {
        let title = "GPIO access"
        let nodes = context.facts.gpioNodes
        let user = context.facts.user
        guard !nodes.isEmpty else {
            return DoctorCheck("permissions.gpio", title, .skipped,
                               context.board.isSupportedPi ? "no /dev/gpiochip* found (see GPIO chip)." : "no /dev/gpiochip* (none needed with a USB adapter).")
        }
        let denied = nodes.filter { !$0.readWritable }
        guard let first = denied.first else {
            let sample = nodes[0]
            return DoctorCheck("permissions.gpio", title, .ok,
                               "\(nodes.map { shortName($0.path) }.joined(separator: ", ")) open for \(user.name) (\(sample.owner):\(sample.group) \(sample.modeText)).")
        }
        let group = first.mode & 0o060 == 0o060 && first.group != "root" ? first.group : "gpio"
        return DoctorCheck("permissions.gpio", title, context.board.isSupportedPi ? .problem : .warning,
                           "\(denied.map { shortName($0.path) }.joined(separator: ", ")) \(denied.count == 1 ? "is" : "are") \(first.owner):\(first.group) \(first.modeText); \(user.name) may not open \(denied.count == 1 ? "it" : "them").",
                           fix: groupFix(group: group, user: user))
    }

    /// Joining `group`, or logging in again when the account already is in it.
    static func groupFix(group: String, user: UserFacts) -> String {
        if user.accountGroups.contains(group) && !user.sessionGroups.contains(group) {
            return "\(user.name) is already in \(group) but this login predates it: log out and back in."
        }
        return "sudo usermod -aG \(group) \(user.name), then log out and back in."
    }

    static func shortName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}
