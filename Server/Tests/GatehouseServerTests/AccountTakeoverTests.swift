import Foundation
import GatehouseServer
import GatehouseStorage
import HTTPTypes
import Testing

/// The five takeovers of issue 14, each played as an attacker would over HTTP against the real
/// server (`security.md` OWN-1 to OWN-4, SE-5, SE-6, OTP-5).
@Suite("Account takeover attempts")
struct AccountTakeoverTests {
    static let victim = "victim@example.com"
    static let attackerPassword = "attacker chosen phrase"
    static let victimPassword = "victim own phrase"

    @Test func preHijackedSignUpLosesItsPasswordWhenTheOwnerSignsInByCode() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            // Given: the attacker signs up the victim's address and never confirms.
            _ = try await client.post("/signup", Self.signUpBody(Self.attackerPassword))
            let attackerSession = try await client.signIn(Self.victim, Self.attackerPassword)
            #expect(attackerSession.errorCode == "email_not_confirmed")
            // When: the victim signs in by e-mailed code.
            #expect(try await client.post("/otp", #"{"email":"\#(Self.victim)"}"#).status == .ok)
            let code = try await client.waitForCode(to: Self.victim, subject: "Your sign-in code")
            let session = try await client.post(
                "/verify",
                #"{"type":"email","email":"\#(Self.victim)","token":"\#(code)"}"#
            )
            #expect(session.status == .ok)
            // Then: the attacker's password no longer signs in, and the audit log says why.
            #expect(try await client.signIn(Self.victim, Self.attackerPassword).errorCode == "invalid_credentials")
            let audit = try await harness.server.storage.transaction { try await $0.auditEntries(limit: 20) }
            #expect(audit.contains { $0.action == .unprovenPasswordDropped })
        }
    }

    @Test func aContestedSignUpHandsTheAddressToNeitherPasswordAttackerFirst() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let fresh = try await client.post("/signup", #"{"email":"new@example.com","password":"some other phrase"}"#)
            let first = try await client.post("/signup", Self.signUpBody(Self.attackerPassword))
            _ = try await client.waitForMail(to: Self.victim, count: 1)
            let second = try await client.post("/signup", Self.signUpBody(Self.victimPassword))
            #expect(second.status == .ok)
            #expect(Set(second.json.keys) == Set(fresh.json.keys), "same fields as a new sign-up")
            #expect((second["identities"] as? [Any])?.count == (fresh["identities"] as? [Any])?.count)
            #expect(second.string("id") != first.string("id"), "a look-alike id, not the pending account's")
            // The victim's sign-up sent a fresh code; they confirm through /resend as well.
            _ = try await client.waitForMail(to: Self.victim, count: 2)
            _ = try await client.post("/resend", #"{"type":"signup","email":"\#(Self.victim)"}"#)
            try await Self.confirmTheContestedSignUp(client, harness)
        }
    }

    @Test func aContestedSignUpHandsTheAddressToNeitherPasswordOwnerFirst() async throws {
        // Issue 31, finding 3: the owner signs up, the attacker signs up the same address before
        // the owner confirms, and the owner confirms with the newest code.
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let owner = try await client.post("/signup", Self.signUpBody(Self.victimPassword))
            _ = try await client.waitForMail(to: Self.victim, count: 1)
            let attacker = try await client.post("/signup", Self.signUpBody(Self.attackerPassword))
            #expect(attacker.status == .ok)
            #expect(attacker.string("id") != owner.string("id"), "the attacker learns no account id")
            _ = try await client.waitForMail(to: Self.victim, count: 2)
            try await Self.confirmTheContestedSignUp(client, harness)
        }
    }

    @Test func aResentCodeNeverProvesAContestedPassword() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/signup", Self.signUpBody(Self.victimPassword))
            _ = try await client.waitForMail(to: Self.victim, count: 1)
            harness.clock.advance(by: 61)
            _ = try await client.post("/signup", Self.signUpBody(Self.attackerPassword))
            _ = try await client.waitForMail(to: Self.victim, count: 2)
            harness.clock.advance(by: 61)
            _ = try await client.post("/resend", #"{"type":"signup","email":"\#(Self.victim)"}"#)
            _ = try await client.waitForMail(to: Self.victim, count: 3)
            try await Self.confirmTheContestedSignUp(client, harness)
        }
    }

    @Test func racingSignUpsForOnePendingAddressHandItToNoPassword() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/signup", Self.signUpBody(Self.victimPassword))
            _ = try await client.waitForMail(to: Self.victim, count: 1)
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<6 {
                    group.addTask { _ = try? await client.post("/signup", Self.signUpBody("racing phrase \(index)")) }
                }
            }
            // Each sign-up replaced the code before it; the outbox never sends a replaced code's
            // mail, so the newest code arrives, and the ones it replaced may not.
            try await client.waitForOutbox()
            #expect(await client.mailCount(to: Self.victim) >= 2, "the newest code arrived")
            try await Self.confirmTheContestedSignUp(client, harness)
            for index in 0..<6 {
                harness.clock.advance(by: 61)
                #expect(
                    try await client.signIn(Self.victim, "racing phrase \(index)").errorCode == "invalid_credentials"
                )
            }
        }
    }

    @Test func anUncontestedSignUpsResentCodeStillProvesItsPassword() async throws {
        // The owner's own path is unchanged: sign up, ask for the code again, confirm, sign in.
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/signup", Self.signUpBody(Self.victimPassword))
            _ = try await client.waitForMail(to: Self.victim, count: 1)
            harness.clock.advance(by: 61)
            _ = try await client.post("/resend", #"{"type":"signup","email":"\#(Self.victim)"}"#)
            let code = try await client.waitForMail(to: Self.victim, count: 2)
            let verified = try await client.post(
                "/verify",
                #"{"type":"signup","email":"\#(Self.victim)","token":"\#(code)"}"#
            )
            #expect(verified.status == .ok)
            #expect(try await client.signIn(Self.victim, Self.victimPassword).status == .ok)
        }
    }

    @Test func aGuestCannotClaimTheVictimsAddress() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            // Given: a guest writes the victim's address and a password into its account.
            let guest = try await client.post("/signup", "{}")
            let guestID = try #require(guest.user["id"] as? String)
            let claim = try await client.send(
                .put,
                "/user",
                json: #"{"email":"\#(Self.victim)","password":"\#(Self.attackerPassword)"}"#,
                bearer: guest.string("access_token")
            )
            #expect(claim.status == .ok)
            #expect((claim["email"] as? String ?? "").isEmpty, "the address is pending, not the user's")
            #expect(claim["new_email"] as? String == Self.victim)
            #expect(claim["is_anonymous"] as? Bool == true)
            let refreshed = try await client.refresh(try #require(guest.string("refresh_token")))
            #expect((accessClaims(refreshed.string("access_token"))["email"] as? String ?? "").isEmpty)
            // When: the owner signs up and confirms, then signs in by code.
            let signup = try await client.post("/signup", Self.signUpBody(Self.victimPassword))
            #expect(signup.status == .ok)
            let code = try await client.waitForCode(to: Self.victim, subject: "Confirm your sign-up")
            let owner = try await client.post(
                "/verify",
                #"{"type":"signup","email":"\#(Self.victim)","token":"\#(code)"}"#
            )
            // Then: the owner is in a new account, and the guest holds nothing of it.
            #expect(owner.status == .ok)
            #expect(owner.user["id"] as? String != guestID)
            #expect(try await client.signIn(Self.victim, Self.attackerPassword).errorCode == "invalid_credentials")
            let guestNow = try await client.refresh(try #require(refreshed.string("refresh_token")))
            #expect(guestNow.user["email"] as? String != Self.victim)
        }
    }

    @Test func aStolenAccessTokenCannotMoveTheAccount() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: Self.victim, password: Self.victimPassword)
            let stolen = session.string("access_token")
            let before = await client.mailCount(to: Self.victim)
            // The thief asks for their own address and confirms it.
            let change = try await client.send(.put, "/user", json: #"{"email":"thief@example.com"}"#, bearer: stolen)
            #expect(change.status == .ok)
            #expect(change["new_email"] as? String == "thief@example.com")
            #expect(change["email_change_sent_at"] != nil)
            let code = try await client.waitForCode(to: "thief@example.com")
            let half = try await client.post(
                "/verify",
                #"{"type":"email_change","email":"thief@example.com","token":"\#(code)"}"#
            )
            #expect(half.status == .ok)
            #expect(half["access_token"] == nil)
            #expect(half.string("code") == "200")
            #expect(half.string("msg")?.hasPrefix("Confirmation link accepted") == true)
            // The owner was asked too, and the account still has the owner's address.
            _ = try await client.waitForMail(to: Self.victim, count: before + 1)
            #expect(try await client.get("/user", bearer: stolen).string("email") == Self.victim)
            _ = try await client.post("/recover", #"{"email":"thief@example.com"}"#)
            try await client.waitForOutbox()
            #expect(await client.mailCount(to: "thief@example.com") == 1)
            #expect(try await client.signIn(Self.victim, Self.victimPassword).status == .ok)
        }
    }

    @Test func aPasswordChangeOrRecoveryEndsTheThiefsSession() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let owner = try await client.confirmedSession(email: Self.victim, password: Self.victimPassword)
            let thief = try await client.signIn(Self.victim, Self.victimPassword)
            let changed = try await client.send(
                .put,
                "/user",
                json: #"{"password":"a brand new phrase"}"#,
                bearer: owner.string("access_token")
            )
            #expect(changed.status == .ok)
            #expect(try await client.get("/user", bearer: owner.string("access_token")).status == .ok)
            #expect(try await client.get("/user", bearer: thief.string("access_token")).status == .forbidden)
            let thiefRefresh = try await client.refresh(try #require(thief.string("refresh_token")))
            #expect(thiefRefresh.errorCode == "refresh_token_not_found")

            // Recovery: a second thief session, then the owner resets by code.
            let thief2 = try await client.signIn(Self.victim, "a brand new phrase")
            _ = try await client.post("/recover", #"{"email":"\#(Self.victim)"}"#)
            let code = try await client.waitForCode(to: Self.victim)
            let recovered = try await client.post(
                "/verify",
                #"{"type":"recovery","email":"\#(Self.victim)","token":"\#(code)"}"#
            )
            let reset = try await client.send(
                .put,
                "/user",
                json: #"{"password":"recovered phrase here"}"#,
                bearer: recovered.string("access_token")
            )
            #expect(reset.status == .ok)
            #expect(try await client.refresh(try #require(thief2.string("refresh_token"))).status != .ok)
            #expect(try await client.get("/user", bearer: recovered.string("access_token")).status == .ok)
        }
    }

    @Test func theReauthenticationCodeDiesAfterFiveWrongTries() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: Self.victim, password: Self.victimPassword)
            harness.clock.advance(by: 25 * 3600)
            let fresh = try await client.refresh(try #require(session.string("refresh_token")))
            let token = fresh.string("access_token")
            #expect(try await client.get("/reauthenticate", bearer: token).status == .ok)
            let nonce = try await client.waitForCode(to: Self.victim, subject: "Confirm it is you")
            let wrong = nonce == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                let guess = try await client.send(
                    .put,
                    "/user",
                    json: #"{"password":"stolen new phrase","nonce":"\#(wrong)"}"#,
                    bearer: token
                )
                #expect(guess.errorCode == "reauthentication_not_valid")
            }
            let right = try await client.send(
                .put,
                "/user",
                json: #"{"password":"stolen new phrase","nonce":"\#(nonce)"}"#,
                bearer: token
            )
            #expect(right.errorCode == "reauthentication_not_valid", "five wrong tries kill the code")
            let deletion = try await client.send(.delete, "/user", json: #"{"nonce":"\#(nonce)"}"#, bearer: token)
            #expect(deletion.status != .ok)
        }
    }

    static func signUpBody(_ password: String) -> String {
        #"{"email":"\#(victim)","password":"\#(password)"}"#
    }

    /// Verifies the victim's address with the newest code mailed to it, then checks that it proved
    /// the address only: neither password signs in, the drop is audited, and the confirmer, signed
    /// in, sets a password of their own.
    static func confirmTheContestedSignUp(
        _ client: Client,
        _ harness: Harness,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let code = try await client.waitForCode(to: victim)
        let verified = try await client.post("/verify", #"{"type":"signup","email":"\#(victim)","token":"\#(code)"}"#)
        #expect(verified.status == .ok, sourceLocation: sourceLocation)
        for password in [victimPassword, attackerPassword] {
            let refused = try await client.signIn(victim, password)
            #expect(refused.errorCode == "invalid_credentials", sourceLocation: sourceLocation)
        }
        let audit = try await harness.server.storage.transaction { try await $0.auditEntries(limit: 50) }
        #expect(audit.contains { $0.action == .unprovenPasswordDropped }, sourceLocation: sourceLocation)
        let set = try await client.send(
            .put,
            "/user",
            json: #"{"password":"the owner's new phrase"}"#,
            bearer: verified.string("access_token")
        )
        #expect(set.status == .ok, sourceLocation: sourceLocation)
        #expect(try await client.signIn(victim, "the owner's new phrase").status == .ok, sourceLocation: sourceLocation)
    }
}
