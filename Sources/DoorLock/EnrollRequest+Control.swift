import Foundation
import Posix
import TemplateStore

/// The control-socket spelling of an enroll: `enroll NAME [LABEL] [--admin] [--duress]
/// [--captures=N] [--timeout=SECONDS] [--display-name=TEXT]`, where TEXT is percent-encoded
/// (the line is split at spaces). `controlLine` writes it and `init(controlArguments:)` reads it,
/// so the CLI and the service cannot drift apart.
extension EnrollRequest {
    /// The command line for the control socket.
    public var controlLine: String {
        var words = ["enroll", user.text, label.text]
        if admin { words.append("--admin") }
        if duress { words.append("--duress") }
        if let captures { words.append("--captures=\(captures)") }
        if let fingerTimeout { words.append("--timeout=" + Self.seconds(fingerTimeout)) }
        if let displayName {
            words.append("--display-name=" + (displayName.text.addingPercentEncoding(withAllowedCharacters: Self.plain) ?? displayName.text))
        }
        return words.joined(separator: " ")
    }

    /// Reads the words after `enroll`; the error text is the reply's.
    public init(controlArguments arguments: [String]) throws(ControlUsageError) {
        let positional = arguments.filter { !$0.hasPrefix("--") }
        guard (1...2).contains(positional.count) else { throw ControlUsageError(Self.usage) }
        // Checked here, before the service asks the worker (and the worker a finger) anything.
        do {
            self.init(user: try UserName(validating: positional[0]), label: positional.count == 2 ? try FingerLabel(validating: positional[1]) : "right-index")
        } catch {
            throw ControlUsageError(String(describing: error))
        }
        for option in arguments where option.hasPrefix("--") {
            let parts = option.dropFirst(2).split(separator: "=", maxSplits: 1).map(String.init)
            let value = parts.count == 2 ? parts[1] : nil
            switch (parts.first ?? "", value) {
            case ("admin", nil): admin = true
            case ("duress", nil): duress = true
            case ("captures", let text?):
                // The widest range any reader takes; the reader checks its own before the first touch.
                guard let count = Int(text), (2...15).contains(count) else { throw ControlUsageError("--captures takes 2 to 15") }
                captures = count
            case ("timeout", let text?):
                // Kept to the millisecond, as `controlLine` prints it: a value that rounds to 0 ms would
                // print as "--timeout=0", which this very check refuses (found by tools/fuzz.sh's control harness).
                guard let seconds = Double(text), seconds <= 600, (seconds * 1000).rounded() >= 1 else {
                    throw ControlUsageError("--timeout takes seconds from 0.001 to 600")
                }
                fingerTimeout = .milliseconds(Int64((seconds * 1000).rounded()))
            case ("display-name", let text?):
                do { displayName = try DisplayName(validating: text.removingPercentEncoding ?? text) } catch {
                    throw ControlUsageError(String(describing: error))
                }
            default:
                throw ControlUsageError("unknown enroll option '\(option)'; " + Self.usage)
            }
        }
    }

    /// Whole seconds without a fraction ("20"), others to the millisecond ("1.5").
    static func seconds(_ duration: Duration) -> String {
        let value = duration.timeInterval
        return value == value.rounded() ? String(Int(value)) : String(format: "%.3f", value)
    }

    static let usage = "usage: enroll NAME [LABEL] [--admin] [--duress] [--captures=N] [--timeout=SECONDS] [--display-name=TEXT]"

    private static let plain = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
}

/// A control command that was spelled wrong; `description` is the reply's error text.
public struct ControlUsageError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
