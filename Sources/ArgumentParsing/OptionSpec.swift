// The declaration of one named option or flag.

/// A named option (`--finger LABEL`) or flag (`--admin`), as declared by a command or globally.
public struct OptionSpec: Equatable, Sendable {
    /// Whether the option takes a value.
    public enum Kind: Equatable, Sendable {
        /// Present or absent (`--json`); may be counted if repeatable (`-vv`).
        case flag
        /// Takes one value (`--port PATH`, `--port=PATH`).
        case value
    }

    /// Long name without dashes: `finger` for `--finger`.
    public var name: String
    /// Optional one-letter form: `v` for `-v`.
    public var short: Character?
    public var kind: Kind
    /// What the value is, shown in help and errors: `--finger <LABEL>`.
    public var valueName: String
    public var help: String
    /// Used when neither the command line nor the environment gives a value; shown in help.
    public var defaultValue: String?
    /// An environment variable consulted when the option is absent, e.g. `FPMOD_PORT`.
    public var environment: String?
    /// If not empty, the only values accepted (checked while parsing); shown in help.
    public var choices: [String]
    /// May be given more than once: values accumulate, flags count.
    public var repeatable: Bool

    public init(
        name: String, short: Character? = nil, kind: Kind, valueName: String = "VALUE", help: String,
        defaultValue: String? = nil, environment: String? = nil, choices: [String] = [], repeatable: Bool = false
    ) {
        self.name = name
        self.short = short
        self.kind = kind
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.environment = environment
        self.choices = choices
        self.repeatable = repeatable
    }

    /// An option taking a value: `.option("captures", valueName: "N", help: "…", default: "3")`.
    public static func option(
        _ name: String, short: Character? = nil, valueName: String = "VALUE", help: String,
        default defaultValue: String? = nil, env: String? = nil, choices: [String] = [], repeatable: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, kind: .value, valueName: valueName, help: help,
            defaultValue: defaultValue, environment: env, choices: choices, repeatable: repeatable)
    }

    /// A flag: `.flag("verbose", short: "v", help: "…", repeatable: true)`.
    public static func flag(
        _ name: String, short: Character? = nil, help: String, env: String? = nil, repeatable: Bool = false
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, kind: .flag, help: help, environment: env, repeatable: repeatable)
    }

    /// How the option is named in messages: `--finger <LABEL>` or `--admin`.
    public var displayName: String {
        kind == .flag ? "--\(name)" : "--\(name) <\(valueName)>"
    }
}
