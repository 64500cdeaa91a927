import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// Issue 30: Sign in with Apple is asked only about a session it opened on this device, never
/// in a Simulator unless the app opts in, at most every 15 minutes on activation, and not again
/// after a failure that cannot pass.
@MainActor
@Suite("Sign in with Apple's credential check: whom, where and how often")
struct AppleCredentialOriginTests {
    @Test func aPasswordSignInOfAnAppleLinkedUserOnAnotherDeviceStaysSignedIn() async throws {
        // The user signed in with Apple on their iPhone and set a password there.
        let iPhone = AppleLinkedFixture()
        let user = try await iPhone.signInWithApple()
        try await iPhone.service.updateUser(UserChanges(password: password))
        let email = try #require(user.email)

        // On an iPad signed in to another Apple Account, they sign in with the password.
        let iPadStore = InMemorySessionStore()
        let apple = AppleAnswers { _ in .notFound }
        let iPad = AuthService(
            backend: iPhone.backend,
            store: iPadStore,
            configuration: .init(clock: iPhone.clock.authClock, appleCredentialState: apple.provider)
        )
        await iPad.restoreSession()
        let signedIn = try await iPad.signIn(email: email, password: password)
        #expect(signedIn.appleUserID == AppleLinkedFixture.appleUserID, "the user has an Apple identity linked")
        #expect(iPadStore.storedSession?.appleSignInUserID == nil, "but this session was opened by a password")

        // Relaunched, activated, asked explicitly: Apple is never asked, the user stays.
        let relaunched = AuthService(
            backend: iPhone.backend,
            store: iPadStore,
            configuration: .init(clock: iPhone.clock.authClock, appleCredentialState: apple.provider)
        )
        await relaunched.restoreSession()
        await relaunched.waitForAppleCredentialCheck()
        await relaunched.waitForVerification()
        await relaunched.applicationDidBecomeActive()
        #expect(await relaunched.checkAppleCredential() == nil)

        #expect(apple.asked.isEmpty)
        #expect(relaunched.isAuthenticated)
        #expect(relaunched.currentUser?.id == user.id)
        #expect(iPadStore.storedSession != nil)
        #expect(relaunched.sessionEndReason == nil)
    }

    @Test func aCodeSignInOfAUserWhoSignedInWithAppleBeforeIsNotAskedAbout() async throws {
        let fixture = AppleLinkedFixture()
        let user = try await fixture.signInWithApple()
        await fixture.service.signOut()
        let email = try #require(user.email)
        try await fixture.service.sendMagicCode(to: email)
        let code = try #require(await fixture.backend.lastCode(for: email))
        try await fixture.service.verifyMagicCode(email: email, code: code)
        let apple = AppleAnswers { _ in .revoked }

        let relaunched = await fixture.launchedAndChecked(asking: apple)

        #expect(apple.asked.isEmpty, "the same device, but this session was not opened by Sign in with Apple")
        #expect(relaunched.isAuthenticated)
    }

    @Test func inASimulatorAppleIsNotAskedUnlessTheAppOptsIn() async throws {
        let fixture = AppleLinkedFixture()
        try await fixture.signInWithApple()
        let simulator = ProcessEnvironment(isSimulator: true, isXcodePreview: false, isTestRun: true, isAppExtension: false)
        // iOS 18 Simulators answer `revoked` for everyone.
        let apple = AppleAnswers { _ in .revoked }

        let skipped = AuthService(
            backend: fixture.backend,
            store: fixture.store,
            configuration: .init(clock: fixture.clock.authClock, appleCredentialState: apple.provider, environment: simulator)
        )
        await skipped.restoreSession()
        await skipped.waitForAppleCredentialCheck()
        await skipped.applicationDidBecomeActive()
        #expect(await skipped.checkAppleCredential() == nil)
        #expect(apple.asked.isEmpty)
        #expect(skipped.isAuthenticated)

        let optedIn = AuthService(
            backend: fixture.backend,
            store: fixture.store,
            configuration: .init(
                clock: fixture.clock.authClock,
                appleCredentialState: apple.provider,
                checksAppleCredentialInSimulator: true,
                environment: simulator
            )
        )
        await optedIn.restoreSession()
        await optedIn.waitForAppleCredentialCheck()
        #expect(apple.asked == [AppleLinkedFixture.appleUserID])
        #expect(optedIn.state == .unauthenticated)
    }

    @Test func activationsAskAtMostEveryFifteenMinutes() async throws {
        let fixture = AppleLinkedFixture()
        try await fixture.signInWithApple()
        let apple = AppleAnswers { _ in .authorized }
        let relaunched = await fixture.launchedAndChecked(asking: apple)
        #expect(apple.asked.count == 1, "at launch")

        await relaunched.applicationDidBecomeActive()
        fixture.clock.advance(by: 14 * 60)
        await relaunched.applicationDidBecomeActive()
        #expect(apple.asked.count == 1, "activations within 15 minutes of the last question do not ask")

        fixture.clock.advance(by: 61)
        await relaunched.applicationDidBecomeActive()
        #expect(apple.asked.count == 2)
        await relaunched.applicationDidBecomeActive()
        #expect(apple.asked.count == 2)

        #expect(await relaunched.checkAppleCredential() == .authorized, "an explicit check always asks")
        #expect(apple.asked.count == 3)
    }

    @Test func aFailureThatCannotPassIsNotRetriedOnEveryActivation() async throws {
        let fixture = AppleLinkedFixture()
        try await fixture.signInWithApple()
        // ASAuthorizationError.unknown: no Sign in with Apple capability, no Apple Account.
        let apple = AppleAnswers { _ in
            throw AuthError.appleCredentialStateFailure(domain: "com.apple.AuthenticationServices.AuthorizationError", code: 1000)
        }
        let relaunched = await fixture.launchedAndChecked(asking: apple)
        #expect(apple.asked.count == 1)

        for _ in 0..<3 {
            fixture.clock.advance(by: 3600)
            await relaunched.applicationDidBecomeActive()
        }
        #expect(apple.asked.count == 1)
        #expect(relaunched.isAuthenticated, "no answer never signs out")

        // A new sign-in starts over.
        await relaunched.signOut()
        let nonce = SignInNonce()
        let token = await fixture.backend.makeIDToken(
            provider: .apple,
            subject: AppleLinkedFixture.appleUserID,
            nonce: nonce.raw
        )
        try await relaunched.signInWithApple(idToken: token, nonce: nonce.raw, authorizationCode: "c", fullName: nil)
        await relaunched.applicationDidBecomeActive()
        #expect(apple.asked.count == 2)
    }

    @Test func aFailureThatMayPassIsAskedAgainOnALaterActivation() async throws {
        let fixture = AppleLinkedFixture()
        try await fixture.signInWithApple()
        let apple = AppleAnswers { _ in
            throw AuthError.appleCredentialStateFailure(domain: "com.apple.AuthenticationServices.AuthorizationError", code: 1004)
        }
        let relaunched = await fixture.launchedAndChecked(asking: apple)
        fixture.clock.advance(by: 16 * 60)
        await relaunched.applicationDidBecomeActive()
        #expect(apple.asked.count == 2)
    }

    @Test func theFailuresOfAppleAreClassified() {
        let domain = "com.apple.AuthenticationServices.AuthorizationError"
        #expect(!AuthError.appleCredentialStateFailure(domain: domain, code: 1000).isRetryable)
        #expect(!AuthError.appleCredentialStateFailure(domain: domain, code: 1003).isRetryable)
        #expect(AuthError.appleCredentialStateFailure(domain: domain, code: 1004).isRetryable)
        #expect(AuthError.appleCredentialStateFailure(domain: NSURLErrorDomain, code: 1000).isRetryable)
    }

    @Test func aSessionStoredBeforeTheOriginWasRecordedIsAskedAboutWhenItsAMRSaysApple() async throws {
        let appleUser = User(
            id: "u-1",
            email: "ada@privaterelay.appleid.com",
            identities: [UserIdentity(provider: "apple", subject: AppleLinkedFixture.appleUserID)]
        )
        let byApple = LegacySession.make(user: appleUser, amr: [["method": "oauth", "provider": "apple"]])
        let byPassword = LegacySession.make(user: appleUser, amr: [["method": "password"]])
        #expect(byApple.appleSignInUserID == nil && byApple.appleUserIDToCheck == AppleLinkedFixture.appleUserID)
        #expect(byPassword.appleUserIDToCheck == nil)

        let cases: [(Session, [String])] = [(byApple, [AppleLinkedFixture.appleUserID]), (byPassword, [])]
        for (stored, expected) in cases {
            let store = InMemorySessionStore()
            try store.save(stored)
            let apple = AppleAnswers { _ in .revoked }
            let service = AuthService(
                backend: InMemoryAuthBackend(),
                store: store,
                configuration: .init(verifiesRestoredSession: false, appleCredentialState: apple.provider)
            )
            await service.restoreSession()
            await service.waitForAppleCredentialCheck()
            #expect(apple.asked == expected)
        }
    }

    @Test func aLegacyAppleSessionWithoutIdentitiesIsAskedAboutOnceTheLookupNamesTheAppleIdentity() async throws {
        let withIdentity = User(
            id: "u-1",
            email: "ada@privaterelay.appleid.com",
            identities: [UserIdentity(provider: "apple", subject: AppleLinkedFixture.appleUserID)]
        )
        var withoutIdentity = withIdentity
        withoutIdentity.identities = []
        let store = InMemorySessionStore()
        try store.save(LegacySession.make(user: withoutIdentity, amr: [["method": "oauth", "provider": "apple"]]))
        let apple = AppleAnswers { _ in .revoked }
        let service = AuthService(
            backend: LookupBackend(user: withIdentity),
            store: store,
            configuration: .init(appleCredentialState: apple.provider)
        )

        await service.restoreSession()
        #expect(service.currentUser?.appleUserID == nil)
        await service.waitForVerification()
        await service.waitForAppleCredentialCheck()

        #expect(apple.asked == [AppleLinkedFixture.appleUserID])
        #expect(service.state == .unauthenticated)
    }

    @Test func anOldStoredSessionWithoutTheFieldStillDecodes() throws {
        let json = #"""
            {"session":{"accessToken":"a","aal":"aal1","expiresAt":800000000,"refreshToken":"r",
            "user":{"appMetadata":{},"id":"u-1","isAnonymous":false,"userMetadata":{}}},"version":1}
            """#
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("session.json")
        try Data(json.utf8).write(to: url)
        let session = try #require(try FileSessionStore(fileURL: url).load())
        #expect(session.user.id == "u-1")
        #expect(session.appleSignInUserID == nil)
    }
}

/// A session as an SDK before issue 30 stored it: no recorded origin; its access token's `amr`
/// says how it was opened.
enum LegacySession {
    static func make(user: User, amr: [[String: String]]) -> Session {
        Session(
            accessToken: jwt(["sub": user.id, "amr": amr]),
            refreshToken: "legacy-refresh",
            expiresAt: Date().addingTimeInterval(3600),
            user: user
        )
    }

    static func jwt(_ claims: [String: Any]) -> String {
        func part(_ object: Any) -> String {
            Base64URL.string(try! JSONSerialization.data(withJSONObject: object))
        }
        return part(["alg": "none"]) + "." + part(claims) + ".c2ln"
    }
}

/// A backend that answers user lookups with one user and signs out quietly; nothing else.
actor LookupBackend: AuthBackend {
    let user: User

    init(user: User) {
        self.user = user
    }

    func user(for session: Session) async throws -> User { user }
    func signOut(_ session: Session, scope: LogoutScope) async throws {}

    func signUp(email: String, password: String, upgrading guest: Session?) async throws -> SignUpOutcome {
        throw AuthError.notSupported("signUp")
    }
    func signIn(email: String, password: String) async throws -> Session { throw AuthError.notSupported("signIn") }
    func signInAnonymously() async throws -> Session { throw AuthError.notSupported("signInAnonymously") }
    func signIn(with credential: IDTokenCredential, upgrading guest: Session?) async throws -> Session {
        throw AuthError.notSupported("signIn(with:)")
    }
    func sendMagicCode(to email: String) async throws { throw AuthError.notSupported("sendMagicCode") }
    func verifyCode(email: String, code: String, type: VerificationType) async throws -> Session {
        throw AuthError.notSupported("verifyCode")
    }
    func resetPassword(email: String) async throws { throw AuthError.notSupported("resetPassword") }
    func refresh(_ session: Session) async throws -> Session { throw AuthError.notSupported("refresh") }
    func updateUser(_ changes: UserChanges, for session: Session) async throws -> User {
        throw AuthError.notSupported("updateUser")
    }
    func deleteAccount(_ session: Session) async throws { throw AuthError.notSupported("deleteAccount") }
}
