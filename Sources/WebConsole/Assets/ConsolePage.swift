/// The console's pages: what the nav lists and what `ConsoleAssets.html` draws.
public enum ConsolePage: String, CaseIterable, Sendable {
    case login, setup, dashboard, users, enroll, log, plots, settings, accounts
}

extension ConsolePage {
    /// Where the page is served: "/" for the dashboard, "/users", …, "/login", "/setup".
    public var path: String {
        switch self {
        case .dashboard: "/"
        default: "/" + rawValue
        }
    }

    /// The page's heading and nav text.
    public var title: String {
        switch self {
        case .login: "Sign in"
        case .setup: "First-run setup"
        case .dashboard: "Dashboard"
        case .users: "Users"
        case .enroll: "Enroll"
        case .log: "Audit log"
        case .plots: "Plots"
        case .settings: "Settings"
        case .accounts: "Accounts"
        }
    }

    /// Whether the page needs a signed-in account (all but login and setup).
    public var needsSession: Bool { self != .login && self != .setup }

    /// The pages a signed-in account's nav lists, in order.
    static let signedInNav: [ConsolePage] = [.dashboard, .users, .enroll, .log, .plots, .settings, .accounts]
    /// The nav of the pages before a session exists.
    static let signedOutNav: [ConsolePage] = [.login, .setup]
}

/// Text made safe to put into HTML or XML, as element text or a quoted attribute value.
public enum HTMLText {
    /// Escapes & < > " ' and replaces the characters XML 1.0 cannot carry (C0 controls other than
    /// tab, line feed and carriage return; U+FFFE, U+FFFF) with U+FFFD, so the result is valid in
    /// HTML and in XML (the SVG plots) alike.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF
                    || (0x7F...0x9F).contains(scalar.value) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
