import Foundation
import GatehouseFlows
import GatehouseStorage

/// The frame of every console page: the style sheet, the navigation with the sign-out form
/// (carrying its CSRF token), a notice, the page's content. Small scripts from the console's
/// origin show times in the operator's time zone and, on the sign-in page, sign in with a passkey
/// (``ConsoleScript``); every page works without them.
enum ConsoleLayout {
    static func page(
        title: String,
        operator signedIn: ConsoleOperator?,
        notice: HTML = .empty,
        content: HTML,
        scripts: [ConsoleScript.Name] = [.time]
    ) -> HTML {
        let header: HTML =
            if let signedIn {
                """
                <header><span class="brand">Gatehouse console</span>
                <nav><a href="/console">Overview</a><a href="/console/users">Users</a><a href="/console/audit">Audit log</a><a href="/console/keys">Signing keys</a></nav>
                <form method="post" action="/console/sign-out">\(csrfField(signedIn))<span class="muted">\(signedIn.user.email)</span>
                <button class="quiet" type="submit">Sign out</button></form></header>
                """
            } else {
                "<header><span class=\"brand\">Gatehouse console</span></header>"
            }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · Gatehouse console</title>
            <link rel="stylesheet" href="/console/style.css">
            \(scripts.map { "<script src=\"\($0.path)\" defer></script>" as HTML })</head>
            <body>\(header)<main><h1>\(title)</h1>\(notice)\(content)</main></body></html>
            """
    }

    /// The hidden field every form of a signed-in page carries.
    static func csrfField(_ signedIn: ConsoleOperator) -> HTML {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(signedIn.csrf)\">"
    }

    static func notice(_ text: String, isError: Bool = false) -> HTML {
        "<p class=\"notice \(isError ? "error" : "ok")\" role=\"status\">\(text)</p>"
    }

    /// A time as the console shows it: UTC, to the minute ("27 Nov 2026, 09:42 UTC"), with the
    /// exact time in `datetime`.
    static func time(_ date: Date?) -> HTML {
        guard let date else { return "<span class=\"muted\">never</span>" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let (year, month, day) = (parts.year ?? 0, parts.month ?? 1, parts.day ?? 0)
        let (hour, minute, second) = (parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        let exact = "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
        let shown = "\(day) \(months[(month - 1) % 12]) \(year), \(two(hour)):\(two(minute)) UTC"
        return "<time datetime=\"\(exact)\">\(shown)</time>"
    }

    /// A day given as whole days since 1970 ("27 Nov 2026").
    static func day(_ day: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents(
            [.year, .month, .day],
            from: Date(timeIntervalSince1970: Double(day) * 86_400)
        )
        return "\(parts.day ?? 0) \(months[((parts.month ?? 1) - 1) % 12]) \(parts.year ?? 0)"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func two(_ number: Int) -> String {
        number < 10 ? "0\(number)" : "\(number)"
    }
}
