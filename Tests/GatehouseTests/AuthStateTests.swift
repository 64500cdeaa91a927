import Foundation
import Gatehouse
import Testing

@Suite("Auth state and session values")
struct AuthStateTests {
    let member = User(id: "u1", email: "ada@example.com")
    let guest = User(id: "g1", isAnonymous: true)

    @Test func lifecycleMapsToState() {
        #expect(AuthState(Loadable<User?>.notInitiated) == .loading)
        #expect(AuthState(Loadable<User?>.loading) == .loading)
        #expect(AuthState(Loadable<User?>.success(nil)) == .unauthenticated)
        #expect(AuthState(Loadable<User?>.success(member)) == .authenticated(member))
        #expect(AuthState(Loadable<User?>.success(guest)) == .guest(guest))
        #expect(AuthState(Loadable<User?>.failure(.storageLocked())) == .loading)
    }

    @Test func stateFlags() {
        #expect(AuthState.authenticated(member).isAuthenticated)
        #expect(AuthState.authenticated(member).isSignedIn)
        #expect(!AuthState.authenticated(member).isGuest)
        #expect(AuthState.guest(guest).isGuest)
        #expect(AuthState.guest(guest).isSignedIn)
        #expect(!AuthState.guest(guest).isAuthenticated)
        #expect(AuthState.unauthenticated.user == nil)
        #expect(!AuthState.loading.isSignedIn)
        #expect(AuthState.guest(guest).user == guest)
    }

    @Test(arguments: OperationStatus.allCases)
    func sessionConvenienceFlagsFollowOperationStatus(status: OperationStatus) {
        let session = AuthSession(state: .authenticated(member), operationStatus: status)
        #expect(session.isLoading == (status == .pending))
        #expect(session.isSuccess == (status == .success))
        #expect(session.isIdle == (status == .idle))
        #expect(!session.isError)
        #expect(session.user == member)
        #expect(session.isSignedIn && session.isAuthenticated && !session.isGuest)
    }

    @Test func sessionIsErrorWhenAnErrorIsSet() {
        let session = AuthSession(state: .guest(guest), operationStatus: .error, error: .invalidCredentials())
        #expect(session.isError)
        #expect(session.isGuest && session.isSignedIn && !session.isAuthenticated)
        #expect(session != AuthSession(state: .guest(guest), operationStatus: .error, error: nil))
    }

    @Test func errorsCompareByCodeAndMessageAndMapToRecovery() {
        var other = AuthError.networkUnavailable(underlying: "timed out")
        other.underlying = "refused"
        #expect(other == .networkUnavailable(underlying: "timed out"))
        #expect(AuthError.networkUnavailable().recovery == .offline)
        #expect(AuthError.notSignedIn().recovery == .signIn)
        #expect(AuthError(code: .userNotFound, message: "gone").recovery == .clearLocalData)
        #expect(AuthError.invalidCredentials().recovery == .retry)
        #expect(AuthError(code: .sessionNotFound, message: "x").endsSession)
        #expect(!AuthError.networkUnavailable().endsSession)
        #expect(AuthError.invalidCredentials().localizedDescription == "The e-mail address or password is incorrect.")
    }
}

@Suite("Session values")
struct SessionValueTests {
    @Test func descriptionsNeverContainTokens() {
        let session = Session(
            accessToken: "secret-access",
            refreshToken: "secret-refresh",
            expiresAt: .distantFuture,
            user: User(id: "u1")
        )
        #expect(!"\(session)".contains("secret"))
        #expect(!String(reflecting: session).contains("secret"))
    }

    @Test func expiryUsesTheLocalClockFromExpiresIn() {
        let wire = WireSession(
            accessToken: "a",
            expiresIn: 3600,
            expiresAt: 0,
            refreshToken: "r",
            user: WireUser(id: UUID(), createdAt: .distantPast, updatedAt: .distantPast)
        )
        let received = Date(timeIntervalSince1970: 1_000)
        let session = Session(wire: wire, receivedAt: received)
        #expect(session.expiresAt == received.addingTimeInterval(3600))
        #expect(session.expires(within: 60, of: received.addingTimeInterval(3541)))
        #expect(!session.expires(within: 60, of: received.addingTimeInterval(3539)))
    }
}
