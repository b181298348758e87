/// Everything a first run takes before its questions, as plain values: the CLI fills it from
/// its options and environment (--store/--key, --config, --sim, --port, --baud, --address,
/// --password, FPMOD_PIN, --defaults), a console from its form. The library reads no command
/// line and no environment of its own.
public struct SetupSettings: Sendable {
    /// The store the guide reads when it exists and makes once every answer is checked.
    public var storeDatabase: String
    public var storeKey: String
    /// Where the configuration is suggested to go (the question's default).
    public var configPath: String
    /// A simulated module served in this process instead of hardware.
    public var simulator: Simulator?
    /// The module's port, given: probed alone, not asked for.
    public var port: String?
    /// One baud rate to probe; nil tries the standard rates, the factory default first.
    public var baudRate: Int?
    /// What an unpaired module answers to; nil: the factory address and password.
    public var address: UInt32?
    public var password: UInt32?
    /// The administrator's PIN, chosen beforehand (the CLI's FPMOD_PIN): held to the PIN rule
    /// before anything changes, and not asked for. Nil: asked.
    public var pin: String?
    /// Probe every likely port instead of asking which: a run that accepts every default has
    /// nobody to ask.
    public var probeEveryPort = false
    /// How a person reaches this store and module again from this front end, given the config
    /// file the guide writes ("fpmod --sim --config FILE" on the CLI): the advice setup prints
    /// names commands to run later.
    public var commandPrefix: @Sendable (_ configPath: String) -> String = { _ in "fpmod" }
    /// Where serial devices are listed and the board's model is read: a test points them at a
    /// folder of its own.
    public var deviceDirectory = "/dev"
    public var deviceTreeModel = BoardDetection.modelPath

    public init(storeDatabase: String, storeKey: String, configPath: String) {
        self.storeDatabase = storeDatabase
        self.storeKey = storeKey
        self.configPath = configPath
    }

    /// A simulated module: the profile and the file its flash is kept in, the one the other
    /// simulated commands use, so they find the module paired and enrolled.
    public struct Simulator: Sendable, Equatable {
        /// "r307", "as608", "r503"; "fpc1020" (the image sensor) is refused with what to do instead.
        public var profile: String
        public var statePath: String

        public init(profile: String = "r307", statePath: String) {
            self.profile = profile
            self.statePath = statePath
        }
    }
}
