import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// `/console/users`: every user a page at a time (the admin API's paging: by creation time,
/// the page's first key found in the `users_created_at` index, the total from `user_counts`),
/// or a search: an id, or the start of an address (a range of the address index).
struct ConsoleUsersPage: Sendable {
    let storage: any AuthStorage
    let lookup: AdminUserLookup
    let now: @Sendable () -> Date

    static let perPage = 50

    /// What was asked for.
    enum Listing: Sendable {
        case page(AdminPaging)
        case search(String)
    }

    func render(_ form: ConsoleForm, operator signedIn: ConsoleOperator) async throws -> HTML {
        let query = form[.query].map { String($0.prefix(320)) }
        let listing: Listing =
            if let query {
                .search(query)
            } else {
                .page(try AdminPaging(page: form[.page], perPage: String(Self.perPage)))
            }
        let users: [UserRecord]
        var pager = HTML.empty
        let summary: HTML
        switch listing {
        case .search(let text):
            if let id = UUID(text: text) {
                users = try await storage.read { try await $0.user(id: id) }.map { [$0] } ?? []
            } else {
                users = try await storage.read { try await $0.users(emailPrefix: text, limit: Self.perPage) }
            }
            summary = "<p class=\"muted\">\(users.count) found for “\(text)” (an id, or the start of an address).</p>"
        case .page(let paging):
            let (found, total) = try await lookup.page(paging)
            users = found
            let last = max(1, (total + paging.perPage - 1) / paging.perPage)
            summary = "<p class=\"muted\">\(total) users · page \(paging.page) of \(last)</p>"
            var links: [HTML] = []
            if paging.page > 1 { links.append("<a href=\"/console/users?page=\(paging.page - 1)\">← Previous page</a>") }
            if paging.page < last { links.append("<a href=\"/console/users?page=\(paging.page + 1)\">Next page →</a>") }
            pager = "<nav class=\"pager\">\(links)</nav>"
        }
        let search: HTML = """
            <section><form class="inline" method="get" action="/console/users">
            <label for="q" class="muted">Find a user</label>
            <input id="q" name="q" type="search" placeholder="address or id" value="\(query)">
            <button type="submit">Search</button></form></section>
            """
        let table: HTML =
            users.isEmpty
            ? "<p class=\"empty\">No user matches. Search by the start of an address or by a user id, or clear the search to list everyone.</p>"
            : """
            <table><thead><tr><th>Address</th><th>Created</th><th>Last sign-in</th><th>State</th></tr></thead>
            <tbody>\(users.map { Self.row($0, now: now()) })</tbody></table>
            """
        let notice = form[.done].flatMap(ConsoleNotice.init(rawValue:)).map { ConsoleLayout.notice($0.message) } ?? .empty
        return ConsoleLayout.page(
            title: "Users",
            operator: signedIn,
            notice: notice,
            content: "\(search)<section>\(summary)\(table)\(pager)</section>"
        )
    }

    static func row(_ user: UserRecord, now: Date) -> HTML {
        """
        <tr><td><a href="/console/users/\(user.id.key)">\(user.email ?? (user.isAnonymous ? "guest" : "no address"))</a>
        <div class="mono muted">\(user.id.key)</div></td>
        <td>\(ConsoleLayout.time(user.createdAt))</td><td>\(ConsoleLayout.time(user.lastSignInAt))</td>
        <td>\(state(of: user, now: now))</td></tr>
        """
    }

    /// Confirmed, unconfirmed, guest, banned, with MFA.
    static func state(of user: UserRecord, now: Date) -> HTML {
        var words: [String] = []
        if user.isAnonymous { words.append("guest") }
        if !user.isAnonymous { words.append(user.emailConfirmedAt == nil ? "unconfirmed" : "confirmed") }
        if user.isBanned(at: now) { words.append("banned") }
        if user.hasVerifiedFactor { words.append("MFA") }
        return "\(words.joined(separator: " · "))"
    }
}
