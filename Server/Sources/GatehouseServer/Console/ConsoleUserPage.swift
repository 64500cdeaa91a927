import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage

/// `/console/users/{id}`: who the user is (profile, metadata), how they sign in (identities,
/// factors and passkeys: names, states and dates, never a secret), where they are signed in
/// (sessions: device, address, created, last refreshed, AAL), what happened to them (their audit
/// trail), and the actions (``ConsoleUserActions``): ban for a period or unban, end one session
/// or all, remove a factor or a passkey, send a recovery code, resend the confirmation, delete
/// the account.
struct ConsoleUserPage: Sendable {
    let storage: any AuthStorage
    let sessions: SessionListing
    let passkeys: PasskeyManagement
    let now: @Sendable () -> Date

    func render(_ user: UserRecord, notice: HTML, operator signedIn: ConsoleOperator) async throws -> HTML {
        let listed = try await sessions(of: user.id, current: signedIn.session.id).sessions
        let keys = try await passkeys.list(userID: user.id)
        let trail = try await storage.read { try await $0.auditEntries(matching: AuditQuery(user: user.id)) }
        let csrf = ConsoleLayout.csrfField(signedIn)
        let base = "/console/users/\(user.id.key)"
        let unban: HTML =
            user.isBanned(at: now())
            ? "<form class=\"inline\" method=\"post\" action=\"\(base)/unban\">\(csrf)<button type=\"submit\" id=\"unban\">Unban</button></form>"
            : .empty
        let content: HTML = """
            <section><h2>Profile</h2><dl>
            <dt>Address</dt><dd>\(user.email ?? "none")\(user.newEmail.map { " (changing to \($0))" })</dd>
            <dt>Id</dt><dd class="mono">\(user.id.key)</dd>
            <dt>State</dt><dd>\(ConsoleUsersPage.state(of: user, now: now()))</dd>
            <dt>Created</dt><dd>\(ConsoleLayout.time(user.createdAt))</dd>
            <dt>Confirmed</dt><dd>\(ConsoleLayout.time(user.emailConfirmedAt))</dd>
            <dt>Last sign-in</dt><dd>\(ConsoleLayout.time(user.lastSignInAt))</dd>
            <dt>Banned until</dt><dd>\(user.isBanned(at: now()) ? ConsoleLayout.time(user.bannedUntil) : "not banned")</dd>
            </dl>
            <h2>Ban</h2>
            <form class="inline" method="post" action="\(base)/ban">\(csrf)
            <label class="muted" for="duration">Ban for</label><select id="duration" name="duration">\(
                ConsoleBanPeriod.allCases.map { "<option value=\"\($0.rawValue)\">\($0.label)</option>" as HTML })</select>
            <button class="danger" type="submit" id="ban">Ban and end sessions</button></form>
            \(unban)
            </section>
            <section><h2>Metadata</h2>
            <h3 class="muted">User metadata</h3><pre>\(Self.json(user.userMetadata))</pre>
            <h3 class="muted">App metadata</h3><pre>\(Self.json(user.appMetadata))</pre></section>
            <section><h2>Identities</h2>\(Self.identities(user))</section>
            <section><h2>Factors</h2>\(Self.factors(user, base: base, csrf: csrf))</section>
            <section><h2>Passkeys</h2>\(Self.passkeys(keys, base: base, csrf: csrf))</section>
            <section><h2>Sessions</h2>\(Self.sessions(listed, base: base, csrf: csrf))</section>
            <section><h2>Audit trail</h2>\(ConsoleAuditPage.table(trail))
            <p><a href="/console/audit?user=\(user.id.key)">The whole trail in the audit log</a></p></section>
            \(Self.mail(user, base: base, csrf: csrf))
            \(Self.deletion(user, base: base, csrf: csrf, isOwnAccount: user.id == signedIn.user.id))
            """
        return ConsoleLayout.page(
            title: user.email ?? "User \(user.id.key)",
            operator: signedIn,
            notice: notice,
            content: content
        )
    }

    static func json(_ value: [String: JSONValue]) -> String {
        guard !value.isEmpty else { return "{}" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func identities(_ user: UserRecord) -> HTML {
        guard !user.identities.isEmpty else {
            return "<p class=\"empty\">No identity: the user signs in with an address and password or is a guest.</p>"
        }
        let rows: [HTML] = user.identities.map {
            "<tr><td>\($0.provider.rawValue)</td><td>\($0.email)</td><td>\(ConsoleLayout.time($0.createdAt))</td><td>\(ConsoleLayout.time($0.lastSignInAt))</td></tr>"
        }
        return
            "<table><thead><tr><th>Provider</th><th>Address</th><th>Linked</th><th>Last sign-in</th></tr></thead><tbody>\(rows)</tbody></table>"
    }

    static func factors(_ user: UserRecord, base: String, csrf: HTML) -> HTML {
        guard !user.factors.isEmpty else {
            return "<p class=\"empty\">No second factor: the user signs in with one factor (AAL1).</p>"
        }
        let rows: [HTML] = user.factors.map {
            """
            <tr><td>\($0.friendlyName)</td><td>\($0.factorType)</td><td>\($0.isVerified ? "verified" : "not verified")</td><td>\(ConsoleLayout.time($0.createdAt))</td>
            <td><form class="inline" method="post" action="\(base)/factors/\($0.id.key)/remove">\(csrf)
            <button class="danger" type="submit">Remove</button></form></td></tr>
            """
        }
        return
            "<table><thead><tr><th>Name</th><th>Type</th><th>State</th><th>Added</th><th></th></tr></thead><tbody>\(rows)</tbody></table>"
    }

    /// Name, created, last used: never the credential or its public key.
    static func passkeys(_ passkeys: [WirePasskey], base: String, csrf: HTML) -> HTML {
        guard !passkeys.isEmpty else { return "<p class=\"empty\">No passkey: the user has not registered one.</p>" }
        let rows: [HTML] = passkeys.map {
            """
            <tr><td>\($0.friendlyName ?? "unnamed passkey")</td><td>\(ConsoleLayout.time($0.createdAt))</td><td>\(ConsoleLayout.time($0.lastUsedAt))</td>
            <td><form class="inline" method="post" action="\(base)/passkeys/\($0.id.key)/remove">\(csrf)
            <button class="danger" type="submit">Remove</button></form></td></tr>
            """
        }
        return
            "<table><thead><tr><th>Name</th><th>Created</th><th>Last used</th><th></th></tr></thead><tbody>\(rows)</tbody></table>"
    }

    /// Send a recovery code; resend the confirmation of an unconfirmed address. The code goes
    /// to the user only: the console never shows it.
    static func mail(_ user: UserRecord, base: String, csrf: HTML) -> HTML {
        guard user.email != nil else {
            return
                "<section><h2>Mail</h2><p class=\"empty\">No address: nothing can be mailed to this user.</p></section>"
        }
        let resend: HTML =
            user.emailConfirmedAt == nil
            ? "<form class=\"inline\" method=\"post\" action=\"\(base)/confirmation\">\(csrf)<button type=\"submit\" id=\"resend-confirmation\">Resend the confirmation</button></form>"
            : .empty
        return """
            <section><h2>Mail</h2><p class="muted">Codes go to the user's address through the outbox; the console never shows them.</p>
            <form class="inline" method="post" action="\(base)/recovery">\(csrf)<button type="submit" id="send-recovery">Send a recovery code</button></form>
            \(resend)</section>
            """
    }

    /// Deleting the account: the operator types the address (or the id) to confirm; on their
    /// own account they are warned that they delete themselves.
    static func deletion(_ user: UserRecord, base: String, csrf: HTML, isOwnAccount: Bool) -> HTML {
        let expected = ConsoleDeletionConfirmation(for: user).expected
        let warning: HTML =
            isOwnAccount
            ? "<p class=\"notice error\" id=\"own-account\">This is your own account: deleting it ends your console session and your operator role with it.</p>"
            : .empty
        return """
            <section><h2>Delete the account</h2>
            <p class="muted">Deletes the user with their identities, factors, passkeys and sessions, for good.</p>\(warning)
            <form class="stack" method="post" action="\(base)/delete">\(csrf)
            <label for="confirm">Type <span class="mono">\(expected)</span> to confirm</label>
            <input id="confirm" name="confirm" type="text" autocomplete="off" required>
            <button class="danger" type="submit" id="delete">Delete the account</button></form></section>
            """
    }

    static func sessions(_ sessions: [WireDeviceSession], base: String, csrf: HTML) -> HTML {
        guard !sessions.isEmpty else { return "<p class=\"empty\">Not signed in anywhere.</p>" }
        let rows: [HTML] = sessions.map { session in
            """
            <tr><td>\(session.device ?? "unnamed device")\(session.current ? " (your console sign-in)" : "")<div class="mono muted">\(session.id.key)</div></td>
            <td>\(session.ip ?? "")</td><td>\(ConsoleLayout.time(session.createdAt))</td>
            <td>\(ConsoleLayout.time(session.refreshedAt))</td><td>\(session.aal)</td>
            <td><form class="inline" method="post" action="\(base)/sessions/\(session.id.key)/end">\(csrf)
            <button class="danger" type="submit">End</button></form></td></tr>
            """
        }
        return """
            <table><thead><tr><th>Device</th><th>Address</th><th>Signed in</th><th>Last refreshed</th><th>AAL</th><th></th></tr></thead>
            <tbody>\(rows)</tbody></table>
            <form class="inline" method="post" action="\(base)/sessions/end">\(csrf)
            <button class="danger" type="submit" id="end-all">End all sessions</button></form>
            """
    }
}
