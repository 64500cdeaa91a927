import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// `InMemoryAuthBackend`'s passkeys through `auth.passkeys`, with the software authenticator
/// signing: what needs the manual clock (challenge expiry, the recent-sign-in rule) and the
/// AAL2 rule. The rules both backends share: the contract suite (CLI/Tests, `PasskeyContract`).
@MainActor
@Suite("In-memory passkeys")
struct InMemoryPasskeyTests {
    @Test func aGuestUpgradedByAPasskeyKeepsItsIDAndSignsInWithIt() async throws {
        let fixture = Fixture()
        let authenticator = SoftwarePasskeyAuthenticator()
        let guest = try await fixture.service.signInAnonymously()
        let request = try await fixture.service.passkeys.registrationRequest()
        let passkey = try await fixture.service.passkeys.register(try authenticator.register(request), for: request)
        #expect(passkey.name == "Passkey")
        #expect(fixture.service.currentUser?.id == guest.id)
        #expect(fixture.service.currentUser?.isAnonymous == false, "the session was refreshed")
        #expect(fixture.service.currentUser?.appMetadata["provider"] == "passkey")

        await fixture.service.signOut()
        let signIn = try await fixture.service.passkeys.signInRequest()
        let user = try await fixture.service.passkeys.signIn(try authenticator.signIn(signIn), for: signIn)
        #expect(user.id == guest.id)
        #expect(await fixture.backend.callCount(.signInWithPasskey) == 1)
        #expect(await fixture.backend.passkeyCount(ofUser: guest.id) == 1)
    }

    @Test func challengesExpireAfterFiveMinutes() async throws {
        let fixture = Fixture()
        let authenticator = SoftwarePasskeyAuthenticator()
        _ = try await fixture.service.signInAnonymously()
        let late = try await fixture.service.passkeys.registrationRequest()
        #expect(late.expiresAt == fixture.clock.now().addingTimeInterval(300))
        fixture.clock.advance(by: 301)
        let expired = await #expect(throws: AuthError.self) {
            try await fixture.service.passkeys.register(try authenticator.register(late), for: late)
        }
        #expect(expired?.code == .webAuthnChallengeExpired)
        #expect(fixture.service.currentUser?.isAnonymous == true)

        let request = try await fixture.service.passkeys.registrationRequest()
        try await fixture.service.passkeys.register(try authenticator.register(request), for: request)
        let signIn = try await fixture.service.passkeys.signInRequest()
        let credential = try authenticator.signIn(signIn)
        fixture.clock.advance(by: 300)
        let expiredSignIn = await #expect(throws: AuthError.self) {
            try await fixture.service.passkeys.signIn(credential, for: signIn)
        }
        #expect(expiredSignIn?.code == .webAuthnChallengeExpired)
        let used = await #expect(throws: AuthError.self) {
            try await fixture.service.passkeys.signIn(credential, for: signIn)
        }
        #expect(used?.code == .webAuthnChallengeNotFound, "an expired challenge is gone too")
    }

    @Test func aPermanentAccountNeedsARecentSignInToAddAPasskey() async throws {
        let fixture = Fixture()
        _ = try await fixture.service.signUp(email: "ada@example.com", password: "correct horse battery")
        _ = try await fixture.service.passkeys.registrationRequest()
        fixture.clock.advance(by: 601)
        _ = try await fixture.service.refreshSession()
        let stale = await #expect(throws: AuthError.self) { try await fixture.service.passkeys.registrationRequest() }
        #expect(stale?.code == .reauthenticationNeeded)
        let guessed = await #expect(throws: AuthError.self) {
            try await fixture.service.passkeys.registrationRequest(nonce: "123456")
        }
        #expect(guessed?.code == .reauthenticationNotValid)
        await fixture.service.signOut()
        _ = try await fixture.service.signIn(email: "ada@example.com", password: "correct horse battery")
        _ = try await fixture.service.passkeys.registrationRequest()
    }

    @Test func aUserWithASecondFactorAddsAndRemovesPasskeysAtAAL2Only() async throws {
        let fixture = Fixture()
        _ = try await fixture.service.signUp(email: "ada@example.com", password: "correct horse battery")
        let session = try await fixture.service.refreshSession()
        let enrollment = try await fixture.backend.enrollTOTP(friendlyName: nil, for: session)
        let challenge = try await fixture.backend.challengeFactor(enrollment.factorID, for: session)
        let code = try #require(await fixture.backend.totpCode(factorID: enrollment.factorID))
        let aal2 = try await fixture.backend.verifyFactor(
            enrollment.factorID,
            challengeID: challenge.id,
            code: code,
            for: session
        )
        let aal1 = try await fixture.backend.signIn(email: "ada@example.com", password: "correct horse battery")
        let refused = await #expect(throws: AuthError.self) {
            try await fixture.backend.passkeyRegistrationRequest(for: aal1, nonce: nil)
        }
        #expect(refused?.code == .insufficientAAL)
        let request = try await fixture.backend.passkeyRegistrationRequest(for: aal2, nonce: nil)
        let passkey = try await fixture.backend.registerPasskey(
            try SoftwarePasskeyAuthenticator().register(request),
            for: request,
            name: "Phone",
            session: aal2
        )
        let removal = await #expect(throws: AuthError.self) {
            try await fixture.backend.removePasskey(passkey.id, session: aal1)
        }
        #expect(removal?.code == .insufficientAAL)
        try await fixture.backend.removePasskey(passkey.id, session: aal2)
    }

    @Test func passkeysAreOffWithoutAnRPID() async throws {
        let backend = InMemoryAuthBackend(configuration: .init(passkeyRelyingPartyID: nil))
        let refused = await #expect(throws: AuthError.self) { try await backend.passkeyAssertionRequest() }
        #expect(refused?.code == .passkeyDisabled)
        #expect(refused?.httpStatus == 404)
    }
}
