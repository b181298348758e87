import DoorLock

/// Why the service could not be built from the settings, each with what to do. Errors of the
/// parts underneath (`StoreError`, `GPIOError`, `SimulatorError`, `ReaderSessionError`, …) pass
/// through unchanged; front ends map both to their own codes (both cases are the configuration's).
public enum ServiceAssemblyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No config file named or installed, and no simulator to run on the defaults.
    case noConfiguration
    /// The config (the file, or the defaults on this board and chip) has problems: every one, as
    /// `fpmod config check` lists them.
    case config(String)

    public var description: String {
        switch self {
        case .noConfiguration:
            return "No configuration: give --config FILE (or FPMOD_CONFIG), or create \(LockConfig.installedPath) "
                + "from tools/config.example.json; try without hardware with --sim --sim-gpio."
        case let .config(problems):
            return problems
        }
    }
}
