import Foundation
import Gatehouse
import GatehouseTesting
import Testing

@MainActor
@Suite("Signing in, up and as a guest")
struct AuthServiceSignInTests {
    @Test func signUpSignsInAndStoresTheSession() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        #expect(fixture.service.session == .success(nil))

        let result = try await fixture.service.signUp(email: "Ada@Example.com", password: password)

        guard case .signedIn(let user) = result else {
            Issue.record("expected signedIn, got \(result)")
            return
        }
        #expect(fixture.service.session == .success(user))
        #expect(fixture.service.state == .authenticated(user))
        #expect(fixture.service.operationStatus == .success)
        #expect(fixture.service.isAuthenticated && !fixture.service.isAnonymous)
        #expect(fixture.store.storedSession?.user == user)
    }

    @Test func signUpWithConfirmationNeedsTheEmailedCode() async throws {
        let fixture = Fixture(requiresEmailConfirmation: true)
        await fixture.service.restoreSession()

        let result = try await fixture.service.signUp(email: "ada@example.com", password: password)
        #expect(result == .confirmationRequired(email: "ada@example.com"))
        #expect(fixture.service.session == .success(nil))

        let code = try #require(await fixture.backend.lastCode(for: "ada@example.com", type: .signup))
        let user = try await fixture.service.confirmSignUp(email: "ada@example.com", code: code)
        #expect(fixture.service.currentUser == user)
        #expect(user.emailConfirmedAt != nil)
    }

    @Test func failedSignInSetsErrorWhichTheNextOperationClears() async throws {
        let fixture = Fixture()
        await fixture.backend.seedUser(email: "ada@example.com", password: password)
        await fixture.service.restoreSession()

        await #expect(throws: AuthError.invalidCredentials()) {
            try await fixture.service.signIn(email: "ada@example.com", password: "wrong password")
        }
        #expect(fixture.service.operationStatus == .error)
        #expect(fixture.service.authSession.error?.code == .invalidCredentials)
        #expect(fixture.service.authSession.isError)
        #expect(fixture.service.session == .success(nil))

        try await fixture.service.signIn(email: "ada@example.com", password: password)
        #expect(fixture.service.authSession.error == nil)
        #expect(fixture.service.authSession.isSuccess)
        #expect(fixture.service.isAuthenticated)
    }

    @Test func clearErrorResetsTheStatus() async throws {
        let fixture = Fixture()
        await #expect(throws: AuthError.self) { try await fixture.service.signIn(email: "nobody", password: "x") }
        #expect(fixture.service.authSession.error?.code == .validationFailed)
        fixture.service.clearError()
        #expect(fixture.service.authSession.error == nil)
        #expect(fixture.service.authSession.isIdle)
    }

    @Test func operationStatusIsPendingWhileAnOperationRuns() async throws {
        let fixture = Fixture()
        await fixture.backend.setLatency(.milliseconds(50))
        let task = Task { try await fixture.service.signInAnonymously() }
        await Task.yield()
        #expect(fixture.service.authSession.isLoading)
        _ = try await task.value
        #expect(!fixture.service.authSession.isLoading)
        #expect(fixture.service.authSession.isSuccess)
    }

    @Test func guestSignUpKeepsTheSameUserID() async throws {
        let fixture = Fixture()
        let guest = try await fixture.service.signInAnonymously()
        #expect(fixture.service.state == .guest(guest))
        #expect(fixture.service.isAnonymous && !fixture.service.isAuthenticated && fixture.service.isSignedIn)

        let result = try await fixture.service.signUp(email: "ada@example.com", password: password)

        guard case .signedIn(let upgraded) = result else {
            Issue.record("expected signedIn")
            return
        }
        #expect(upgraded.id == guest.id)
        #expect(!upgraded.isAnonymous)
        #expect(fixture.service.state == .authenticated(upgraded))
        #expect(fixture.store.storedSession?.user.id == guest.id)
    }

    @Test func guestSignInWithAppleKeepsTheSameUserID() async throws {
        let fixture = Fixture()
        let guest = try await fixture.service.signInAnonymously()
        let token = await fixture.backend.makeIDToken(
            provider: .apple,
            subject: "apple-1",
            email: "a@icloud.com",
            nonce: "n1"
        )

        let user = try await fixture.service.signInWithApple(
            idToken: token,
            nonce: "n1",
            authorizationCode: "code",
            fullName: nil
        )

        #expect(user.id == guest.id)
        #expect(fixture.service.isAuthenticated)
    }

    @Test func appleFirstAuthorizationNameIsKeptOnceAndNeverOverwritten() async throws {
        let fixture = Fixture()
        var name = PersonNameComponents()
        name.givenName = "Ada"
        name.familyName = "Lovelace"
        let first = await fixture.backend.makeIDToken(provider: .apple, subject: "apple-n", nonce: "n1")
        let user = try await fixture.service.signInWithApple(
            idToken: first,
            nonce: "n1",
            authorizationCode: "code",
            fullName: name
        )
        #expect(user.userMetadata["full_name"] == .string("Ada Lovelace"))
        #expect(user.userMetadata["given_name"] == .string("Ada"))
        #expect(user.userMetadata["family_name"] == .string("Lovelace"))
        await fixture.service.signOut()
        var other = PersonNameComponents()
        other.givenName = "Eve"
        let second = await fixture.backend.makeIDToken(provider: .apple, subject: "apple-n", nonce: "n2")
        let again = try await fixture.service.signInWithApple(
            idToken: second,
            nonce: "n2",
            authorizationCode: "code-2",
            fullName: other
        )
        #expect(again.id == user.id)
        #expect(again.userMetadata["given_name"] == .string("Ada"))
        #expect(again.userMetadata["full_name"] == .string("Ada Lovelace"))
    }

    @Test func googleSignInRefusesAMismatchedNonce() async throws {
        let fixture = Fixture()
        let token = await fixture.backend.makeIDToken(provider: .google, subject: "g-1", nonce: "expected")
        await #expect(throws: AuthError.self) {
            try await fixture.service.signInWithGoogle(idToken: token, nonce: "other")
        }
        #expect(fixture.service.currentUser == nil)
        let user = try await fixture.service.signInWithGoogle(idToken: token, nonce: "expected")
        #expect(fixture.service.currentUser == user)
    }

    @Test func magicCodeSignsIn() async throws {
        let fixture = Fixture()
        try await fixture.service.sendMagicCode(to: "ada@example.com")
        let code = try #require(await fixture.backend.lastCode(for: "ada@example.com", type: .email))

        await #expect(throws: AuthError.self) {
            try await fixture.service.verifyMagicCode(
                email: "ada@example.com",
                code: "000000" == code ? "111111" : "000000"
            )
        }
        let user = try await fixture.service.verifyMagicCode(email: "ada@example.com", code: code)
        #expect(user.email == "ada@example.com")
        #expect(fixture.service.isAuthenticated)
    }

    @Test func resetPasswordSucceedsForUnknownAddresses() async throws {
        let fixture = Fixture()
        try await fixture.service.resetPassword(email: "nobody@example.com")
        #expect(fixture.service.operationStatus == .success)
        #expect(await fixture.backend.sentCodes.isEmpty)
    }

    @Test func updateUserPublishesTheNewProfile() async throws {
        let fixture = Fixture()
        try await fixture.service.signUp(email: "ada@example.com", password: password)
        let recorder = EventRecorder(fixture.service)

        let user = try await fixture.service.updateUser(UserChanges(data: ["name": "Ada"]))

        #expect(user.userMetadata["name"] == "Ada")
        #expect(fixture.service.currentUser?.userMetadata["name"] == "Ada")
        #expect(fixture.store.storedSession?.user.userMetadata["name"] == "Ada")
        await recorder.settle()
        #expect(recorder.events.contains(.userUpdated(user)))
    }

    @Test func deleteAccountSignsOutAndEmitsUserDeleted() async throws {
        let fixture = Fixture()
        let user = try #require(try await fixture.service.signUp(email: "ada@example.com", password: password).user)
        let recorder = EventRecorder(fixture.service)

        try await fixture.service.deleteAccount()

        #expect(fixture.service.session == .success(nil))
        #expect(fixture.store.storedSession == nil)
        #expect(await fixture.backend.user(id: user.id) == nil)
        await recorder.settle()
        #expect(recorder.events.last == .userDeleted)
    }

    @Test func deleteAccountRefusedByTheServerChangesNothing() async throws {
        let fixture = Fixture()
        try await fixture.service.signUp(email: "ada@example.com", password: password)
        await fixture.backend.setOffline(true)

        await #expect(throws: AuthError.self) { try await fixture.service.deleteAccount() }

        #expect(fixture.service.isAuthenticated)
        #expect(fixture.store.storedSession != nil)
    }

    @Test func fireAndForgetFormsReportThroughCallbacks() async throws {
        let fixture = Fixture()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            fixture.service.signInAnonymously(onSuccess: { _ in done.resume() }, onError: { _ in done.resume() })
        }
        #expect(fixture.service.isAnonymous)

        let error: AuthError = await withCheckedContinuation { done in
            fixture.service.signIn(
                email: "ada@example.com",
                password: "nope",
                onSuccess: { _ in },
                onError: { done.resume(returning: $0) }
            )
        }
        #expect(error.code == .invalidCredentials)
        #expect(fixture.service.authSession.error == error)
    }

    @Test func eventsReportSignInAndSignOut() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let recorder = EventRecorder(fixture.service)

        let user = try await fixture.service.signInAnonymously()
        await fixture.service.signOut()
        await recorder.settle()

        #expect(recorder.events == [.initialSession(nil), .signedIn(user), .signedOut])
    }
}

extension SignUpResult {
    var user: User? {
        if case .signedIn(let user) = self { return user }
        return nil
    }
}
