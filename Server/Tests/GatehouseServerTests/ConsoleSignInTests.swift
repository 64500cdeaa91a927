import Foundation
import GatehouseCore
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 37: who may enter the console, over real HTTP. The console is off until an operator
/// exists and off entirely with `GATEHOUSE_CONSOLE_ENABLED=false`; an operator signs in with
/// password and TOTP (AAL2) and gets a strict cookie bound to a real session row; a
/// non-operator hears what a wrong password hears; an operator without a factor is told to
/// enrol; the sign-in counts against `/token`'s window.
@Suite("Console sign-in")
struct ConsoleSignInTests {
    static let wrongPassword = "Wrong e-mail or password."

    @Test func theConsoleIsOffUntilAnOperatorExistsAndWhenDisabled() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            #expect(try await client.get("/console/sign-in").status == .notFound)
            #expect(try await client.get("/console/users").status == .notFound)
            _ = try await ConsoleOperatorAccount.make("op@example.com", client, harness)
            let page = try await client.get("/console/sign-in")
            #expect(page.status == .ok)
            #expect(page.text.contains("name=\"csrf\""))
        }
        let disabled = try await Harness.make(directory: harness.directory) { $0.consoleEnabled = false }
        try await disabled.live { client in
            // The same database, with its operator, but the console switched off.
            let roles = try await OperatorRoles.list(storage: disabled.server.storage)
            #expect(roles.count == 1)
            let signIn = try await client.get("/console/sign-in")
            #expect(signIn.status == .notFound)
            let style = try await client.get("/console/style.css")
            #expect(style.status == .notFound)
        }
    }

    @Test func anOperatorSignsInWithPasswordAndTOTPAndGetsAStrictCookie() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let account = try await ConsoleOperatorAccount.make("op@example.com", client, harness)
            let browser = ConsoleVisitor(client)
            let answer = try await browser.signIn(account.email, code: account.code(harness.clock))
            #expect(answer.status == .seeOther)
            #expect(answer.header("Location") == "/console/users")
            let cookie = try #require(ConsoleVisitor.setCookies(answer).first { $0.hasPrefix("gatehouse-console=") })
            for attribute in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/", "Max-Age=43200"] {
                #expect(cookie.contains(attribute), "\(cookie) lacks \(attribute)")
            }
            let users = try await browser.get("/console/users")
            #expect(users.status == .ok)
            #expect(users.text.contains("op@example.com"))
            #expect(
                users.header("Content-Security-Policy")
                    == "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'"
            )
            #expect(users.header("X-Frame-Options") == "DENY")
            #expect(ConsoleAttackTests.hasNoScriptButTheConsoles(users.text), "the console's only script is its own")
            let script = try await client.get("/console/time.js")
            #expect(script.status == .ok && script.header("Content-Type") == "text/javascript; charset=utf-8")
            // The console session is a real AAL2 session row of the operator, named as such.
            let token = try #require(browser.cookies["gatehouse-console"])
            let record = try #require(
                try await harness.server.storage.read {
                    try await $0.consoleSession(tokenHash: ConsoleSecrets.hash(token))
                }
            )
            let session = try #require(
                try await harness.server.storage.read { try await $0.session(id: record.sessionID) }
            )
            #expect(session.aal == .aal2 && session.device == ConsoleSignIn.device)
            // The database holds the token's hash only.
            #expect(!(try await harness.databaseText()).contains(token))
        }
    }

    @Test func overHTTPSTheCookieHasTheHostPrefix() async throws {
        let harness = try await Harness.make { $0.apiExternalURL = "https://auth.example.com" }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let account = try await ConsoleOperatorAccount.make("op@example.com", client, harness)
            let browser = ConsoleVisitor(client)
            let page = try await browser.get("/console/sign-in")
            #expect(ConsoleVisitor.setCookies(page).allSatisfy { $0.hasPrefix("__Host-gatehouse-console-form=") })
            let answer = try await browser.signIn(account.email, code: account.code(harness.clock))
            #expect(ConsoleVisitor.setCookies(answer).contains { $0.hasPrefix("__Host-gatehouse-console=") })
            #expect(try await browser.get("/console/users").status == .ok)
        }
    }

    @Test func aNonOperatorIsRefusedWithTheWrongPasswordMessage() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await ConsoleOperatorAccount.make("op@example.com", client, harness)
            // A user with a password and a factor, but not an operator.
            let user = try await ConsoleOperatorAccount.make("eve@example.com", client, harness, grant: false)
            let sessionsBefore = try await Self.sessionCount(user.email, harness)
            let browser = ConsoleVisitor(client)
            let refused = try await browser.signIn(user.email, code: user.code(harness.clock))
            let wrong = try await ConsoleVisitor(client).signIn(
                user.email,
                password: "not the password",
                code: "000000"
            )
            #expect(refused.status == .badRequest && wrong.status == .badRequest)
            #expect(Self.notice(refused.text) == Self.wrongPassword)
            #expect(Self.notice(wrong.text) == Self.wrongPassword)
            #expect(browser.cookies["gatehouse-console"] == nil)
            // The session the password opened is gone again.
            #expect(try await Self.sessionCount(user.email, harness) == sessionsBefore)
            #expect(try await browser.get("/console/users").status == .seeOther)
        }
    }

    @Test func anOperatorWithoutAFactorOrWithAWrongCodeStaysOut() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let account = try await ConsoleOperatorAccount.make("op@example.com", client, harness)
            // An operator with a password only (AAL1 at best): told to enrol.
            _ = try await client.confirmedSession(email: "solo@example.com")
            try await OperatorRoles.grant(email: "solo@example.com", storage: harness.server.storage)
            let solo = ConsoleVisitor(client)
            let refused = try await solo.signIn("solo@example.com", code: "123456")
            #expect(refused.status == .forbidden)
            #expect(Self.notice(refused.text)?.contains("second factor") == true)
            #expect(solo.cookies["gatehouse-console"] == nil)
            // The right password with a wrong code: no console session.
            let browser = ConsoleVisitor(client)
            let wrongCode = try await browser.signIn(account.email, code: "000000")
            #expect(wrongCode.status == .badRequest)
            #expect(Self.notice(wrongCode.text)?.hasPrefix("Wrong or already used code") == true)
            #expect(browser.cookies["gatehouse-console"] == nil)
            #expect(try await browser.get("/console/users").status == .seeOther)
        }
    }

    @Test func aConsoleSessionWhoseSessionDropsToAAL1Ends() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let account = try await ConsoleOperatorAccount.make("op@example.com", client, harness)
            let browser = ConsoleVisitor(client)
            try await browser.signIn(account.email, code: account.code(harness.clock))
            #expect(try await browser.get("/console/users").status == .ok)
            // The operator removes their factor from the app (an AAL2 session): every session
            // that relied on it drops to AAL1, the console's among them.
            let removed = try await client.send(
                .delete,
                "/factors/\(account.factorID)",
                bearer: account.session.string("access_token")
            )
            #expect(removed.status == .ok)
            let after = try await browser.get("/console/users")
            #expect(after.status == .seeOther)
            #expect(after.header("Location")?.hasPrefix("/console/sign-in") == true)
        }
    }

    @Test func theSignInCountsAgainstTheTokenWindow() async throws {
        let harness = try await Harness.make { $0.rateLimits.token = 3 }
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await ConsoleOperatorAccount.make("op@example.com", client, harness)
            let browser = ConsoleVisitor(client)
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<4 {
                statuses.append(
                    try await browser.signIn("op@example.com", password: "wrong password", code: "1").status
                )
            }
            #expect(statuses.last == .tooManyRequests, "\(statuses)")
            // `/token` shares the window: the API's password grant is refused too.
            let token = try await client.post(
                "/token?grant_type=password",
                #"{"email":"op@example.com","password":"correct horse battery"}"#
            )
            #expect(token.status == .tooManyRequests)
        }
    }

    @Test func theSignInFormNeedsItsOwnCSRFToken() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let account = try await ConsoleOperatorAccount.make("op@example.com", client, harness)
            let fields = [
                ("email", account.email), ("password", "correct horse battery"), ("code", account.code(harness.clock)),
            ]
            // No form cookie and no token (a cross-site form): refused before the password.
            let bare = try await ConsoleVisitor(client).post("/console/sign-in", fields)
            #expect(bare.status == .forbidden)
            // The form cookie of one page with a made-up token.
            let browser = ConsoleVisitor(client)
            try await browser.get("/console/sign-in")
            let forged = try await browser.post("/console/sign-in", [("csrf", "forged")] + fields)
            #expect(forged.status == .forbidden)
            #expect(browser.cookies["gatehouse-console"] == nil)
        }
    }

    /// The text of the page's notice.
    static func notice(_ html: String) -> String? {
        guard let start = html.range(of: "role=\"status\">"), let end = html[start.upperBound...].range(of: "</p>")
        else {
            return nil
        }
        return String(html[start.upperBound..<end.lowerBound])
    }

    static func sessionCount(_ email: String, _ harness: Harness) async throws -> Int {
        try await harness.server.storage.read { reader in
            guard let user = try await reader.user(email: email) else { return 0 }
            return try await reader.sessions(
                userID: user.id,
                createdAfter: .distantPast,
                refreshedAfter: .distantPast,
                limit: 100
            )
            .count
        }
    }
}
