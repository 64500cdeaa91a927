import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// Waits for a callback to be called, for at most ten seconds.
@MainActor
final class CallbackProbe<Value> {
    private(set) var value: Value?

    func receive(_ value: Value) { self.value = value }

    func wait() async throws -> Value {
        let deadline = ContinuousClock.now + .seconds(10)
        while value == nil {
            guard ContinuousClock.now < deadline else {
                Issue.record("the callback was not called within ten seconds")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        return value!
    }
}

@MainActor
@Suite("Seed 002's operations on an AuthSession value")
struct AuthOperationsTests {
    @Test func signInAsGuestCallsBackWithTheUserAndRecordsSuccess() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let operations = try #require(fixture.service.authSession.operations)
        let signedIn = CallbackProbe<User>()

        operations.signInAsGuest(onSuccess: { signedIn.receive($0) })

        #expect(fixture.service.authSession.isLoading || fixture.service.authSession.isSuccess)
        let user = try await signedIn.wait()
        #expect(user.isAnonymous)
        #expect(fixture.service.authSession.state == .guest(user))
        #expect(fixture.service.authSession.isSuccess)
        #expect(fixture.service.authSession.error == nil)
    }

    @Test func aMagicCodeIsSentThenVerified() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let operations = try #require(fixture.service.authSession.operations)
        let sent = CallbackProbe<Bool>()

        operations.sendMagicCode(to: "ada@example.com", onSuccess: { sent.receive(true) })
        _ = try await sent.wait()
        let code = try #require(await fixture.backend.lastCode(for: "ada@example.com"))
        let verified = CallbackProbe<User>()
        operations.verifyMagicCode(email: "ada@example.com", code: code, onSuccess: { verified.receive($0) })

        let user = try await verified.wait()
        #expect(user.email == "ada@example.com")
        #expect(fixture.service.authSession.state == .authenticated(user))
    }

    @Test func aFailureCallsOnErrorAndStaysInTheSessionUntilCleared() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let operations = try #require(fixture.service.authSession.operations)
        let failed = CallbackProbe<any Error>()

        operations.signIn(email: "nobody@example.com", password: password, onError: { failed.receive($0) })

        let error = try #require(try await failed.wait() as? AuthError)
        #expect(error.code == .invalidCredentials)
        #expect(fixture.service.authSession.error == error)
        #expect(fixture.service.authSession.operationStatus == .error)

        operations.clearError()
        #expect(fixture.service.authSession.error == nil)
        #expect(fixture.service.authSession.isIdle)
    }

    @Test func signOutCallsBackAndSignsOut() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        _ = try await fixture.service.signInAnonymously()
        let operations = try #require(fixture.service.authSession.operations)
        let signedOut = CallbackProbe<Bool>()

        operations.signOut(onSuccess: { signedOut.receive(true) })

        _ = try await signedOut.wait()
        #expect(fixture.service.authSession.state == .unauthenticated)
    }

    @Test func aGuestIsUpgradedInPlace() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let guest = try await fixture.service.signInAnonymously()
        let operations = try #require(fixture.service.authSession.operations)
        let upgraded = CallbackProbe<GuestUpgradeOutcome>()

        operations.upgradeGuest(email: "ada@example.com", password: password, onSuccess: { upgraded.receive($0) })

        _ = try await upgraded.wait()
        #expect(fixture.service.currentUser?.id == guest.id)
    }

    @Test func aValueWhoseServiceIsGoneSaysSoAndChangesNothing() async throws {
        var operations: AuthOperations?
        weak var released: AuthService?
        do {
            let fixture = Fixture(verifies: false)
            released = fixture.service
            operations = fixture.service.authSession.operations
        }
        try #require(released == nil)
        let failed = CallbackProbe<any Error>()

        operations?.signInAsGuest(onError: { failed.receive($0) })

        let error = try #require(try await failed.wait() as? AuthError)
        #expect(error == .disconnectedSession())
    }

    @Test func aValueMadeByHandHasNoOperationsAndEqualityIgnoresTheService() async {
        let first = Fixture(verifies: false)
        let second = Fixture(verifies: false)
        await first.service.restoreSession()
        await second.service.restoreSession()

        #expect(AuthSession().operations == nil)
        #expect(first.service.authSession == second.service.authSession)
        #expect(first.service.authSession.operations != second.service.authSession.operations)
        #expect(first.service.authSession.operations == first.service.authSession.operations)
    }
}
