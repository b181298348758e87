import ArgumentParsing
import TemplateStore

/// Runs the command a parsed command line names. Each command lives in its own file under
/// Commands/ and returns its exit code; errors escaping it are reported here, once.
enum Commands {
    nonisolated(unsafe) static let table: [String: (Invocation) throws -> ExitCode] = [
        "info": InfoCommand.run,
        "capture": CaptureCommand.run,
        "raw": RawCommand.run,
        "sim": SimCommand.run,
        "enroll": EnrollCommand.run,
        "identify": IdentifyCommand.run,
        "verify": VerifyCommand.run,
        "list": ListCommand.run,
        "delete": DeleteCommand.run,
        "rename": RenameCommand.run,
        "wipe": WipeCommand.run,
        "enable": UnlockSwitchCommand.enable,
        "disable": UnlockSwitchCommand.disable,
        "pin": PINCommand.run,
        "backup": BackupCommand.run,
        "restore": RestoreCommand.run,
        "sync": SyncCommand.run,
        "layout": LayoutCommand.run,
        "pair": PairCommand.run,
        "unpair": UnpairCommand.run,
        "log": LogCommand.run,
        "run": RunCommand.run,
        "status": StatusCommand.run,
        "clear": ClearCommand.run,
        "config check": ConfigCheckCommand.run,
        "setup": SetupCommand.run,
        "doctor": DoctorCommand.run,
        "demo": DemoCommand.run,
        "bench": BenchCommand.run,
        "manpage": ManpageCommand.run,
        "completion bash": CompletionCommand.bash,
        "sensor probe": SensorCommand.probe,
        "sensor capture": SensorCommand.capture,
        "keypad list": KeypadCommand.list,
        "keypad test": KeypadCommand.test,
        "keypad type": KeypadCommand.type,
        "wiegand listen": WiegandCommand.listen,
        "wiegand send": WiegandCommand.send,
        "card add": CardAdminCommand.add,
        "card list": CardAdminCommand.list,
        "card enable": CardAdminCommand.enable,
        "card disable": CardAdminCommand.disable,
        "card delete": CardAdminCommand.delete,
        "card validity": CardAdminCommand.validity,
        "card panel": CardAdminCommand.panel,
        "mode": CardAdminCommand.mode,
        "card read": CardCommands.read,
        "card enroll": CardEnrollCommand.enroll,
        "access explain": AccessExplainCommand.run,
        "schedule add": AccessRuleCommands.addSchedule,
        "schedule list": AccessRuleCommands.listSchedules,
        "schedule delete": AccessRuleCommands.deleteSchedule,
        "holiday add": AccessRuleCommands.addHoliday,
        "holiday list": AccessRuleCommands.listHolidays,
        "holiday delete": AccessRuleCommands.deleteHoliday,
        "user set": AccessRuleCommands.setUser,
        "door mode": DoorModeCommand.run,
        "console": ConsoleCommand.run,
        "hub migrate": HubCommand.migrate,
        "hub add-door": HubCommand.addDoor,
        "hub doors": HubCommand.doors,
        "hub revoke-door": HubCommand.revokeDoor,
        "hub add-user": HubCommand.addUser,
        "hub users": HubCommand.users,
        "hub remove-user": HubCommand.removeUser,
        "hub add-card": HubCommand.addCard,
        "hub remove-card": HubCommand.removeCard,
        "hub card-switch": HubCommand.cardSwitch,
        "hub card-validity": HubCommand.cardValidity,
        "hub set-user": HubCommand.setUser,
        "hub user-validity": HubCommand.userValidity,
        "hub add-schedule": HubCommand.addSchedule,
        "hub remove-schedule": HubCommand.removeSchedule,
        "hub add-holiday": HubCommand.addHoliday,
        "hub remove-holiday": HubCommand.removeHoliday,
        "hub door-mode": HubCommand.doorMode,
        "hub serve": HubCommand.serve,
        "hub console-setup-code": HubCommand.consoleSetupCode,
        "join": JoinCommand.run,
        "fleet sync": FleetCommand.sync,
        "fleet status": FleetCommand.status,
    ]

    /// The commands that start a new store when none exists at the store path.
    static let storeCreators: Set<String> = ["enroll", "restore", "setup", "pair", "console", "join"]

    /// The commands that never open the store at the store path (the simulator, demo and bench
    /// make their own; every `hub` command works on the hub's PostgreSQL, `isOwnStore`), so --sim
    /// asks nothing of it.
    static let ownStores: Set<String> = ["sim", "demo", "bench", "config check", "keypad list", "keypad test", "keypad type", "wiegand listen", "wiegand send", "card read"]

    static func isOwnStore(_ name: String) -> Bool { ownStores.contains(name) || name.hasPrefix("hub ") }

    static func run(_ invocation: Invocation) -> ExitCode {
        let name = invocation.parsed.path.joined(separator: " ")
        guard let command = table[name] else {
            // A group without its subcommand (`fpmod config`): show its help.
            StandardStreams.writeError("Error: '\(name)' needs a subcommand.\n\(invocation.parsed.hint)\n")
            return .usage
        }
        // Only these may create a store, and only if they succeed (see StoreFootprint).
        let footprint = storeCreators.contains(name)
            ? StoreFootprint(database: invocation.storePaths.database, key: invocation.storePaths.key,
                             companions: [invocation.simulatorStatePath])
            : nil
        do {
            try OptionCheck.validate(invocation.parsed)
            if !isOwnStore(name) { try invocation.refuseProductionStoreForSimulator() }
            let code = try command(invocation)
            if code != .ok { footprint?.undoIfNothingKept() }
            return code
        } catch {
            footprint?.undoIfNothingKept()
            let message = ErrorReport.message(for: error)
            let code = ErrorReport.exitCode(for: error)
            if invocation.json {
                JSONOutput.print(["error": .string(message), "exitCode": .int(Int64(code.rawValue))])
            }
            StandardStreams.writeError("Error: " + message + "\n")
            return code
        }
    }
}
