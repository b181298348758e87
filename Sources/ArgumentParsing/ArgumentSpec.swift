// The declaration of one positional argument.

/// A positional argument such as `<name>` in `fpmod enroll <name>`.
public struct ArgumentSpec: Equatable, Sendable {
    public var name: String
    public var help: String
    /// May be left out. Only trailing arguments should be optional.
    public var isOptional: Bool
    /// Takes every remaining positional (`<files>...`). Only the last argument may repeat.
    public var isRepeating: Bool

    public init(name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isRepeating = isRepeating
    }

    /// `.positional("name", help: "user name")`.
    public static func positional(
        _ name: String, help: String, optional: Bool = false, repeating: Bool = false
    ) -> ArgumentSpec {
        ArgumentSpec(name: name, help: help, isOptional: optional, isRepeating: repeating)
    }

    /// How the argument is shown in usage lines and errors: `<name>`, `[<name>]`, `<files> ...`.
    public var usage: String {
        let core = "<\(name)>" + (isRepeating ? " ..." : "")
        return isOptional ? "[\(core)]" : core
    }
}
