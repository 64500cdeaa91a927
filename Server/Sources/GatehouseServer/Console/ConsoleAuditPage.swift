import Foundation
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage

/// `/console/audit`: the audit log, newest first, 50 lines a page (keyset by line number),
/// filtered by user (as actor or subject), action, client address and time; each line links to
/// its users and to the lines of its address.
struct ConsoleAuditPage: Sendable {
    let storage: any AuthStorage

    func render(_ form: ConsoleForm, operator signedIn: ConsoleOperator) async throws -> HTML {
        var query = AuditQuery()
        var problems: [String] = []
        if let text = form[.user] {
            if let id = UUID(text: text) { query.user = id } else { problems.append("The user must be a user id.") }
        }
        query.action = form[.action].map { AuditAction(rawValue: String($0.prefix(64))) }
        if let text = form[.address] {
            // Matched as the log spells it (each line's address links to its lines).
            if IPAddress(text) != nil {
                query.address = text
            } else {
                problems.append("The address must be an IP address, such as 203.0.113.7 or 2001:db8::1.")
            }
        }
        query.from = form[.from].flatMap(Self.day)
        query.until = form[.until].flatMap(Self.day).map { $0.addingTimeInterval(86_400) }
        if form[.from] != nil && query.from == nil { problems.append("From must be a date (YYYY-MM-DD).") }
        if form[.until] != nil && query.until == nil { problems.append("Until must be a date (YYYY-MM-DD).") }
        query.before = form[.before].flatMap { Int($0) }
        let asked = query
        let entries = problems.isEmpty ? try await storage.read { try await $0.auditEntries(matching: asked) } : []
        var older = HTML.empty
        if entries.count == query.limit, let last = entries.last {
            var parts = ["before=\(last.id)"]
            for field in [ConsoleField.user, .action, .address, .from, .until] {
                if let value = form[field] { parts.append("\(field.rawValue)=\(Self.percentEncoded(value))") }
            }
            older =
                "<nav class=\"pager\"><a href=\"/console/audit?\(parts.joined(separator: "&"))\">Older lines →</a></nav>"
        }
        let filters: HTML = """
            <section><form class="inline" method="get" action="/console/audit">
            <input name="user" placeholder="user id" value="\(form[.user])" aria-label="user id">
            <input name="action" placeholder="action (e.g. login)" value="\(form[.action])" aria-label="action">
            <input name="address" placeholder="address (e.g. 203.0.113.7)" value="\(form[.address])" aria-label="address">
            <input name="from" type="date" value="\(form[.from])" aria-label="from">
            <input name="until" type="date" value="\(form[.until])" aria-label="until">
            <button type="submit">Filter</button> <a href="/console/audit">Clear</a></form></section>
            """
        let notice =
            problems.isEmpty ? HTML.empty : ConsoleLayout.notice(problems.joined(separator: " "), isError: true)
        return ConsoleLayout.page(
            title: "Audit log",
            operator: signedIn,
            notice: notice,
            content: "\(filters)<section>\(Self.table(entries))\(older)</section>"
        )
    }

    /// The lines as a table; each user id links to the user's page.
    static func table(_ entries: [NumberedAuditEntry]) -> HTML {
        guard !entries.isEmpty else {
            return "<p class=\"empty\">No line matches: widen the filters or the time range.</p>"
        }
        let rows: [HTML] = entries.map { line in
            """
            <tr><td>\(ConsoleLayout.time(line.entry.at))</td><td>\(line.entry.action.rawValue)</td>
            <td>\(link(line.entry.actorID))</td><td>\(link(line.entry.subjectID))</td>
            <td>\(address(line.entry.ip))</td><td class="mono">\(line.entry.detail)</td></tr>
            """
        }
        return """
            <table><thead><tr><th>When</th><th>Action</th><th>Actor</th><th>Subject</th><th>Address</th><th>Detail</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }

    /// The address, linking to every line of it.
    static func address(_ text: String?) -> HTML {
        guard let text, IPAddress(text) != nil else { return "\(text)" }
        return "<a class=\"mono\" href=\"/console/audit?address=\(percentEncoded(text))\">\(text)</a>"
    }

    static func link(_ id: UUID?) -> HTML {
        guard let id else { return "" }
        return "<a class=\"mono\" href=\"/console/users/\(id.key)\">\(String(id.key.prefix(8)))…</a>"
    }

    /// The start of a day given as `YYYY-MM-DD`, in UTC.
    static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, text.count == 10 else { return nil }
        var components = DateComponents()
        components.year = parts[0]
        components.month = parts[1]
        components.day = parts[2]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == parts[2] else {
            return nil
        }
        return date
    }

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}
