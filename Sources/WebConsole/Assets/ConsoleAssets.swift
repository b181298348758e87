/// The console's pages, the kiosk lock screen and their static files, carried in the binary:
/// nothing is loaded from the network, and nothing runs inline (the server's Content-Security-Policy
/// allows scripts and styles from 'self' only), so every page is markup plus /assets/*.js and *.css.
///
/// The markup is well-formed XML as well as HTML (every element closed, void elements as `<meta … />`,
/// boolean attributes with a value) so tests read it with an XML parser.
public enum ConsoleAssets {
    /// A page's whole HTML. `csrf` goes into `<meta name="csrf-token" content="…">`, `account` and
    /// `role` into the header ("signed in as …", a logout button), all HTML-escaped; nil for login and
    /// setup. `role` also becomes `data-role` on `<body>` ("viewer" hides admin-only controls; the
    /// server enforces roles anyway).
    public static func html(_ page: ConsolePage, csrf: String?, account: String?, role: String?) -> String {
        var head = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n"
        head += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n"
        head += "<meta name=\"color-scheme\" content=\"light dark\" />\n"
        head += "<meta name=\"referrer\" content=\"no-referrer\" />\n"
        if let csrf {
            head += "<meta name=\"csrf-token\" content=\"" + HTMLText.escape(csrf) + "\" />\n"
        }
        head += "<title>" + HTMLText.escape(page.title) + " · fpmod console</title>\n"
        head += "<link rel=\"icon\" href=\"data:,\" />\n"
        head += "<link rel=\"stylesheet\" href=\"/assets/console.css\" />\n"
        head += "<script src=\"/assets/console.js\" defer=\"defer\"></script>\n</head>\n"

        var body = "<body data-page=\"" + page.rawValue + "\""
        if let role { body += " data-role=\"" + HTMLText.escape(role) + "\"" }
        body += ">\n<a class=\"skip\" href=\"#main\">Skip to content</a>\n"
        body += header(page, account: account, role: role)
        body += "<main id=\"main\" tabindex=\"-1\">\n<h1>" + HTMLText.escape(page.title) + "</h1>\n"
        body += "<div id=\"alert\" class=\"alert\" role=\"alert\" aria-live=\"assertive\"></div>\n"
        body += content(page)
        body += "</main>\n</body>\n</html>\n"
        return head + body
    }

    static func header(_ page: ConsolePage, account: String?, role: String?) -> String {
        var out = "<header class=\"top\">\n<span class=\"brand\">fpmod console</span>\n"
        out += "<nav aria-label=\"Console pages\">\n<ul>\n"
        let pages = page.needsSession ? ConsolePage.signedInNav : ConsolePage.signedOutNav
        for item in pages {
            out += "<li><a href=\"" + item.path + "\""
            if item == page { out += " aria-current=\"page\"" }
            out += ">" + HTMLText.escape(item.title) + "</a></li>\n"
        }
        out += "</ul>\n</nav>\n"
        if let account {
            out += "<div class=\"who\"><span>Signed in as <strong id=\"account-name\">" + HTMLText.escape(account) + "</strong>"
            if let role { out += " (<span id=\"account-role\">" + HTMLText.escape(role) + "</span>)" }
            out += "</span> <button type=\"button\" id=\"logout\">Log out</button></div>\n"
        }
        out += "</header>\n"
        return out
    }

    static func content(_ page: ConsolePage) -> String {
        switch page {
        case .login: PageBodies.login
        case .setup: PageBodies.setup
        case .dashboard: PageBodies.dashboard
        case .users: PageBodies.users
        case .enroll: PageBodies.enroll
        case .log: PageBodies.log
        case .plots: PageBodies.plots
        case .settings: PageBodies.settings
        case .accounts: PageBodies.accounts
        }
    }

    /// The kiosk lock screen (`/lock`): no login, no nav, big touch targets; it can only make
    /// unlock attempts through /lock/api/*.
    public static let lockScreenHTML: String = LockAssets.html

    /// Static files by path: "/assets/console.css", "/assets/console.js", "/assets/lock.css",
    /// "/assets/lock.js" → (content type, body).
    public static let files: [String: (contentType: String, body: String)] = [
        "/assets/console.css": (contentType: "text/css; charset=utf-8", body: ConsoleStyle.css),
        "/assets/console.js": (contentType: "text/javascript; charset=utf-8", body: ConsoleScript.js),
        "/assets/lock.css": (contentType: "text/css; charset=utf-8", body: LockAssets.css),
        "/assets/lock.js": (contentType: "text/javascript; charset=utf-8", body: LockAssets.js),
    ]
}
