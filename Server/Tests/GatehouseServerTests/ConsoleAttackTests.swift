import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 37: what an attacker tries against the console, over real HTTP: a form posted without
/// or with a forged or another operator's CSRF token, a revoked operator's cookie, a cookie
/// after the operator's sessions ended, after sign-out, past the idle and absolute limits,
/// `<script>` in a user's metadata and device label, a huge body, and a return address that
/// leaves the console.
@Suite("Console attacks")
struct ConsoleAttackTests {
    /// An operator signed in, a victim user with a session, over one live server.
    /// Whether the page's only script is the console's own time script, loaded from its origin.
    static func hasNoScriptButTheConsoles(_ html: String) -> Bool {
        let own = "<script src=\"/console/time.js\" defer></script>"
        return html.components(separatedBy: own).count == 2
            && !html.replacingOccurrences(of: own, with: "").lowercased().contains("<script")
    }

    static func scene(
        _ configure: @escaping (inout ServerConfiguration) -> Void = { _ in },
        _ body:
            @escaping @Sendable (Harness, Client, ConsoleVisitor, ConsoleOperatorAccount, UserRecord) async throws ->
            Void
    ) async throws {
        let harness = try await Harness.make(configure)
        defer { harness.removeFiles() }
        try await harness.live { client in
            let account = try await ConsoleOperatorAccount.make("op@example.com", client, harness)
            _ = try await client.confirmedSession(email: "victim@example.com")
            let victim = try #require(
                try await harness.server.storage.read { try await $0.user(email: "victim@example.com") }
            )
            let browser = ConsoleVisitor(client)
            let signedIn = try await browser.signIn(account.email, code: account.code(harness.clock))
            #expect(signedIn.status == .seeOther)
            try await body(harness, client, browser, account, victim)
        }
    }

    /// A console session row of `owner` as a sign-in writes it, over a session row raised to
    /// AAL2 with `factor` (AAL1 without): its cookie's token.
    static func consoleSession(of owner: UUID, factor: UUID?, _ harness: Harness) async throws -> String {
        let now = harness.clock.now()
        let session = SessionRecord(userID: owner, salt: "00", createdAt: now, refreshedAt: now, amr: [])
        let token = ConsoleSecrets.newToken()
        try await harness.server.storage.transaction { tx in
            try await tx.insertSession(session)
            if let factor { _ = try await tx.elevateSession(id: session.id, factorID: factor, amr: [], at: now) }
            try await tx.insertConsoleSession(
                ConsoleSessionRecord(
                    tokenHash: ConsoleSecrets.hash(token),
                    sessionID: session.id,
                    userID: owner,
                    createdAt: now,
                    lastSeenAt: now
                )
            )
        }
        return token
    }

    static func isBanned(_ id: UUID, _ harness: Harness) async throws -> Bool {
        try await harness.server.storage.read { try await $0.user(id: id) }?.isBanned(at: harness.clock.now()) ?? false
    }

    @Test func formsWithoutTheirCSRFTokenAreRefused() async throws {
        try await Self.scene { harness, client, browser, _, victim in
            let path = "/console/users/\(victim.id.key)/ban"
            let missing = try await browser.post(path, [("duration", "24h")])
            let forged = try await browser.post(path, [("csrf", "AAAA"), ("duration", "24h")])
            #expect(missing.status == .forbidden && forged.status == .forbidden)
            // Another operator's token (their own page's) does not fit this cookie.
            let other = try await ConsoleOperatorAccount.make("op2@example.com", client, harness)
            let second = ConsoleVisitor(client)
            try await second.signIn(other.email, code: other.code(harness.clock))
            let theirs = ConsoleVisitor.csrf(in: try await second.get("/console/users").text) ?? ""
            #expect(!theirs.isEmpty)
            let crossed = try await browser.post(path, [("csrf", theirs), ("duration", "24h")])
            #expect(crossed.status == .forbidden)
            #expect(try await !Self.isBanned(victim.id, harness))
            // The page's own token works.
            let done = try await browser.submit(path, from: "/console/users/\(victim.id.key)", [("duration", "24h")])
            #expect(done.status == .seeOther)
            #expect(try await Self.isBanned(victim.id, harness))
        }
    }

    @Test func aRevokedOperatorsCookieNoLongerOpensAnything() async throws {
        try await Self.scene { harness, client, browser, account, victim in
            let other = try await ConsoleOperatorAccount.make("op2@example.com", client, harness)
            let second = ConsoleVisitor(client)
            try await second.signIn(other.email, code: other.code(harness.clock))
            let page = "/console/users/\(victim.id.key)"
            let csrf = ConsoleVisitor.csrf(in: try await browser.get(page).text) ?? ""
            let token = try #require(browser.cookies["gatehouse-console"])
            try await OperatorRoles.revoke(email: account.email, storage: harness.server.storage)
            let after = try await browser.get("/console/users")
            #expect(after.status == .seeOther && after.header("Location")?.hasPrefix("/console/sign-in") == true)
            // The cookie and CSRF token kept from before the revoke (the browser drops the cookie
            // on the redirect; an attacker who copied it sends it again).
            let posted = try await client.send(
                .post,
                "\(page)/ban",
                json: "csrf=\(ConsoleVisitor.encode(csrf))&duration=24h",
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "gatehouse-console=\(token)"]
            )
            #expect(posted.status == .forbidden)
            #expect(try await !Self.isBanned(victim.id, harness))
            // The other operator is still in.
            #expect(try await second.get("/console/users").status == .ok)
            // And the revoked one cannot sign in again: the wrong-password answer.
            let again = try await ConsoleVisitor(client).signIn(account.email, code: account.code(harness.clock))
            #expect(again.status == .badRequest)
            let lines = try await harness.server.storage.read {
                try await $0.auditEntries(matching: AuditQuery(action: .operatorRevoked))
            }
            #expect(lines.count == 1)
        }
    }

    @Test func endingTheOperatorsSessionsEndsTheConsole() async throws {
        try await Self.scene { harness, client, browser, account, _ in
            #expect(try await browser.get("/console/users").status == .ok)
            let logout = try await client.post(
                "/logout?scope=global",
                "{}",
                bearer: account.session.string("access_token")
            )
            #expect(logout.status == .noContent)
            let after = try await browser.get("/console/users")
            #expect(after.status == .seeOther)
        }
    }

    @Test func signOutEndsTheConsoleSessionAndItsSessionRow() async throws {
        try await Self.scene { harness, client, browser, _, _ in
            let token = try #require(browser.cookies["gatehouse-console"])
            let record = try #require(
                try await harness.server.storage.read {
                    try await $0.consoleSession(tokenHash: ConsoleSecrets.hash(token))
                }
            )
            let out = try await browser.submit("/console/sign-out", from: "/console/users")
            #expect(out.status == .seeOther && out.header("Location") == "/console/sign-in")
            #expect(browser.cookies["gatehouse-console"] == nil)
            #expect(try await harness.server.storage.read { try await $0.session(id: record.sessionID) } == nil)
            let replay = try await client.send(
                .get,
                "/console/users",
                headers: ["Cookie": "gatehouse-console=\(token)"]
            )
            #expect(replay.status == .seeOther)
        }
    }

    @Test func theConsoleSessionEndsAfter30IdleMinutesAndAfter12Hours() async throws {
        try await Self.scene { harness, _, browser, account, _ in
            harness.clock.advance(by: 29 * 60)
            #expect(try await browser.get("/console/users").status == .ok)
            harness.clock.advance(by: 30 * 60 + 1)
            let idle = try await browser.get("/console/users")
            #expect(idle.status == .seeOther, "idle for 30 minutes")
            // A busy operator: a request every 20 minutes, cut off at 12 hours.
            try await browser.signIn(account.email, code: account.code(harness.clock))
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<37 {
                harness.clock.advance(by: 20 * 60)
                statuses.append(try await browser.get("/console/users").status)
            }
            #expect(statuses.prefix(35).allSatisfy { $0 == .ok }, "\(statuses)")
            #expect(statuses.last == .seeOther, "12 hours after sign-in")
        }
    }

    @Test func consoleSessionRowsWithoutTheRoleOrAtAAL1AreRefused() async throws {
        try await Self.scene { harness, client, _, account, _ in
            let storage = harness.server.storage
            let eve = try await ConsoleOperatorAccount.make("eve@example.com", client, harness, grant: false)
            let op = try #require(try await storage.read { try await $0.user(email: account.email) })
            let user = try #require(try await storage.read { try await $0.user(email: eve.email) })
            // Console session rows as a sign-in writes them, for: a user without the role (at
            // AAL2), the operator at AAL1, and the operator at AAL2 (which works).
            let cases: [(UUID, UUID?)] = [
                (user.id, UUID(text: eve.factorID)), (op.id, nil), (op.id, UUID(text: account.factorID)),
            ]
            var statuses: [HTTPResponse.Status] = []
            for (owner, factor) in cases {
                let token = try await Self.consoleSession(of: owner, factor: factor, harness)
                let answer = try await client.send(
                    .get,
                    "/console/users",
                    headers: ["Cookie": "gatehouse-console=\(token)"]
                )
                statuses.append(answer.status)
            }
            #expect(statuses == [.seeOther, .seeOther, .ok])
        }
    }

    @Test func scriptInMetadataAndDeviceLabelsIsEscaped() async throws {
        try await Self.scene { harness, client, browser, _, victim in
            let admin = try await harness.server.serviceRoleToken()
            let hostile = "<script>alert(1)</script>"
            let updated = try await client.send(
                .put,
                "/admin/users/\(victim.id.key)",
                json: #"{"user_metadata":{"name":"\#(hostile)","\#(hostile)":"x\"'&"}}"#,
                bearer: admin
            )
            #expect(updated.status == .ok)
            _ = try await client.post(
                "/token?grant_type=password",
                #"{"email":"victim@example.com","password":"correct horse battery","device":"<img src=x onerror=alert(2)>"}"#
            )
            let page = try await browser.get("/console/users/\(victim.id.key)")
            #expect(page.status == .ok)
            #expect(Self.hasNoScriptButTheConsoles(page.text), "a script tag reached the page")
            #expect(!page.text.contains("<img"), "an element from a device label reached the page")
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            // A filter value reflected into the audit page.
            let audit = try await browser.get(
                "/console/audit?action=%3Cscript%3Ealert(3)%3C%2Fscript%3E&user=%22%3E%3Cb%3E"
            )
            #expect(Self.hasNoScriptButTheConsoles(audit.text) && !audit.text.contains("\"><b>"))
            let search = try await browser.get("/console/users?q=%22%3E%3Cscript%3E")
            #expect(Self.hasNoScriptButTheConsoles(search.text))
        }
    }

    @Test func hugeBodiesAreRefused() async throws {
        try await Self.scene { harness, client, browser, _, victim in
            let page = "/console/users/\(victim.id.key)"
            let csrf = ConsoleVisitor.csrf(in: try await browser.get(page).text) ?? ""
            let big = String(repeating: "a", count: 100_000)
            let posted = try await browser.post("\(page)/ban", [("csrf", csrf), ("duration", "24h"), ("pad", big)])
            #expect(posted.status == .contentTooLarge)
            let huge = String(repeating: "b", count: 2 << 20)
            let signIn = try await ConsoleVisitor(client).post("/console/sign-in", [("pad", huge)])
            #expect(signIn.status == .contentTooLarge)
            #expect(try await !Self.isBanned(victim.id, harness))
        }
    }

    @Test func noReturnAddressLeavesTheConsole() async throws {
        for hostile in [
            "https://evil.example/", "//evil.example/console", "/\\evil.example", "/console/../../evil",
            "/console//evil.example",
            "javascript:alert(1)", "/console/users\r\nSet-Cookie: x=y", "/consolex",
        ] {
            #expect(ConsoleReturnPath(validating: hostile) == .users, "\(hostile)")
        }
        #expect(
            ConsoleReturnPath(validating: "/console/audit?user=abc&action=login").path
                == "/console/audit?user=abc&action=login"
        )
        try await Self.scene { harness, client, _, account, _ in
            for hostile in ["https://evil.example/", "//evil.example", "/\\evil.example"] {
                let browser = ConsoleVisitor(client)
                let answer = try await browser.signIn(account.email, code: account.code(harness.clock), next: hostile)
                #expect(answer.status == .seeOther)
                #expect(answer.header("Location") == "/console/users", "next=\(hostile)")
            }
            let browser = ConsoleVisitor(client)
            let kept = try await browser.signIn(account.email, code: account.code(harness.clock), next: "/console/keys")
            #expect(kept.header("Location") == "/console/keys")
            // A page asked for while signed out comes back as `next`, the console's own path only.
            let redirected = try await ConsoleVisitor(client).get("/console/audit")
            #expect(redirected.header("Location") == "/console/sign-in?next=/console/audit")
        }
    }

    @Test func pagesShowNoSecret() async throws {
        try await Self.scene { harness, client, browser, account, victim in
            _ = try await ConsoleOperatorAccount.make("mfa@example.com", client, harness, grant: false)
            let mfa = try #require(
                try await harness.server.storage.read { try await $0.user(email: "mfa@example.com") }
            )
            let signIn = try await client.signIn("victim@example.com")
            let refresh = try #require(signIn.string("refresh_token"))
            let access = try #require(signIn.string("access_token"))
            for user in [
                victim, mfa,
                try #require(try await harness.server.storage.read { try await $0.user(email: account.email) }),
            ] {
                let page = try await browser.get("/console/users/\(user.id.key)").text
                let stored = try #require(try await harness.server.storage.read { try await $0.user(id: user.id) })
                for secret in [stored.passwordHash ?? "-", refresh, access] + stored.factors.compactMap(\.sealedSecret)
                {
                    #expect(!page.contains(secret))
                }
                #expect(!page.contains("$2"), "a bcrypt hash")
            }
        }
    }
}
