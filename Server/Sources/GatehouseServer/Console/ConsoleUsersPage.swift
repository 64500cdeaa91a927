import Foundation
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage

/// `/console/users`: every user a page at a time (the admin API's paging: by creation time,
/// the page's first key found in the `users_created_at` index, the total from `user_counts`),
/// a search (an id, or the start of an address: a range of the address index), or a filter
/// (confirmed, unconfirmed, guests, banned, with MFA, with passkeys, by provider), which walks
/// the creation-time index a bounded step per page (``ConsoleUserQuery``).
struct ConsoleUsersPage: Sendable {
    let storage: any AuthStorage
    let lookup: AdminUserLookup
    let now: @Sendable () -> Date

    static let perPage = 50

    /// What was asked for.
    enum Listing: Sendable {
        case page(AdminPaging)
        case search(String)
        case filtered(ConsoleUserQuery)
    }

    /// The filters offered above the list, with their labels.
    static let filters: [(ConsoleUserFilter, String)] = [
        (.confirmed, "Confirmed"), (.unconfirmed, "Unconfirmed"), (.guest, "Guests"), (.banned, "Banned"),
        (.mfa, "With MFA"), (.passkeys, "With passkeys"),
    ]

    func render(_ form: ConsoleForm, operator signedIn: ConsoleOperator) async throws -> HTML {
        let query = form[.query].map { String($0.prefix(320)) }
        let listing: Listing =
            if let query {
                .search(query)
            } else if let filtered = try Self.filtered(form, now: now()) {
                .filtered(filtered)
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
            if paging.page > 1 {
                links.append("<a href=\"/console/users?page=\(paging.page - 1)\">← Previous page</a>")
            }
            if paging.page < last { links.append("<a href=\"/console/users?page=\(paging.page + 1)\">Next page →</a>") }
            pager = "<nav class=\"pager\">\(links)</nav>"
        case .filtered(let request):
            let found = try await storage.read { try await $0.users(matching: request) }
            users = found.users
            summary = "<p class=\"muted\">\(users.count) shown · \(Self.describe(request))</p>"
            if let next = found.next {
                var link = "/console/users?filter=\(request.filter.rawValue)&after=\(next.text)"
                if let provider = request.provider { link += "&provider=\(provider.rawValue)" }
                let words = users.isEmpty ? "Look further →" : "Next page →"
                pager = "<nav class=\"pager\"><a href=\"\(link)\">\(words)</a></nav>"
            }
        }
        let search: HTML = """
            <section><form class="inline" method="get" action="/console/users">
            <label for="q" class="muted">Find a user</label>
            <input id="q" name="q" type="search" placeholder="address or id" value="\(query)">
            <button type="submit">Search</button></form>
            \(Self.filterBar(listing))</section>
            """
        let table: HTML =
            users.isEmpty
            ? "<p class=\"empty\">No user matches. Search by the start of an address or by a user id, or clear the search to list everyone.</p>"
            : """
            <table><thead><tr><th>Address</th><th>Created</th><th>Last sign-in</th><th>State</th></tr></thead>
            <tbody>\(users.map { Self.row($0, now: now()) })</tbody></table>
            """
        let notice =
            form[.done].flatMap(ConsoleNotice.init(rawValue:)).map { ConsoleLayout.notice($0.message) } ?? .empty
        return ConsoleLayout.page(
            title: "Users",
            operator: signedIn,
            notice: notice,
            content: "\(search)<section>\(summary)\(table)\(pager)</section>"
        )
    }

    /// The filter a link asked for: `filter=` one of ``ConsoleUserFilter``, with `provider=` for a
    /// provider, and `after=` the cursor of the page before; `nil` without a filter. A filter
    /// or cursor that is not one is 400 `validation_failed`.
    static func filtered(_ form: ConsoleForm, now: Date) throws -> ConsoleUserQuery? {
        guard let name = form[.filter] else { return nil }
        guard let filter = ConsoleUserFilter(rawValue: name) else {
            throw APIError.validation("Unknown filter: choose one of the links above the list.")
        }
        var provider: AuthProvider?
        if filter == .provider {
            guard let named = form[.provider]?.lowercased(), (1...40).contains(named.count),
                named.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
            else { throw APIError.validation("Name a provider, such as google, apple or email.") }
            provider = AuthProvider(rawValue: named)
        }
        var after: ConsoleUserCursor?
        if let text = form[.after] {
            guard let cursor = ConsoleUserCursor(text: text) else {
                throw APIError.validation("This page link is damaged: start the filter again.")
            }
            after = cursor
        }
        return ConsoleUserQuery(filter: filter, provider: provider, after: after, limit: perPage, now: now)
    }

    /// What a filtered page shows, in words.
    static func describe(_ request: ConsoleUserQuery) -> HTML {
        let label = filters.first { $0.0 == request.filter }?.1 ?? "With a \(request.provider?.rawValue ?? "") identity"
        let place = request.after == nil ? "from the first user" : "further on"
        return "\(label), \(place) (\(request.examined) users looked at per page, by creation time)"
    }

    /// The links to each filter, the provider field and the way back to everyone.
    static func filterBar(_ listing: Listing) -> HTML {
        let current: ConsoleUserFilter? = if case .filtered(let request) = listing { request.filter } else { nil }
        let links: [HTML] =
            [current == nil ? "<strong>All</strong>" : "<a href=\"/console/users\">All</a>"]
            + filters.map { filter, label -> HTML in
                current == filter
                    ? "<strong>\(label)</strong>" : "<a href=\"/console/users?filter=\(filter.rawValue)\">\(label)</a>"
            }
        return """
            <nav class="filters">\(links)</nav>
            <form class="inline" method="get" action="/console/users">
            <input type="hidden" name="filter" value="provider">
            <label for="provider" class="muted">With an identity of</label>
            <input id="provider" name="provider" placeholder="google" maxlength="40" required>
            <button type="submit">Filter</button></form>
            """
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
