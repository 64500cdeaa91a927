import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// `auth.reauthenticate()`, the `nonce:` of every sensitive action, and the errors a person
/// reads, against the in-memory backend (which keeps the server's table of sensitive actions).
@MainActor
@Suite("Reauthentication")
struct ReauthenticationTests {
    static let email = "ada@example.com"

    /// A signed-up, confirmed user whose sign-in is now 11 minutes old, and the action to try.
    struct Scenario {
        let fixture: Fixture
        /// Performs the action with a code (or none); throws as the service does.
        let perform: @MainActor (String?) async throws -> Void
        /// Whether the action took effect.
        let happened: @MainActor () async throws -> Bool
    }

    /// Sets up `action` while the sign-in is recent, then lets 11 minutes pass.
    static func scenario(_ action: SensitiveAction) async throws -> Scenario {
        let fixture = Fixture()
        let auth = fixture.service
        let backend = fixture.backend
        try await auth.signUp(email: email, password: password)
        let userID = try #require(auth.currentUser?.id)
        let perform: @MainActor (String?) async throws -> Void
        let happened: @MainActor () async throws -> Bool
        switch action {
        case .linkIdentity:
            let token = await backend.makeIDToken(
                provider: .google,
                subject: "g-1",
                email: "ada@gmail.com",
                nonce: "raw"
            )
            let credential = IDTokenCredential(provider: .google, idToken: token, nonce: "raw")
            perform = { try await auth.linkIdentity(credential, nonce: $0) }
            happened = { await backend.user(id: userID)?.identities.contains { $0.provider == "google" } == true }
        case .registerPasskey:
            let requests = Locked(0)
            perform = {
                _ = try await auth.passkeys.registrationRequest(nonce: $0)
                requests.withLock { $0 += 1 }
            }
            happened = { requests.withLock { $0 } == 1 }
        case .renamePasskey, .removePasskey:
            let request = try await auth.passkeys.registrationRequest()
            let passkey = try await auth.passkeys.register(
                try SoftwarePasskeyAuthenticator().register(request),
                for: request
            )
            if action == .renamePasskey {
                perform = { try await auth.passkeys.rename(passkey.id, to: "Laptop", nonce: $0) }
                happened = { try await auth.passkeys.list().map(\.name) == ["Laptop"] }
            } else {
                perform = { try await auth.passkeys.remove(passkey.id, nonce: $0) }
                happened = { try await auth.passkeys.list().isEmpty }
            }
        case .enrolFactor:
            perform = { _ = try await auth.mfa.enrollTOTP(friendlyName: "phone", nonce: $0) }
            happened = { auth.mfa.factors.count == 1 }
        case .unenrolFactor:
            let enrolment = try await auth.mfa.enrollTOTP(friendlyName: "phone")
            let code = try #require(await backend.totpCode(factorID: enrolment.factorID))
            try await auth.mfa.challengeAndVerify(factorID: enrolment.factorID, code: code)
            perform = { try await auth.mfa.unenroll(factorID: enrolment.factorID, nonce: $0) }
            happened = { auth.mfa.factors.isEmpty }
        case .changePassword:
            perform = { _ = try await auth.updateUser(UserChanges(password: "a brand new phrase", nonce: $0)) }
            happened = { (try? await backend.signIn(email: email, password: "a brand new phrase")) != nil }
        case .changeEmail:
            perform = { _ = try await auth.updateUser(email: "ada@new.example", nonce: $0) }
            happened = { auth.currentUser?.newEmail == "ada@new.example" }
        case .endOtherSession, .endOtherSessions:
            let other = try await backend.signIn(email: email, password: password)
            let otherID = try #require(try await auth.sessions().first { !$0.isCurrent }?.id)
            if action == .endOtherSession {
                perform = { try await auth.endSession(id: otherID, nonce: $0) }
            } else {
                perform = { try await auth.endOtherSessions(nonce: $0) }
            }
            happened = { (try? await backend.user(for: other)) == nil }
        case .deleteAccount:
            perform = { try await auth.deleteAccount(nonce: $0) }
            happened = { await backend.user(id: userID) == nil }
        }
        fixture.clock.advance(by: 660)
        return Scenario(fixture: fixture, perform: perform, happened: happened)
    }

    @Test(arguments: SensitiveAction.allCases)
    func anOldSignInNeedsTheMailedCodeWhichWorksOnceAndAWrongOneIsRefused(_ action: SensitiveAction) async throws {
        let scenario = try await Self.scenario(action)
        let auth = scenario.fixture.service

        let needed = await #expect(throws: AuthError.self) { try await scenario.perform(nil) }
        #expect(needed?.code == .reauthenticationNeeded)
        #expect(needed?.recovery == .reauthenticate)
        #expect(needed?.message == "To \(action.purpose), confirm it is you with a code we e-mail to \(Self.email).")
        #expect(needed?.underlying?.contains("reauthentication code") == true, "the server's words are kept")
        #expect(auth.authSession.error == needed, "the service shows it")
        #expect(try await !scenario.happened())

        try await auth.reauthenticate()
        let code = try #require(await scenario.fixture.backend.lastCode(for: Self.email, type: .reauthentication))
        let wrong = await #expect(throws: AuthError.self) {
            try await scenario.perform(code == "000000" ? "000001" : "000000")
        }
        #expect(wrong?.code == .reauthenticationNotValid)
        #expect(wrong?.recoverySuggestion == "Enter the code we sent to \(Self.email), or ask for a new one.")
        #expect(try await !scenario.happened())

        try await scenario.perform(" \(code) ")
        #expect(try await scenario.happened())
        #expect(auth.operationStatus == .success)
    }

    @Test func theCodeGoesToTheConfirmedAddressOnlyAndNotTwiceAMinute() async throws {
        let fixture = Fixture()
        try await fixture.service.signInAnonymously()
        let guest = await #expect(throws: AuthError.self) { try await fixture.service.reauthenticate() }
        #expect(guest?.code == .emailNotConfirmed, "a guest has no address to send it to")

        await fixture.service.signOut()
        try await fixture.service.signUp(email: Self.email, password: password)
        try await fixture.service.reauthenticate()
        let first = try #require(await fixture.backend.lastCode(for: Self.email, type: .reauthentication))
        let again = await #expect(throws: AuthError.self) { try await fixture.service.reauthenticate() }
        #expect(again?.code == .overEmailSendRateLimit && again?.retryAfter == 60)
        #expect(await fixture.backend.lastCode(for: Self.email, type: .reauthentication) == first, "the first stays")
        fixture.clock.advance(by: 61)
        try await fixture.service.reauthenticate()
        #expect(await fixture.backend.sentCodes.filter { $0.type == .reauthentication }.count == 2)
    }

    @Test func aCodeIsCheckedWheneverSentSpentOnceAndDeadAfterFiveWrongTriesOrTenMinutes() async throws {
        let fixture = Fixture()
        let auth = fixture.service
        try await auth.signUp(email: Self.email, password: password)
        try await auth.reauthenticate()
        let code = try #require(await fixture.backend.lastCode(for: Self.email, type: .reauthentication))
        let wrong = code == "000000" ? "000001" : "000000"
        let recent = await #expect(throws: AuthError.self) { try await auth.mfa.enrollTOTP(nonce: wrong) }
        #expect(recent?.code == .reauthenticationNotValid, "a recent sign-in does not excuse a wrong code")
        _ = try await auth.mfa.enrollTOTP(friendlyName: "one", nonce: code)
        let spent = await #expect(throws: AuthError.self) {
            try await auth.mfa.enrollTOTP(friendlyName: "two", nonce: code)
        }
        #expect(spent?.code == .reauthenticationNotValid, "a code works once")

        fixture.clock.advance(by: 61)
        try await auth.reauthenticate()
        let second = try #require(await fixture.backend.lastCode(for: Self.email, type: .reauthentication))
        for _ in 0..<5 {
            await #expect(throws: AuthError.self) { try await auth.mfa.enrollTOTP(friendlyName: "two", nonce: wrong) }
        }
        let dead = await #expect(throws: AuthError.self) {
            try await auth.mfa.enrollTOTP(friendlyName: "two", nonce: second)
        }
        #expect(dead?.code == .reauthenticationNotValid, "five wrong tries kill the code")

        fixture.clock.advance(by: 61)
        try await auth.reauthenticate()
        let third = try #require(await fixture.backend.lastCode(for: Self.email, type: .reauthentication))
        fixture.clock.advance(by: 601)
        let expired = await #expect(throws: AuthError.self) {
            try await auth.mfa.enrollTOTP(friendlyName: "two", nonce: third)
        }
        #expect(expired?.code == .reauthenticationNotValid, "a code lives ten minutes")
        let empty = await #expect(throws: AuthError.self) {
            try await auth.mfa.enrollTOTP(friendlyName: "two", nonce: " ")
        }
        #expect(empty?.code == .validationFailed, "an empty code is never sent")
    }

    @Test func aSecondFactorIsAskedForInAPersonsWords() async throws {
        let fixture = Fixture()
        let auth = fixture.service
        try await auth.signUp(email: Self.email, password: password)
        let enrolment = try await auth.mfa.enrollTOTP(friendlyName: "phone")
        let code = try #require(await fixture.backend.totpCode(factorID: enrolment.factorID))
        try await auth.mfa.challengeAndVerify(factorID: enrolment.factorID, code: code)
        await auth.signOut()
        try await auth.signIn(email: Self.email, password: password)
        let refused = await #expect(throws: AuthError.self) {
            try await auth.mfa.unenroll(factorID: enrolment.factorID)
        }
        #expect(refused?.code == .insufficientAAL && refused?.httpStatus == 422)
        #expect(refused?.message == "To remove an authenticator app, first enter a code from your authenticator app.")
        #expect(refused?.recovery == .verifySecondFactor)
    }

    // MARK: - withReauthentication

    @Test func theHelperAsksOnlyWhenTheServerWantsACode() async throws {
        let fixture = Fixture()
        let auth = fixture.service
        try await auth.signUp(email: Self.email, password: password)
        var prompts: [ReauthenticationPrompt] = []
        var nonces: [String?] = []
        _ = try await auth.withReauthentication(.enrolFactor) { prompt in
            prompts.append(prompt)
            return nil
        } perform: { nonce in
            nonces.append(nonce)
            return try await auth.mfa.enrollTOTP(friendlyName: "one", nonce: nonce)
        }
        #expect(prompts.isEmpty && nonces == [nil], "a recent sign-in needs no code")

        fixture.clock.advance(by: 660)
        nonces = []
        let backend = fixture.backend
        _ = try await auth.withReauthentication(.enrolFactor) { prompt in
            prompts.append(prompt)
            return await backend.lastCode(for: Self.email, type: .reauthentication)
        } perform: { nonce in
            nonces.append(nonce)
            return try await auth.mfa.enrollTOTP(friendlyName: "two", nonce: nonce)
        }
        let code = await backend.lastCode(for: Self.email, type: .reauthentication)
        #expect(nonces == [nil, code])
        #expect(
            prompts == [ReauthenticationPrompt(action: .enrolFactor, email: Self.email, codeWasSent: true)]
        )
        #expect(prompts.first?.message == "Enter the code we sent to ada@example.com to add an authenticator app.")
        #expect(auth.mfa.factors.map(\.friendlyName) == ["two"], "(the first, never verified, lapsed)")
    }

    @Test func theHelperAsksAgainAfterAWrongCodeAndStopsWhenThePersonCancels() async throws {
        let fixture = Fixture()
        let auth = fixture.service
        let backend = fixture.backend
        try await auth.signUp(email: Self.email, password: password)
        fixture.clock.advance(by: 660)
        var prompts: [ReauthenticationPrompt] = []
        try await auth.withReauthentication(.deleteAccount) { prompt in
            prompts.append(prompt)
            let code = await backend.lastCode(for: Self.email, type: .reauthentication) ?? ""
            return prompts.count == 1 ? (code == "000000" ? "000001" : "000000") : code
        } perform: { nonce in
            try await auth.deleteAccount(nonce: nonce)
        }
        #expect(prompts.count == 2)
        #expect(prompts.last?.previousError?.code == .reauthenticationNotValid)
        #expect(prompts.last?.message.hasPrefix("That code is wrong or has expired. Enter the code") == true)
        #expect(auth.state == .unauthenticated, "deleted")

        try await auth.signUp(email: Self.email, password: password)
        fixture.clock.advance(by: 660)
        var asked = 0
        let cancelled = await #expect(throws: AuthError.self) {
            try await auth.withReauthentication(.deleteAccount) { _ in
                asked += 1
                return nil
            } perform: { nonce in
                try await auth.deleteAccount(nonce: nonce)
            }
        }
        #expect(cancelled?.code == .cancelled && asked == 1)
        #expect(auth.currentUser?.email == Self.email, "nothing was deleted")
    }

    @Test func theHelperUsesTheCodeSentAMomentAgoAndLeavesOtherRefusalsAlone() async throws {
        let fixture = Fixture()
        let auth = fixture.service
        let backend = fixture.backend
        try await auth.signUp(email: Self.email, password: password)
        fixture.clock.advance(by: 660)
        try await auth.reauthenticate()
        let earlier = try #require(await backend.lastCode(for: Self.email, type: .reauthentication))
        var prompts: [ReauthenticationPrompt] = []
        try await auth.withReauthentication(.endOtherSessions) { prompt in
            prompts.append(prompt)
            return earlier
        } perform: { nonce in
            try await auth.endOtherSessions(nonce: nonce)
        }
        #expect(prompts.map(\.codeWasSent) == [false])
        #expect(prompts.first?.message.contains("we sent a moment ago") == true)

        let refused = await #expect(throws: AuthError.self) {
            try await auth.withReauthentication(.changeEmail) { _ in
                Issue.record("not a question of a code")
                return nil
            } perform: { nonce in
                _ = try await auth.updateUser(email: "not an address", nonce: nonce)
            }
        }
        #expect(refused?.code == .validationFailed)
    }

    @Test func anAccountWithoutAnAddressIsToldToSignInAgainWithoutAPrompt() async throws {
        let fixture = Fixture()
        let auth = fixture.service
        try await auth.signInAnonymously()
        let request = try await auth.passkeys.registrationRequest()
        let passkey = try await auth.passkeys.register(
            try SoftwarePasskeyAuthenticator().register(request),
            for: request
        )
        fixture.clock.advance(by: 660)
        let refused = await #expect(throws: AuthError.self) {
            try await auth.withReauthentication(.renamePasskey) { _ in
                Issue.record("no code can be mailed: nothing to ask for")
                return nil
            } perform: { nonce in
                _ = try await auth.passkeys.rename(passkey.id, to: "Laptop", nonce: nonce)
            }
        }
        #expect(refused?.code == .reauthenticationNeeded)
        #expect(refused?.message == "To rename a passkey, confirm it is you: sign in again.")
        #expect(auth.authSession.error == refused)
    }

    // MARK: - Signing out other devices

    /// Ada signed in here and on another device, 11 minutes ago.
    static func twoDevicesSignedInLongAgo() async throws -> (Fixture, userID: String) {
        let fixture = Fixture()
        try await fixture.service.signUp(email: email, password: password)
        let userID = try #require(fixture.service.currentUser?.id)
        _ = try await fixture.backend.signIn(email: email, password: password)
        fixture.clock.advance(by: 660)
        return (fixture, userID)
    }

    @Test func signingOutOthersLateIsRefusedAndReportedAndWorksWithTheCode() async throws {
        let (fixture, userID) = try await Self.twoDevicesSignedInLongAgo()
        let auth = fixture.service

        await auth.signOut(scope: .others)
        #expect(auth.operationStatus == .error)
        #expect(auth.operationError?.code == .reauthenticationNeeded)
        #expect(auth.operationError?.message.hasPrefix("To sign out your other devices") == true)
        #expect(auth.isAuthenticated, "this device stays signed in")
        #expect(await fixture.backend.liveSessionCount(ofUser: userID) == 2)

        let refused = await #expect(throws: AuthError.self) { try await auth.endOtherSessions() }
        #expect(refused?.code == .reauthenticationNeeded)
        try await auth.reauthenticate()
        let code = await fixture.backend.lastCode(for: Self.email, type: .reauthentication)
        await auth.signOut(scope: .others, nonce: code)
        #expect(auth.operationStatus == .success && auth.operationError == nil)
        #expect(await fixture.backend.liveSessionCount(ofUser: userID) == 1)
        #expect(auth.isAuthenticated)
    }

    @Test func aLateGlobalSignOutSignsOutHereAndSaysTheOthersStay() async throws {
        let (fixture, userID) = try await Self.twoDevicesSignedInLongAgo()
        let auth = fixture.service

        await auth.signOut(scope: .global)
        #expect(auth.state == .unauthenticated)
        #expect(fixture.store.storedSession == nil)
        #expect(auth.operationError?.code == .otherSessionsNotEnded)
        #expect(auth.operationError?.underlying?.hasPrefix("reauthentication_needed") == true)
        #expect(
            await fixture.backend.liveSessionCount(ofUser: userID) == 1,
            "the other device stays, as the server said"
        )

        try await auth.signIn(email: Self.email, password: password)
        await auth.signOut(scope: .global)
        #expect(auth.operationStatus == .success && auth.operationError == nil)
        #expect(await fixture.backend.liveSessionCount(ofUser: userID) == 0)
    }
}
