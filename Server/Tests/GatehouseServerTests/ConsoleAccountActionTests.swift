import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 37: the user page's account actions over real HTTP: remove a factor or a passkey, send
/// a recovery code, resend the confirmation, delete the account with a typed confirmation. Each
/// runs the admin API's flow (`FactorUnenrollment.admin`, `PasskeyManagement.adminRemove`,
/// `PasswordRecovery`, `CodeResend`, `AdminUserDeletion`) and writes its audit line with the
/// operator as the actor and the user as the subject. The attacker's side: a missing or forged
/// CSRF token, another user's factor or passkey id under this user's address, a console session
/// of a non-operator or at AAL1, a wrong typed confirmation: each refused, touching nothing.
@Suite("Console account actions")
struct ConsoleAccountActionTests {
    static func line(_ harness: Harness, _ action: AuditAction, subject: UUID) async throws -> AuditEntry? {
        try await ConsoleActionTests.lines(harness, AuditQuery(user: subject, action: action)).first
    }

    static func operatorID(_ harness: Harness, _ account: ConsoleOperatorAccount) async throws -> UUID {
        try #require(try await harness.server.storage.read { try await $0.user(email: account.email) }).id
    }

    static func factors(_ harness: Harness, _ id: UUID) async throws -> [FactorRecord] {
        try await harness.server.storage.read { try await $0.user(id: id) }?.factors ?? []
    }

    static func passkeys(_ harness: Harness, _ id: UUID) async throws -> [PasskeyRecord] {
        try await harness.server.storage.read { try await $0.passkeys(userID: id) }
    }

    @Test func anOperatorIsWarnedBeforeDeletingTheirOwnAccount() async throws {
        try await ConsoleAttackTests.scene { harness, _, browser, account, victim in
            let own = try await browser.get("/console/users/\(try await Self.operatorID(harness, account).key)")
            #expect(own.status == .ok && own.text.contains("id=\"own-account\""))
            #expect(own.text.contains("This is your own account"))
            let other = try await browser.get("/console/users/\(victim.id.key)")
            #expect(other.status == .ok && !other.text.contains("own-account"))
        }
    }

    @Test func removingAFactorGoesThroughTheAdminFlowAndOnlyForThatUser() async throws {
        try await ConsoleAttackTests.scene { harness, client, browser, account, victim in
            let ada = try await ConsoleOperatorAccount.make("ada@example.com", client, harness, grant: false)
            let user = try #require(try await harness.server.storage.read { try await $0.user(email: ada.email) })
            let factor = try #require(UUID(text: ada.factorID))
            let page = "/console/users/\(user.id.key)"
            #expect(try await browser.get(page).text.contains("/factors/\(factor.key)/remove"))
            // Without the page's token, or with a forged one: refused, the factor stays.
            let missing = try await browser.post("\(page)/factors/\(factor.key)/remove", [])
            let forged = try await browser.post("\(page)/factors/\(factor.key)/remove", [("csrf", "AAAA")])
            #expect(missing.status == .forbidden && forged.status == .forbidden)
            // Her factor's id under the victim's address: not the victim's, so 404 and nothing goes.
            let crossed = try await browser.submit(
                "/console/users/\(victim.id.key)/factors/\(factor.key)/remove",
                from: "/console/users/\(victim.id.key)"
            )
            #expect(crossed.status == .notFound)
            #expect(try await Self.factors(harness, user.id).map(\.id) == [factor])
            let removed = try await browser.submit("\(page)/factors/\(factor.key)/remove", from: page)
            #expect(removed.status == .seeOther && removed.header("Location") == "\(page)?done=factor-removed")
            #expect(try await Self.factors(harness, user.id).isEmpty)
            // Her AAL2 session is back at AAL1, as after `DELETE /admin/users/{id}/factors/{id}`.
            let sessions = try await harness.server.storage.read {
                try await $0.sessions(
                    userID: user.id,
                    createdAfter: .distantPast,
                    refreshedAfter: .distantPast,
                    limit: 100
                )
            }
            #expect(!sessions.isEmpty && sessions.allSatisfy { $0.aal == .aal1 })
            let line = try #require(try await Self.line(harness, .factorDeletedByAdmin, subject: user.id))
            #expect(line.actorID == (try await Self.operatorID(harness, account)))
            #expect(line.subjectID == user.id && line.detail == factor.key)
            #expect(try await browser.get("\(page)?done=factor-removed").text.contains("The factor is removed"))
        }
    }

    @Test func passkeysAreListedWithoutSecretsAndRemovedOnlyForThatUser() async throws {
        try await ConsoleAttackTests.scene { harness, client, browser, account, victim in
            _ = try await client.confirmedSession(email: "other@example.com")
            let other = try #require(
                try await harness.server.storage.read { try await $0.user(email: "other@example.com") }
            )
            let mine = try await SignInWaysTests.insertPasskey(for: victim.id.key, in: harness)
            let theirs = try await SignInWaysTests.insertPasskey(for: other.id.key, in: harness)
            let stored = try #require(try await Self.passkeys(harness, victim.id).first)
            let page = "/console/users/\(victim.id.key)"
            let shown = try await browser.get(page).text
            #expect(
                shown.contains("<h2>Passkeys</h2>") && shown.contains("iPhone")
                    && shown.contains("/passkeys/\(mine.key)/remove")
            )
            #expect(!shown.contains(stored.credentialID) && !shown.contains(stored.aaguid))
            let forged = try await browser.post("\(page)/passkeys/\(mine.key)/remove", [("csrf", "forged")])
            #expect(forged.status == .forbidden)
            // Another user's passkey id under the victim's address: 404, and it stays.
            let crossed = try await browser.submit("\(page)/passkeys/\(theirs.key)/remove", from: page)
            #expect(crossed.status == .notFound)
            #expect(try await Self.passkeys(harness, other.id).map(\.id) == [theirs])
            #expect(try await Self.passkeys(harness, victim.id).map(\.id) == [mine])
            let removed = try await browser.submit("\(page)/passkeys/\(mine.key)/remove", from: page)
            #expect(removed.status == .seeOther && removed.header("Location") == "\(page)?done=passkey-removed")
            #expect(try await Self.passkeys(harness, victim.id).isEmpty)
            let line = try #require(try await Self.line(harness, .passkeyDeleted, subject: victim.id))
            #expect(line.actorID == (try await Self.operatorID(harness, account)) && line.subjectID == victim.id)
            #expect(try await browser.get(page).text.contains("No passkey"))
        }
    }

    @Test func aRecoveryCodeIsMailedToTheUserAndNeverShown() async throws {
        try await ConsoleAttackTests.scene { harness, client, browser, account, victim in
            let page = "/console/users/\(victim.id.key)"
            let subject = CodeMailTemplate.subject(for: .recovery)
            let forged = try await browser.post("\(page)/recovery", [("csrf", "forged")])
            #expect(forged.status == .forbidden)
            try await client.waitForOutbox()
            #expect(await harness.mailer.sent.filter { $0.subject == subject }.isEmpty)
            let sent = try await browser.submit("\(page)/recovery", from: page)
            #expect(sent.status == .seeOther && sent.header("Location") == "\(page)?done=recovery-sent")
            let code = try await client.waitForCode(to: "victim@example.com", subject: subject)
            let after = try await browser.get("\(page)?done=recovery-sent")
            #expect(after.text.contains("A recovery code is on its way") && !after.text.contains(code))
            let line = try #require(try await Self.line(harness, .recoverySent, subject: victim.id))
            #expect(line.actorID == (try await Self.operatorID(harness, account)) && line.subjectID == victim.id)
            // Again within the send spacing: the operator is told, and no second mail goes out.
            let again = try await browser.submit("\(page)/recovery", from: page)
            #expect(again.status == .tooManyRequests && again.text.contains("you can only request this after"))
            try await client.waitForOutbox()
            #expect(await harness.mailer.sent.filter { $0.subject == subject }.count == 1)
            // The code is /recover's, still the one out: it signs the user in.
            let verified = try await client.post(
                "/verify",
                #"{"type":"recovery","email":"victim@example.com","token":"\#(code)"}"#
            )
            #expect(verified.status == .ok)
        }
    }

    @Test func theConfirmationIsResentOnlyToAnUnconfirmedAddress() async throws {
        try await ConsoleAttackTests.scene { harness, client, browser, account, victim in
            let subject = CodeMailTemplate.subject(for: .signup)
            #expect(
                try await client.post("/signup", #"{"email":"pending@example.net","password":"correct horse battery"}"#)
                    .status == .ok
            )
            try await client.waitForOutbox()
            let pending = try #require(
                try await harness.server.storage.read { try await $0.user(email: "pending@example.net") }
            )
            #expect(pending.emailConfirmedAt == nil)
            harness.clock.advance(by: Double(harness.configuration.smtpMaxFrequency + 1))
            let page = "/console/users/\(pending.id.key)"
            #expect(try await browser.get(page).text.contains("id=\"resend-confirmation\""))
            let missing = try await browser.post("\(page)/confirmation", [])
            #expect(missing.status == .forbidden)
            let resent = try await browser.submit("\(page)/confirmation", from: page)
            #expect(resent.status == .seeOther && resent.header("Location") == "\(page)?done=confirmation-resent")
            let code = try await client.waitForCode(to: "pending@example.net", subject: subject)
            #expect(
                await harness.mailer.sent.filter { $0.to == "pending@example.net" && $0.subject == subject }.count == 2
            )
            #expect(!(try await browser.get(page).text.contains(code)))
            let line = try #require(try await Self.line(harness, .confirmationResent, subject: pending.id))
            #expect(line.actorID == (try await Self.operatorID(harness, account)) && line.subjectID == pending.id)
            let confirmed = try await client.post(
                "/verify",
                #"{"type":"signup","email":"pending@example.net","token":"\#(code)"}"#
            )
            #expect(confirmed.status == .ok)
            // A confirmed address: a clear notice, no mail, no audit line.
            let victimPage = "/console/users/\(victim.id.key)"
            #expect(!(try await browser.get(victimPage).text.contains("id=\"resend-confirmation\"")))
            let before = await harness.mailer.sent.count
            let refused = try await browser.submit("\(victimPage)/confirmation", from: victimPage)
            #expect(refused.status == .conflict && refused.text.contains("confirmed already"))
            try await client.waitForOutbox()
            #expect(await harness.mailer.sent.count == before)
            #expect(try await Self.line(harness, .confirmationResent, subject: victim.id) == nil)
        }
    }

    @Test func deletingAnAccountNeedsItsAddressTyped() async throws {
        try await ConsoleAttackTests.scene { harness, client, browser, account, victim in
            let page = "/console/users/\(victim.id.key)"
            let storage = harness.server.storage
            for wrong in ["", "op@example.com", "victim@example", victim.id.key] {
                let refused = try await browser.submit("\(page)/delete", from: page, [("confirm", wrong)])
                #expect(refused.status == .unprocessableContent, "typed \(wrong)")
                #expect(refused.text.contains("Not deleted: type the user&#39;s address, victim@example.com, exactly"))
            }
            let forged = try await browser.post(
                "\(page)/delete",
                [("csrf", "forged"), ("confirm", "victim@example.com")]
            )
            #expect(forged.status == .forbidden)
            #expect(try await storage.read { try await $0.user(id: victim.id) } != nil)
            #expect(try await Self.line(harness, .adminUserDeleted, subject: victim.id) == nil)
            // Each refused confirmation is on the audit log, by the operator, with what was typed;
            // the forged form never reached the check.
            let refusals = try await ConsoleActionTests.lines(
                harness,
                AuditQuery(user: victim.id, action: .consoleDeletionRefused)
            )
            let operatorID = try await Self.operatorID(harness, account)
            #expect(refusals.count == 4 && refusals.allSatisfy { $0.actorID == operatorID })
            #expect(Set(refusals.map { $0.detail ?? "" }) == ["", "op@example.com", "victim@example", victim.id.key])
            // The address as typed by a person: another case, a space around it.
            let deleted = try await browser.submit("\(page)/delete", from: page, [("confirm", " Victim@Example.com ")])
            #expect(deleted.status == .seeOther && deleted.header("Location") == "/console/users?done=user-deleted")
            #expect(try await storage.read { try await $0.user(id: victim.id) } == nil)
            #expect(try await client.signIn("victim@example.com").status == .badRequest)
            let line = try #require(try await Self.line(harness, .adminUserDeleted, subject: victim.id))
            #expect(line.actorID == (try await Self.operatorID(harness, account)) && line.subjectID == victim.id)
            #expect(try await browser.get("/console/users?done=user-deleted").text.contains("The account is deleted"))
            #expect(try await browser.get(page).status == .notFound)
            // A guest has no address: nothing can be mailed, and the id is what is typed.
            let guest = try await client.post("/signup", "{}")
            let guestText = try #require(guest.user["id"] as? String)
            let guestID = try #require(UUID(text: guestText))
            let guestPage = "/console/users/\(guestID.key)"
            #expect(try await browser.get(guestPage).text.contains("Type <span class=\"mono\">\(guestID.key)</span>"))
            let unmailed = try await browser.submit("\(guestPage)/recovery", from: guestPage)
            #expect(unmailed.status == .badRequest && unmailed.text.contains("no e-mail address"))
            let refused = try await browser.submit("\(guestPage)/delete", from: guestPage, [("confirm", "guest")])
            #expect(refused.status == .unprocessableContent && refused.text.contains("type the user&#39;s id"))
            #expect(try await storage.read { try await $0.user(id: guestID) } != nil)
            let gone = try await browser.submit(
                "\(guestPage)/delete",
                from: guestPage,
                [("confirm", guestID.key.uppercased())]
            )
            #expect(gone.status == .seeOther)
            #expect(try await storage.read { try await $0.user(id: guestID) } == nil)
        }
    }

    @Test func aNonOperatorOrAnAAL1ConsoleSessionCannotAct() async throws {
        try await ConsoleAttackTests.scene { harness, client, _, account, victim in
            let storage = harness.server.storage
            let eve = try await ConsoleOperatorAccount.make("eve@example.com", client, harness, grant: false)
            let eveUser = try #require(try await storage.read { try await $0.user(email: eve.email) })
            let factor = try #require(UUID(text: eve.factorID))
            let passkey = try await SignInWaysTests.insertPasskey(for: victim.id.key, in: harness)
            let op = try await Self.operatorID(harness, account)
            let page = "/console/users/\(victim.id.key)"
            let actions: [(String, [(String, String)])] = [
                ("/console/users/\(eveUser.id.key)/factors/\(factor.key)/remove", []),
                ("\(page)/passkeys/\(passkey.key)/remove", []),
                ("\(page)/recovery", []),
                ("\(page)/confirmation", []),
                ("\(page)/delete", [("confirm", "victim@example.com")]),
            ]
            // Console sessions as a sign-in writes them, each with its own valid CSRF token: a
            // user without the role at AAL2, and the operator at AAL1.
            for (owner, elevated) in [(eveUser.id, factor), (op, nil)] {
                let token = try await ConsoleAttackTests.consoleSession(of: owner, factor: elevated, harness)
                let csrf = harness.server.services.consoleSecrets.csrf(for: token)
                for (path, fields) in actions {
                    let body = ([("csrf", csrf)] + fields).map { "\($0.0)=\(ConsoleVisitor.encode($0.1))" }.joined(
                        separator: "&"
                    )
                    let answer = try await client.send(
                        .post,
                        path,
                        json: body,
                        headers: [
                            "Content-Type": "application/x-www-form-urlencoded", "Cookie": "gatehouse-console=\(token)",
                        ]
                    )
                    #expect(
                        answer.status == .forbidden,
                        "\(path) as \(owner == op ? "the operator at AAL1" : "a non-operator")"
                    )
                }
            }
            try await client.waitForOutbox()
            #expect(try await Self.factors(harness, eveUser.id).map(\.id) == [factor])
            #expect(try await Self.passkeys(harness, victim.id).map(\.id) == [passkey])
            #expect(try await storage.read { try await $0.user(id: victim.id) } != nil)
            #expect(
                await harness.mailer.sent.filter { $0.to == "victim@example.com" }.count == 1,
                "the sign-up mail only"
            )
        }
    }
}
