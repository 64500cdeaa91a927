import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// `auth.mfa` and the state model around it, against the in-memory backend.
@MainActor
@Suite("Two-factor sign-in")
struct MultiFactorAuthTests {
    /// A confirmed user with a verified factor, signed out again.
    func userWithFactor(_ fixture: Fixture) async throws -> (factorID: String, user: User) {
        await fixture.service.restoreSession()
        try await fixture.service.signUp(email: "ada@example.com", password: password)
        let enrolment = try await fixture.service.mfa.enrollTOTP(friendlyName: "phone")
        #expect(fixture.service.mfa.factors.map(\.isVerified) == [false])
        #expect(fixture.service.isAuthenticated, "an unverified factor asks for nothing")
        let code = try #require(await fixture.backend.totpCode(factorID: enrolment.factorID))
        let user = try await fixture.service.mfa.challengeAndVerify(factorID: enrolment.factorID, code: code)
        #expect(fixture.service.mfa.assuranceLevel == AssuranceLevel(current: .aal2, next: .aal2))
        #expect(fixture.service.mfa.factors.map(\.isVerified) == [true])
        await fixture.service.signOut()
        return (enrolment.factorID, user)
    }

    @Test func aPasswordSignInWaitsForTheSecondFactorThenTheGateLetsTheUserIn() async throws {
        let fixture = Fixture()
        let (factorID, _) = try await userWithFactor(fixture)
        let user = try await fixture.service.signIn(email: "ada@example.com", password: password)

        #expect(fixture.service.state == .secondFactorRequired(user))
        #expect(fixture.service.authSession.isSecondFactorRequired)
        #expect(!fixture.service.isAuthenticated && !fixture.service.authSession.isAuthenticated)
        #expect(fixture.service.isSignedIn)
        #expect(fixture.service.mfa.assuranceLevel == AssuranceLevel(current: .aal1, next: .aal2))
        let assurance = fixture.service.assuranceLevel
        #expect(AuthGate.gate.route(for: fixture.service.session, assurance: assurance) == .secondFactor(user))
        #expect(AuthGate.optional.route(for: fixture.service.session, assurance: assurance) == .secondFactor(user))
        #expect(AuthGate.optional.requiresSignIn(for: .account, in: fixture.service.state))

        fixture.clock.advance(by: 30)
        let code = try #require(await fixture.backend.totpCode(factorID: factorID))
        try await fixture.service.mfa.challengeAndVerify(factorID: factorID, code: code)
        #expect(fixture.service.isAuthenticated)
        let now = try #require(fixture.service.currentUser)
        #expect(fixture.service.state == .authenticated(now))
        #expect(
            AuthGate.gate.route(for: fixture.service.session, assurance: fixture.service.assuranceLevel)
                == .content(now)
        )
    }

    @Test func restoreKeepsTheSecondFactorDue() async throws {
        let fixture = Fixture()
        let (factorID, _) = try await userWithFactor(fixture)
        let user = try await fixture.service.signIn(email: "ada@example.com", password: password)

        let relaunched = fixture.relaunched()
        await relaunched.restoreSession()
        #expect(relaunched.state == .secondFactorRequired(user))
        #expect(!relaunched.isAuthenticated)

        fixture.clock.advance(by: 30)
        let code = try #require(await fixture.backend.totpCode(factorID: factorID))
        try await relaunched.mfa.challengeAndVerify(factorID: factorID, code: code)
        let again = fixture.relaunched()
        await again.restoreSession()
        #expect(again.isAuthenticated, "the AAL2 session is restored as such")
        #expect(again.assuranceLevel?.current == .aal2)
    }

    @Test func wrongAndReplayedCodesKeepTheSecondFactorDue() async throws {
        let fixture = Fixture()
        let (factorID, _) = try await userWithFactor(fixture)
        let used = try #require(await fixture.backend.totpCode(factorID: factorID))
        try await fixture.service.signIn(email: "ada@example.com", password: password)
        await #expect(throws: AuthError.self) {
            try await fixture.service.mfa.challengeAndVerify(factorID: factorID, code: used)
        }
        #expect(fixture.service.authSession.error?.code == .mfaVerificationFailed)
        let wrong = used == "000000" ? "000001" : "000000"
        await #expect(throws: AuthError.self) {
            try await fixture.service.mfa.challengeAndVerify(factorID: factorID, code: wrong)
        }
        #expect(fixture.service.state.isSecondFactorRequired)
    }

    @Test func accountChangesAndUnenrolmentNeedAAL2() async throws {
        let fixture = Fixture()
        let (factorID, _) = try await userWithFactor(fixture)
        try await fixture.service.signIn(email: "ada@example.com", password: password)
        do {
            try await fixture.service.updateUser(UserChanges(password: "another good passphrase"))
            Issue.record("a password change at AAL1 must be refused")
        } catch let error as AuthError {
            #expect(error.code == .insufficientAAL)
        }
        do {
            try await fixture.service.mfa.unenroll(factorID: factorID)
            Issue.record("unenrolling a verified factor at AAL1 must be refused")
        } catch let error as AuthError {
            #expect(error.code == .insufficientAAL)
        }
        fixture.clock.advance(by: 30)
        let code = try #require(await fixture.backend.totpCode(factorID: factorID))
        try await fixture.service.mfa.challengeAndVerify(factorID: factorID, code: code)
        try await fixture.service.mfa.unenroll(factorID: factorID)
        #expect(fixture.service.mfa.factors.isEmpty)
        #expect(fixture.service.assuranceLevel?.current == .aal1, "the session relied on it")
        #expect(fixture.service.isAuthenticated, "no factor left: nothing is due")
    }

    @Test func guestsCannotEnrol() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        try await fixture.service.signInAnonymously()
        do {
            _ = try await fixture.service.mfa.enrollTOTP()
            Issue.record("a guest must be refused")
        } catch let error as AuthError {
            #expect(error.code == .noAuthorization)
        }
    }

    @Test func aSessionStoredBeforeFactorsExistedDecodes() throws {
        let json = #"""
            {"accessToken":"a","refreshToken":"r","expiresAt":0,
             "user":{"id":"u","isAnonymous":false,"appMetadata":{},"userMetadata":{}}}
            """#
        let session = try JSONDecoder().decode(Session.self, from: Data(json.utf8))
        #expect(session.aal == .aal1 && session.user.factors.isEmpty)
        #expect(!session.assuranceLevel.isSecondFactorRequired)
    }
}
