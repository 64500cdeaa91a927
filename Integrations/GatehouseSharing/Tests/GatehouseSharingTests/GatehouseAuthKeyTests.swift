import Dependencies
import Foundation
import Gatehouse
import GatehouseSharing
import GatehouseTesting
import Sharing
import Testing

@MainActor
@Suite("@Shared(.gatehouseAuth) with the real swift-sharing")
struct GatehouseAuthKeyTests {
    let service = AuthService(
        backend: InMemoryAuthBackend(),
        store: InMemorySessionStore(),
        configuration: .init(verifiesRestoredSession: false)
    )

    @Test func theSharedValueIsTheServicesSessionAndFollowsItsOperations() async throws {
        await service.restoreSession()
        try await withDependencies {
            $0.gatehouseAuthService = service
        } operation: {
            @Shared(.gatehouseAuth) var auth: AuthSession
            @SharedReader(.gatehouseAuth) var reader: AuthSession
            #expect(auth.state == .unauthenticated)
            #expect(reader.state == .unauthenticated)

            var signedIn: User?
            $auth.signInAsGuest { signedIn = $0 }

            try await until { signedIn != nil && auth.state.isGuest && reader.state.isGuest }
            #expect(auth.user == signedIn)
            #expect(auth.isSuccess && !auth.isLoading)

            $auth.signOut()
            try await until { auth.state == .unauthenticated }
        }
    }

    @Test func anExplicitServiceNeedsNoDependency() async throws {
        await service.restoreSession()
        @Shared(.gatehouseAuth(service)) var auth: AuthSession
        #expect(auth.state == .unauthenticated)

        var failure: (any Error)?
        $auth.verifyMagicCode(email: "ada@example.com", code: "000000") { _ in } onError: { failure = $0 }

        try await until { failure != nil && auth.error != nil }
        #expect(auth.isError)
        $auth.clearError()
        try await until { auth.error == nil }
    }

    @Test func aWriteIsIgnoredAndReported() async throws {
        await service.restoreSession()
        let user = try await service.signInAnonymously()
        @Shared(.gatehouseAuth(service)) var auth: AuthSession
        try await until { auth.state == .guest(user) }

        withKnownIssue {
            $auth.withLock { $0.state = .unauthenticated }
        }

        try await until { auth.state == .guest(user) }
    }

    @Test func withoutAServiceTheValueStaysLoadingAndOperationsSaySo() throws {
        try withDependencies {
            $0.gatehouseAuthService = nil
        } operation: {
            var auth: Shared<AuthSession>?
            withKnownIssue {
                auth = Shared(.gatehouseAuth)
            }
            let shared = try #require(auth)
            #expect(shared.wrappedValue.state == .loading)
            var failure: (any Error)?
            withKnownIssue {
                shared.signInAsGuest(onError: { failure = $0 })
            }
            #expect((failure as? AuthError) == .disconnectedSession())
        }
    }

    /// Waits until `condition` holds, for at most ten seconds.
    private func until(_ condition: @MainActor () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition did not hold within ten seconds")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
