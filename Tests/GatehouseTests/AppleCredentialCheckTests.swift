import Foundation
import Gatehouse
import GatehouseTesting
import Testing

@MainActor
@Suite("Sign in with Apple's credential state at launch")
struct AppleCredentialCheckTests {
    @Test(arguments: [AppleCredentialState.revoked, .notFound])
    func aDefinitiveAnswerSignsOut(_ answer: AppleCredentialState) async throws {
        let fixture = AppleLinkedFixture()
        let user = try await fixture.signInWithApple()
        let apple = AppleAnswers { _ in answer }

        let relaunched = fixture.relaunched(asking: apple)
        let recorder = EventRecorder(relaunched)
        await relaunched.restoreSession()
        await relaunched.waitForAppleCredentialCheck()

        #expect(apple.asked == [AppleLinkedFixture.appleUserID])
        #expect(relaunched.state == .unauthenticated)
        #expect(fixture.store.storedSession == nil)
        #expect(relaunched.sessionEndReason?.code == .appleCredentialRevoked)
        #expect(relaunched.sessionEndReason?.recovery == .signIn)
        #expect(await fixture.backend.liveSessionCount(ofUser: user.id) == 0, "the server is told too")
        await recorder.settle()
        #expect(recorder.events == [.initialSession(user), .signedOut])
    }

    @Test(arguments: [AppleCredentialState.authorized, .transferred])
    func anAnswerThatStillAuthorizesKeepsTheSession(_ answer: AppleCredentialState) async throws {
        let fixture = AppleLinkedFixture()
        let user = try await fixture.signInWithApple()
        let apple = AppleAnswers { _ in answer }

        let relaunched = await fixture.launchedAndChecked(asking: apple)
        await relaunched.waitForVerification()

        #expect(apple.asked == [AppleLinkedFixture.appleUserID])
        #expect(relaunched.state == .authenticated(user))
        #expect(relaunched.isSessionVerified)
        #expect(fixture.store.storedSession != nil)
        #expect(relaunched.sessionEndReason == nil)
        #expect(await relaunched.checkAppleCredential() == answer, "asked again on demand")
        #expect(apple.asked.count == 2)
    }

    @Test func noAnswerKeepsTheSessionOfAnOfflineDevice() async throws {
        let fixture = AppleLinkedFixture()
        let user = try await fixture.signInWithApple()
        await fixture.backend.setOffline(true)
        let apple = AppleAnswers { _ in throw URLError(.notConnectedToInternet) }

        let relaunched = await fixture.launchedAndChecked(asking: apple)

        #expect(apple.asked.count == 1)
        #expect(relaunched.state == .authenticated(user))
        #expect(fixture.store.storedSession != nil)
        #expect(relaunched.sessionEndReason == nil)
        #expect(await relaunched.checkAppleCredential() == nil)
    }

    @Test func anAnswerLaterThanTheTimeoutIsNoAnswer() async throws {
        let fixture = AppleLinkedFixture()
        let user = try await fixture.signInWithApple()
        let gate = AnswerGate()
        let apple = AppleAnswers { _ in await gate.answer() }

        // The manual clock's sleeps end at once: the timeout passes before Apple answers.
        let relaunched = fixture.relaunched(asking: apple, clock: fixture.clock.authClock)
        await relaunched.restoreSession()
        #expect(await relaunched.checkAppleCredential() == nil)
        gate.open(with: .revoked)
        await relaunched.waitForAppleCredentialCheck()
        await relaunched.waitForVerification()

        #expect(apple.asked.count == 1)
        #expect(fixture.clock.sleeps.contains(.seconds(10)), "the configured timeout")
        #expect(relaunched.state == .authenticated(user))
        #expect(fixture.store.storedSession != nil)
    }

    @Test func aUserWithoutAnAppleIdentityIsNeverAskedAbout() async throws {
        let fixture = AppleLinkedFixture()
        let apple = AppleAnswers { _ in .revoked }
        let google = await fixture.backend.makeIDToken(
            provider: .google,
            subject: "g-1",
            email: "g@gmail.com",
            nonce: "n"
        )
        try await fixture.service.signInWithGoogle(idToken: google, nonce: "n")

        let relaunched = await fixture.launchedAndChecked(asking: apple)
        #expect(await relaunched.checkAppleCredential() == nil)

        #expect(apple.asked.isEmpty)
        #expect(relaunched.isAuthenticated)
        await relaunched.signOut()
        #expect(await relaunched.checkAppleCredential() == nil, "nobody signed in")
        #expect(apple.asked.isEmpty)
    }

    @Test func aLinkedAppleIdentityIsAskedAbout() async throws {
        let fixture = AppleLinkedFixture()
        let guest = try await fixture.service.signInAnonymously()
        let linked = try await fixture.signInWithApple()
        #expect(linked.id == guest.id)
        #expect(linked.appleUserID == AppleLinkedFixture.appleUserID)
        let apple = AppleAnswers { _ in .revoked }

        let relaunched = await fixture.launchedAndChecked(asking: apple)

        #expect(apple.asked == [AppleLinkedFixture.appleUserID])
        #expect(relaunched.state == .unauthenticated)
    }

    @Test func anAnswerAboutAUserWhoHasSinceSignedOutChangesNothing() async throws {
        let fixture = AppleLinkedFixture()
        try await fixture.signInWithApple()
        let gate = AnswerGate()
        let apple = AppleAnswers { _ in await gate.answer() }

        let relaunched = fixture.relaunched(asking: apple)
        await relaunched.restoreSession()
        await relaunched.signOut()
        let other = try await relaunched.signUp(email: "grace@example.com", password: password).user
        gate.open(with: .revoked)
        await relaunched.waitForAppleCredentialCheck()

        #expect(apple.asked == [AppleLinkedFixture.appleUserID])
        #expect(relaunched.currentUser == other)
        #expect(fixture.store.storedSession?.user == other)
        #expect(relaunched.sessionEndReason == nil)
    }

    @Test func theSessionRecordsWhoseSignInWithAppleOpenedItAndKeepsItAcrossARefresh() async throws {
        let fixture = AppleLinkedFixture()
        try await fixture.signInWithApple()
        #expect(fixture.store.storedSession?.appleSignInUserID == AppleLinkedFixture.appleUserID)

        fixture.clock.advance(by: 7200)
        try await fixture.service.refreshSession()
        #expect(fixture.store.storedSession?.appleSignInUserID == AppleLinkedFixture.appleUserID)
    }

    @Test func theNextSignInClearsTheReason() async throws {
        let fixture = AppleLinkedFixture()
        try await fixture.signInWithApple()
        let relaunched = await fixture.launchedAndChecked(asking: AppleAnswers { _ in .revoked })
        #expect(relaunched.sessionEndReason != nil)

        try await relaunched.signInAnonymously()
        #expect(relaunched.sessionEndReason == nil)
    }
}

/// A service whose user signed in with Apple, relaunched with a Sign in with Apple of the test's.
@MainActor
struct AppleLinkedFixture {
    static let appleUserID = "001234.5d1c0ffee0.0042"
    let clock = ManualClock()
    let backend: InMemoryAuthBackend
    let store = InMemorySessionStore()
    let service: AuthService

    init() {
        backend = InMemoryAuthBackend(configuration: .init(now: clock.now))
        service = AuthService(
            backend: backend,
            store: store,
            configuration: .init(clock: clock.authClock, appleCredentialState: nil)
        )
    }

    @discardableResult
    func signInWithApple() async throws -> User {
        let nonce = SignInNonce()
        let token = await backend.makeIDToken(
            provider: .apple,
            subject: Self.appleUserID,
            email: "ada@privaterelay.appleid.com",
            nonce: nonce.raw
        )
        return try await service.signInWithApple(
            idToken: token,
            nonce: nonce.raw,
            authorizationCode: "apple-code",
            fullName: nil
        )
    }

    /// The app launched again with `apple`, its session restored and Sign in with Apple asked.
    func launchedAndChecked(asking apple: AppleAnswers) async -> AuthService {
        let service = relaunched(asking: apple)
        await service.restoreSession()
        await service.waitForAppleCredentialCheck()
        return service
    }

    /// The app launched again. By default its clock waits for real, so an answer always comes
    /// before the 10-second timeout.
    func relaunched(asking apple: AppleAnswers, clock authClock: AuthClock? = nil) -> AuthService {
        AuthService(
            backend: backend,
            store: store,
            configuration: .init(
                clock: authClock ?? AuthClock(now: clock.now, sleep: { try await Task.sleep(for: $0) }),
                appleCredentialState: apple.provider
            )
        )
    }
}

/// A Sign in with Apple that answers as the test says and records whom it was asked about.
final class AppleAnswers: Sendable {
    private let questions = Locked<[String]>([])
    private let answer: @Sendable (String) async throws -> AppleCredentialState

    init(_ answer: @escaping @Sendable (String) async throws -> AppleCredentialState) {
        self.answer = answer
    }

    var asked: [String] { questions.withLock { $0 } }

    var provider: AppleCredentialStateProvider {
        AppleCredentialStateProvider { [questions, answer] appleUserID in
            questions.withLock { $0.append(appleUserID) }
            return try await answer(appleUserID)
        }
    }
}

/// An answer that comes only when the test opens the gate.
final class AnswerGate: Sendable {
    private let stream: AsyncStream<AppleCredentialState>
    private let continuation: AsyncStream<AppleCredentialState>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    func answer() async -> AppleCredentialState {
        for await state in stream { return state }
        return .authorized
    }

    func open(with state: AppleCredentialState) {
        continuation.yield(state)
        continuation.finish()
    }
}
