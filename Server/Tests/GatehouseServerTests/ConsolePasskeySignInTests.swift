import Foundation
import GatehouseCore
import GatehouseStorage
import GatehouseTesting
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 37: an operator signs in to the console with a passkey and the authenticator code, over
/// real HTTP, as an attacker would try it. The passkey takes the password's place, never the
/// second factor's (the table's ``SensitiveActionPolicy/Proof/operatorAtAAL2``): an operator
/// without a factor is told to enrol one, a wrong code is refused; a non-operator's valid passkey
/// hears what a wrong passkey hears and its session is ended; an assertion without user
/// verification, a replayed one, one for another site's RP id or origin, a forged or missing
/// challenge and a missing or forged CSRF token are refused.
@Suite("Console sign-in with a passkey")
struct ConsolePasskeySignInTests {
    /// The page's notice for every passkey refusal, as the page escapes it.
    static let refused = HTML.escape(ConsoleSignInPage.message(.wrongPasskey))

    static func scene(
        _ configure: @escaping (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (Harness, Client, ConsoleOperatorAccount, ConsolePasskey) async throws -> Void
    ) async throws {
        let harness = try await Harness.make {
            ConsolePasskey.enabled(&$0)
            configure(&$0)
        }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let account = try await ConsoleOperatorAccount.make("op@example.com", client, harness)
            let passkey = try await ConsolePasskey.register(bearer: account.session.string("access_token"), client)
            try await body(harness, client, account, passkey)
        }
    }

    static func user(_ email: String, _ harness: Harness) async throws -> UserRecord {
        try #require(try await harness.server.storage.read { try await $0.user(email: email) })
    }

    static func audit(_ harness: Harness) async throws -> [AuditEntry] {
        try await harness.server.storage.read { try await $0.auditEntries(limit: 50) }
    }

    @Test func anOperatorSignsInWithAPasskeyAndReachesTheConsole() async throws {
        try await Self.scene { harness, client, account, passkey in
            let browser = ConsoleVisitor(client)
            let page = try await browser.get("/console/sign-in")
            // The page offers the passkey through the console's own script, hidden until it runs.
            #expect(page.text.contains("<script src=\"/console/passkey.js\" defer></script>"))
            #expect(page.text.contains("<section id=\"passkey\" hidden>"))
            #expect(!page.text.replacingOccurrences(of: "<script src=", with: "").contains("<script"))
            let script = try await client.get("/console/passkey.js")
            #expect(script.status == .ok && script.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(script.text.contains("navigator.credentials.get"))

            let answer = try await passkey.signIn(browser, code: account.code(harness.clock), next: "/console/audit")
            #expect(answer.status == .seeOther, "\(answer.text)")
            #expect(answer.header("Location") == "/console/audit")
            let cookie = try #require(ConsoleVisitor.setCookies(answer).first { $0.hasPrefix("gatehouse-console=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Secure"))
            let overview = try await browser.get("/console")
            #expect(overview.status == .ok)
            #expect(overview.header("Content-Security-Policy") == ConsoleHeadersMiddleware.contentSecurityPolicy)
            #expect(try await browser.get("/console/users").text.contains(account.email))

            // The cookie is bound to a real session row the passkey opened, named as the console's.
            let token = try #require(browser.cookies["gatehouse-console"])
            let record = try #require(
                try await harness.server.storage.read {
                    try await $0.consoleSession(tokenHash: ConsoleSecrets.hash(token))
                }
            )
            let session = try #require(
                try await harness.server.storage.read { try await $0.session(id: record.sessionID) }
            )
            #expect(session.device == ConsoleSignIn.device)
            // The passkey, then the code: AAL2.
            #expect(Set(session.amr.map(\.method)) == [.passkey, .totp] && session.aal == .aal2)
            // The audit lines of the password path: the API's sign-in, the factor, the console's.
            let operatorID = try await Self.user(account.email, harness).id
            let lines = try await Self.audit(harness).filter { $0.actorID == operatorID }.map(\.action)
            #expect(lines.first == .consoleSignedIn, "\(lines)")
            #expect(Set(lines.prefix(4)) == [.consoleSignedIn, .factorVerified, .factorChallenged, .login], "\(lines)")

            // Signing out ends the console session and the row.
            let signOut = try await browser.submit("/console/sign-out", from: "/console")
            #expect(signOut.status == .seeOther)
            #expect(try await harness.server.storage.read { try await $0.session(id: record.sessionID) } == nil)
            #expect(try await browser.get("/console/users").status == .seeOther)
        }
    }

    @Test func aPasskeyIsAFirstFactorOnlyAndEndsWithTheOperatorsSessions() async throws {
        try await Self.scene { harness, client, account, passkey in
            // An operator with a password and a passkey but no authenticator app: told to enrol
            // one whichever way in, and the session each attempt opened is ended.
            let solo = try await client.confirmedSession(email: "solo@example.com")
            try await OperatorRoles.grant(email: "solo@example.com", storage: harness.server.storage)
            let soloPasskey = try await ConsolePasskey.register(bearer: solo.string("access_token"), client)
            let sessions = try await ConsoleSignInTests.sessionCount("solo@example.com", harness)
            let withPassword = try await ConsoleVisitor(client).signIn("solo@example.com", code: "123456")
            #expect(withPassword.status == .forbidden)
            let noFactor = ConsoleVisitor(client)
            let withPasskey = try await soloPasskey.signIn(noFactor, code: "123456")
            #expect(withPasskey.status == .forbidden)
            #expect(ConsoleSignInTests.notice(withPasskey.text) == HTML.escape(ConsoleSignInPage.message(.noFactor)))
            #expect(noFactor.cookies["gatehouse-console"] == nil)
            #expect(try await ConsoleSignInTests.sessionCount("solo@example.com", harness) == sessions)

            // The operator's passkey with a wrong code: refused, and its session ended.
            let operatorSessions = try await ConsoleSignInTests.sessionCount(account.email, harness)
            let wrong = ConsoleVisitor(client)
            let wrongCode = try await passkey.signIn(wrong, code: "000000")
            #expect(wrongCode.status == .badRequest)
            #expect(ConsoleSignInTests.notice(wrongCode.text) == HTML.escape(ConsoleSignInPage.message(.wrongCode)))
            #expect(wrong.cookies["gatehouse-console"] == nil)
            #expect(try await ConsoleSignInTests.sessionCount(account.email, harness) == operatorSessions)

            // With the code it admits; the operator's sessions ended from the API
            // (`POST /logout?scope=global` from the AAL2 session the account was made with) end
            // the console's with them.
            let browser = ConsoleVisitor(client)
            #expect(try await passkey.signIn(browser, code: account.code(harness.clock)).status == .seeOther)
            #expect(try await browser.get("/console/users").status == .ok)
            let logout = try await client.post("/logout?scope=global", bearer: account.session.string("access_token"))
            #expect(logout.status == .noContent)
            #expect(try await browser.get("/console/users").status == .seeOther)
            // And the role revoked ends the next one.
            let again = ConsoleVisitor(client)
            #expect(try await passkey.signIn(again, code: account.code(harness.clock)).status == .seeOther)
            try await OperatorRoles.revoke(email: account.email, storage: harness.server.storage)
            #expect(try await again.get("/console/users").status == .seeOther)
        }
    }

    @Test func aNonOperatorsValidPasskeyHearsTheWrongPasskeyAnswerAndItsSessionEnds() async throws {
        try await Self.scene { harness, client, _, _ in
            let eve = try await client.confirmedSession(email: "eve@example.com")
            let passkey = try await ConsolePasskey.register(bearer: eve.string("access_token"), client)
            let before = try await ConsoleSignInTests.sessionCount("eve@example.com", harness)
            let browser = ConsoleVisitor(client)
            let refused = try await passkey.signIn(browser)
            #expect(refused.status == .badRequest)
            #expect(ConsoleSignInTests.notice(refused.text) == Self.refused)
            #expect(browser.cookies["gatehouse-console"] == nil)
            // The session the passkey opened is gone again, and why is recorded.
            #expect(try await ConsoleSignInTests.sessionCount("eve@example.com", harness) == before)
            let eveID = try await Self.user("eve@example.com", harness).id
            let refusal = try await Self.audit(harness).first {
                $0.actorID == eveID && $0.action == .consoleSignInRefused
            }
            #expect(refusal?.detail == "not an operator")
            // The passkey is valid: the API signs in with it.
            #expect(try await passkey.apiRefusal(client) == nil)
            // A passkey no one registered hears the very same answer.
            let stranger = try await ConsolePasskey.store(SoftwarePasskeyAuthenticator(), for: UUID(), storage: nil)
            let unknown = try await stranger.signIn(ConsoleVisitor(client))
            #expect(unknown.status == .badRequest)
            #expect(ConsoleSignInTests.notice(unknown.text) == Self.refused)
        }
    }

    @Test func anAssertionWithoutUserVerificationIsRefused() async throws {
        try await Self.scene { harness, client, account, _ in
            let operatorID = try await Self.user(account.email, harness).id
            // The operator's passkey on an authenticator that only tests presence (no PIN, no
            // biometrics): one factor, which the console must not take for two.
            let presenceOnly = try await ConsolePasskey.store(
                SoftwarePasskeyAuthenticator(verifiesUser: false),
                for: operatorID,
                storage: harness.server.storage
            )
            let browser = ConsoleVisitor(client)
            let refused = try await presenceOnly.signIn(browser)
            #expect(refused.status == .badRequest)
            #expect(ConsoleSignInTests.notice(refused.text) == Self.refused)
            #expect(browser.cookies["gatehouse-console"] == nil)
            #expect(try await browser.get("/console").status == .seeOther)
            #expect(try await presenceOnly.apiRefusal(client)?.contains("user verification is required") == true)
            // The same kind of passkey, verifying its user, is let in: the flag is what was refused.
            let verifying = try await ConsolePasskey.store(
                SoftwarePasskeyAuthenticator(),
                for: operatorID,
                storage: harness.server.storage
            )
            #expect(
                try await verifying.signIn(ConsoleVisitor(client), code: account.code(harness.clock)).status
                    == .seeOther
            )
        }
    }

    @Test func aReplayedAssertionOrChallengeIsRefused() async throws {
        try await Self.scene { harness, client, account, passkey in
            let browser = ConsoleVisitor(client)
            let (csrf, options) = try await ConsolePasskey.options(browser)
            let (challengeID, credential) = try passkey.assertion(options)
            let fields = [
                ("csrf", csrf), ("challenge_id", challengeID), ("credential", credential),
                ("code", account.code(harness.clock)),
            ]
            #expect(try await browser.post("/console/sign-in/passkey", fields).status == .seeOther)
            // The very request again, from another browser with a valid form of its own and a
            // fresh code: the assertion is what is refused.
            let thief = ConsoleVisitor(client)
            let (thiefCSRF, _) = try await ConsolePasskey.options(thief)
            let replayed = try await thief.post(
                "/console/sign-in/passkey",
                [
                    ("csrf", thiefCSRF), ("challenge_id", challengeID), ("credential", credential),
                    ("code", account.code(harness.clock)),
                ]
            )
            #expect(replayed.status == .badRequest)
            #expect(ConsoleSignInTests.notice(replayed.text) == Self.refused)
            #expect(thief.cookies["gatehouse-console"] == nil)
            // The API's verify agrees: the challenge is gone.
            let again = try await client.post(
                "/passkeys/authentication/verify",
                #"{"challenge_id":"\#(challengeID)","credential":\#(credential)}"#
            )
            #expect(again.errorCode == "webauthn_challenge_not_found")
            // A new assertion over the used challenge, with the token of the page the refusal showed
            // (each sign-in page sets a form cookie of its own): refused too.
            let (_, fresh) = try passkey.assertion(options)
            let reused = try await thief.post(
                "/console/sign-in/passkey",
                [
                    ("csrf", ConsoleVisitor.csrf(in: replayed.text) ?? ""), ("challenge_id", challengeID),
                    ("credential", fresh),
                ]
            )
            #expect(reused.status == .badRequest && thief.cookies["gatehouse-console"] == nil)
        }
    }

    @Test func anotherSitesRPIDOrOriginIsRefused() async throws {
        try await Self.scene { harness, client, account, _ in
            let operatorID = try await Self.user(account.email, harness).id
            // A passkey made for a look-alike site's RP id, its client data naming our origin.
            let otherRP = try await ConsolePasskey.store(
                SoftwarePasskeyAuthenticator(origin: "https://example.com"),
                rpID: "examp1e.com",
                for: operatorID,
                storage: harness.server.storage
            )
            let browser = ConsoleVisitor(client)
            let (csrf, options) = try await ConsolePasskey.options(browser)
            let (challengeID, credential) = try otherRP.assertion(options, rpID: "examp1e.com")
            let wrongRP = try await browser.post(
                "/console/sign-in/passkey",
                [("csrf", csrf), ("challenge_id", challengeID), ("credential", credential)]
            )
            #expect(wrongRP.status == .badRequest)
            #expect(ConsoleSignInTests.notice(wrongRP.text) == Self.refused)
            #expect(try await otherRP.apiRefusal(client, rpID: "examp1e.com")?.contains("another RP id") == true)
            // Our RP id, asserted on another origin (a phishing page relaying our challenge).
            let otherOrigin = try await ConsolePasskey.store(
                SoftwarePasskeyAuthenticator(origin: "https://console.examp1e.com"),
                for: operatorID,
                storage: harness.server.storage
            )
            let phished = try await otherOrigin.signIn(browser)
            #expect(phished.status == .badRequest)
            #expect(ConsoleSignInTests.notice(phished.text) == Self.refused)
            #expect(browser.cookies["gatehouse-console"] == nil)
            #expect(try await otherOrigin.apiRefusal(client)?.contains("is not allowed") == true)
        }
    }

    @Test func aForgedOrMissingCSRFTokenOrChallengeIsRefused() async throws {
        try await Self.scene { harness, client, account, passkey in
            // Options without the page's token (a cross-site fetch): refused, no challenge issued.
            let bare = try await ConsoleVisitor(client).post("/console/sign-in/passkey/options", [])
            #expect(bare.status == .forbidden && bare["challenge_id"] == nil)
            let forgedOptions = try await ConsolePasskey.options(ConsoleVisitor(client), csrf: "forged")
            #expect(forgedOptions.reply.status == .forbidden && forgedOptions.reply["challenge_id"] == nil)

            // A valid assertion posted without the form's token, or with a forged one: refused
            // before the assertion is looked at, so its challenge is not spent.
            let browser = ConsoleVisitor(client)
            let (csrf, options) = try await ConsolePasskey.options(browser)
            let (challengeID, credential) = try passkey.assertion(options)
            let assertion = [("challenge_id", challengeID), ("credential", credential)]
            let noToken = try await ConsoleVisitor(client).post("/console/sign-in/passkey", assertion)
            #expect(noToken.status == .forbidden)
            let forged = try await browser.post("/console/sign-in/passkey", [("csrf", "forged")] + assertion)
            #expect(forged.status == .forbidden)
            #expect(browser.cookies["gatehouse-console"] == nil)
            // The challenge was not spent by the refused posts: with the token of the page the
            // refusal showed (each sign-in page sets a form cookie of its own), it signs in.
            #expect(ConsoleVisitor.csrf(in: forged.text) != csrf)
            let genuine = try await browser.post(
                "/console/sign-in/passkey",
                [("csrf", ConsoleVisitor.csrf(in: forged.text) ?? ""), ("code", account.code(harness.clock))]
                    + assertion
            )
            #expect(genuine.status == .seeOther && browser.cookies["gatehouse-console"] != nil)

            // A challenge the server never issued, none at all, or no credential: refused.
            for fields in [
                [("challenge_id", UUID().uuidString), ("credential", credential)],
                [("credential", credential)],
                [("challenge_id", challengeID), ("credential", "{not json")],
            ] {
                let visitor = ConsoleVisitor(client)
                let page = try await visitor.get("/console/sign-in")
                let reply = try await visitor.post(
                    "/console/sign-in/passkey",
                    [("csrf", ConsoleVisitor.csrf(in: page.text) ?? "")] + fields
                )
                #expect(reply.status == .badRequest, "\(fields.map(\.0))")
                #expect(ConsoleSignInTests.notice(reply.text) == Self.refused)
                #expect(visitor.cookies["gatehouse-console"] == nil)
            }
        }
    }

    @Test func theSignInSpendsTheAPIsPasskeyWindow() async throws {
        // Registration spends two requests of the window; the console's options and sign-in
        // spend the rest, and then the API's passkey routes are refused too.
        try await Self.scene({ $0.rateLimits.passkey = 4 }) { harness, client, account, passkey in
            let browser = ConsoleVisitor(client)
            #expect(try await passkey.signIn(browser, code: account.code(harness.clock)).status == .seeOther)
            let (_, refused) = try await ConsolePasskey.options(ConsoleVisitor(client))
            #expect(refused.status == .tooManyRequests)
            #expect(ConsoleSignInTests.notice(refused.text)?.hasPrefix("Too many tries") == true)
            // The page's form stays good: the refusal sets no new form cookie.
            #expect(!ConsoleVisitor.setCookies(refused).contains { $0.hasPrefix("gatehouse-console-form=") })
            #expect(try await client.post("/passkeys/authentication/options").status == .tooManyRequests)
        }
    }

    @Test func theTableDecidesWhatAdmitsAnOperator() throws {
        let now = Date()
        func session(_ methods: [AuthenticationMethod], aal: AuthenticatorAssuranceLevel) -> SessionRecord {
            var record = SessionRecord(
                userID: UUID(),
                salt: "",
                createdAt: now,
                refreshedAt: now,
                amr: methods.map { AMREntry(method: $0, timestamp: Int(now.timeIntervalSince1970)) }
            )
            record.aal = aal
            return record
        }
        #expect(SensitiveActionPolicy.rule(for: .consoleSignIn).proof == .operatorAtAAL2)
        let password = session([.password], aal: .aal1)
        let passwordAndCode = session([.totp, .password], aal: .aal2)
        let passkey = session([.passkey], aal: .aal1)
        let passkeyAndCode = session([.totp, .passkey], aal: .aal2)
        #expect(!SensitiveActionPolicy.admitsOperator(password, isOperator: true))
        #expect(!SensitiveActionPolicy.admitsOperator(passkey, isOperator: true))
        #expect(SensitiveActionPolicy.admitsOperator(passwordAndCode, isOperator: true))
        #expect(SensitiveActionPolicy.admitsOperator(passkeyAndCode, isOperator: true))
        for admitted in [passwordAndCode, passkeyAndCode] {
            #expect(!SensitiveActionPolicy.admitsOperator(admitted, isOperator: false))
        }
    }
}
