import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// Issue 30: every Sign in with Apple entry point carries the authorization code and the name;
/// a sign-in without the code logs a warning and stops a debug build (outside tests and
/// previews, through the developer alarm, which tests observe).
@MainActor
@Suite("Sign in with Apple entry points")
struct AppleSignInEntryPointTests {
    let clock = ManualClock()
    let backend: InMemoryAuthBackend
    let alarm = AlarmRecorder()
    let log = LogRecorder()
    let service: AuthService

    init() {
        backend = InMemoryAuthBackend(configuration: .init(now: clock.now))
        service = AuthService(
            backend: backend,
            store: InMemorySessionStore(),
            configuration: .init(clock: clock.authClock, log: log.sink, appleCredentialState: nil, developerAlarm: alarm.alarm)
        )
    }

    func appleToken(_ nonce: SignInNonce, subject: String = "apple-1") async -> String {
        await backend.makeIDToken(provider: .apple, subject: subject, email: "a@privaterelay.appleid.com", nonce: nonce.raw)
    }

    @Test func aSignInWithItsCodeAndNameRaisesNothingAndKeepsTheName() async throws {
        let nonce = SignInNonce()
        var name = PersonNameComponents()
        name.givenName = "Ada"
        let user = try await service.signInWithApple(
            idToken: await appleToken(nonce),
            nonce: nonce.raw,
            authorizationCode: "c-1",
            fullName: name
        )
        #expect(alarm.messages.isEmpty)
        #expect(!log.messages.contains { $0.contains("authorization code") })
        #expect(user.userMetadata["given_name"] == .string("Ada"))
    }

    @Test func aSignInWithoutTheCodeLogsAWarningAndStopsADebugBuild() async throws {
        let nonce = SignInNonce()
        try await service.signInWithApple(idToken: await appleToken(nonce), nonce: nonce.raw, authorizationCode: nil, fullName: nil)

        #expect(alarm.messages.count == 1)
        #expect(alarm.messages.first?.contains("signInWithApple(credential:nonce:)") == true)
        let warning = try #require(log.events.first { $0.message.contains("authorization code") })
        #expect(warning.level == .warning)
        #expect(service.isAuthenticated, "the sign-in itself goes ahead")
    }

    @Test func anEmptyCodeIsNoCode() async throws {
        let nonce = SignInNonce()
        try await service.signIn(
            with: IDTokenCredential(provider: .apple, idToken: await appleToken(nonce), nonce: nonce.raw, authorizationCode: "")
        )
        #expect(alarm.messages.count == 1)
    }

    @Test func theCallbackFormCarriesTheCodeAndTheName() async throws {
        let nonce = SignInNonce()
        var name = PersonNameComponents()
        name.familyName = "Lovelace"
        let token = await appleToken(nonce)
        let signedIn = await withCheckedContinuation { (continuation: CheckedContinuation<User?, Never>) in
            service.signInWithApple(
                idToken: token,
                nonce: nonce.raw,
                authorizationCode: "c-2",
                fullName: name,
                onSuccess: { continuation.resume(returning: $0) },
                onError: { _ in continuation.resume(returning: nil) }
            )
        }
        #expect(signedIn?.userMetadata["family_name"] == .string("Lovelace"))
        #expect(alarm.messages.isEmpty, "the code arrived")
    }

    @Test func theCredentialFormSendsEverySystemValue() async throws {
        let nonce = SignInNonce()
        var name = PersonNameComponents()
        name.givenName = "Grace"
        let credential = AppleIDCredential(
            user: "apple-1",
            identityToken: Data(await appleToken(nonce).utf8),
            authorizationCode: Data("c-3".utf8),
            fullName: name,
            email: "a@privaterelay.appleid.com"
        )
        let user = try await service.signInWithApple(credential, nonce: nonce)
        #expect(alarm.messages.isEmpty, "the code was sent")
        #expect(user.userMetadata["given_name"] == .string("Grace"))
        #expect(user.appleUserID == "apple-1")
    }

    @Test func theEmptyNameOfALaterAuthorizationIsNoName() throws {
        let credential = AppleIDCredential(
            user: "apple-1",
            identityToken: Data("x.y.z".utf8),
            authorizationCode: Data("c".utf8),
            fullName: PersonNameComponents()
        )
        let sent = try credential.idTokenCredential(nonce: SignInNonce(raw: "n"))
        #expect(sent.fullName == nil)
        #expect(sent.authorizationCode == "c" && sent.nonce == "n" && sent.provider == .apple)
    }

    @Test func aCredentialWithoutAnIdentityTokenFailsAndSaysSo() async throws {
        let credential = AppleIDCredential(user: "apple-1", identityToken: nil, authorizationCode: Data("c".utf8))
        await #expect(throws: AuthError.self) { try await service.signInWithApple(credential, nonce: SignInNonce()) }
        #expect(service.operationError?.code == .idTokenInvalid)
        #expect(service.currentUser == nil)
    }

    @Test func aGoogleSignInNeedsNoCode() async throws {
        let token = await backend.makeIDToken(provider: .google, subject: "g-1", email: "g@gmail.com", nonce: "n")
        try await service.signInWithGoogle(idToken: token, nonce: "n")
        #expect(alarm.messages.isEmpty)
    }

    @Test func aGuestUpgradeWithoutTheCodeIsReportedToo() async throws {
        try await service.signInAnonymously()
        let nonce = SignInNonce()
        _ = try await service.upgradeGuest(
            with: IDTokenCredential(provider: .apple, idToken: await appleToken(nonce), nonce: nonce.raw)
        )
        #expect(alarm.messages.count == 1)
    }
}

/// Issue 30: an activation re-runs the restore only for failures that may pass.
@MainActor
@Suite("Activations and failed restores")
struct ActivationRestoreTests {
    @Test func anActivationRestoresAgainOnlyWhenTheFailureMayPass() async throws {
        let store = InMemorySessionStore()
        let service = AuthService(backend: InMemoryAuthBackend(), store: store, configuration: .init(appleCredentialState: nil))

        store.failLoads(with: .storageCorrupt(keychainItem: "app/session"))
        await service.restoreSession()
        let afterFailure = store.callCounts.loads
        await service.applicationDidBecomeActive()
        await service.protectedDataDidBecomeAvailable()
        #expect(store.callCounts.loads == afterFailure, "an unreadable session does not become readable by activating")

        store.failLoads(with: .storageLocked())
        await service.restoreSession()
        let whileLocked = store.callCounts.loads
        store.failLoads(with: nil)
        await service.applicationDidBecomeActive()
        #expect(store.callCounts.loads == whileLocked + 1)
        #expect(service.session == .success(nil))
    }
}

/// A log sink that keeps what it receives.
final class LogRecorder: Sendable {
    private let received = Locked<[LogSink.Event]>([])
    var events: [LogSink.Event] { received.withLock { $0 } }
    var messages: [String] { events.map(\.message) }
    var sink: LogSink { LogSink { [received] event in received.withLock { $0.append(event) } } }
}
