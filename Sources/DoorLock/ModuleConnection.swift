import FingerprintModule
import FingerprintProtocol
import SerialPort

/// How the service reaches its module. It never opens it itself: the worker hands this to
/// `AdministrationOpener` (the one opener the CLI, setup, demo and doctor use too) at start
/// and at every reconnect, so the pairing is checked and interrupted operations are settled.
public struct ModuleConnection: Sendable {
    /// Opens the module at (address, password); `probeBaudRates` false tries one rate only.
    public typealias Connect = @Sendable (_ address: UInt32, _ password: UInt32, _ probeBaudRates: Bool) throws -> FingerprintModule

    /// Used while the store has no pairing (the config's or the command line's, else factory).
    public var unpairedAddress: UInt32
    public var unpairedPassword: UInt32
    public var connect: Connect

    public init(unpairedAddress: UInt32 = Frame.defaultAddress, unpairedPassword: UInt32 = 0, connect: @escaping Connect) {
        self.unpairedAddress = unpairedAddress
        self.unpairedPassword = unpairedPassword
        self.connect = connect
    }

    /// A serial port (or a simulator's pseudo-terminal) at `baudRate`, probing the other rates
    /// only when the opener asks for it.
    public static func serial(port: String, baudRate: Int? = nil, family: ModuleFamily? = nil,
                              timeouts: CommandTimeouts = CommandTimeouts(),
                              unpairedAddress: UInt32 = Frame.defaultAddress, unpairedPassword: UInt32 = 0) -> ModuleConnection {
        ModuleConnection(unpairedAddress: unpairedAddress, unpairedPassword: unpairedPassword) { address, password, probe in
            try FingerprintModule.open(port: port, baudRate: baudRate, address: address, password: password,
                                       family: family, timeouts: timeouts, probeBaudRates: probe)
        }
    }
}
