import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// Sign-in through a provider's page (GitHub): the in-memory simulation held to the server's
/// `/authorize` → provider → `/callback` → `grant_type=pkce` path.
@Suite("Contract: provider sign-in with PKCE", .serialized)
struct ProviderContract {
    static let github = ContractSettings(autoconfirm: true, github: true)
    static let redirect = URL(string: "http://127.0.0.1:53682/callback")!

    @Test(arguments: BackendKind.underTest)
    func theCodeWorksOnceWithItsVerifierAndTheSameSubjectReturnsToTheSameUser(_ kind: BackendKind) async throws {
        try await kind.run(Self.github) { world in
            let ada = InMemoryAuthBackend.ProviderAccount(subject: "4242", email: "ada@example.com")
            let (flow, code) = try await Self.consented(world, as: ada)
            await expectFailure(.badCodeVerifier, "another verifier") {
                try await world.backend.exchangeAuthCode(code, verifier: PKCEVerifier().verifier)
            }
            let session = try await world.backend.exchangeAuthCode(code, verifier: flow.pkce.verifier)
            #expect(session.user.email == "ada@example.com" && session.user.emailConfirmedAt != nil)
            #expect(session.user.identities.map(\.provider) == ["github"])
            await expectFailure(.flowStateNotFound, "replayed") {
                try await world.backend.exchangeAuthCode(code, verifier: flow.pkce.verifier)
            }
            // GitHub gives no address this time: the identity still signs into the same account.
            let (again, againCode) = try await Self.consented(world, as: .init(subject: "4242"))
            let second = try await world.backend.exchangeAuthCode(againCode, verifier: again.pkce.verifier)
            #expect(second.user.id == session.user.id)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func declineComesBackAsAccessDeniedWithTheFlowsState(_ kind: BackendKind) async throws {
        try await kind.run(Self.github) { world in
            let flow = try ProviderSignInFlow(provider: "github", redirectTo: Self.redirect)
            let page = try await world.backend.providerSignInURL(for: flow)
            let back = try await world.providerConsent(at: page, as: nil)
            #expect(try flow.result(of: back) == .declined)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anAddressLinksToAnExistingAccountOnlyWhenTheProviderVouchesForIt(_ kind: BackendKind) async throws {
        try await kind.run(Self.github) { world in
            let outcome = try await world.backend.signUp(email: "ada@example.com", password: contractPassword, upgrading: nil)
            guard case .signedIn(let account) = outcome else { throw ContractFailure.unexpected("\(outcome)") }
            let unverified = InMemoryAuthBackend.ProviderAccount(subject: "7", email: "ada@example.com", emailVerified: false)
            let flow = try ProviderSignInFlow(provider: "github", redirectTo: Self.redirect)
            let back = try await world.providerConsent(at: try await world.backend.providerSignInURL(for: flow), as: unverified)
            await expectFailure(.emailExists, "an unverified address never links") { _ = try flow.result(of: back) }

            let (vouched, code) = try await Self.consented(world, as: .init(subject: "7", email: "ada@example.com"))
            let linked = try await world.backend.exchangeAuthCode(code, verifier: vouched.pkce.verifier)
            #expect(linked.user.id == account.user.id)
            // The password still works: the address was confirmed already.
            _ = try await world.backend.signIn(email: "ada@example.com", password: contractPassword)
        }
    }

    /// A consented flow's code.
    static func consented(
        _ world: any ContractWorld,
        as account: InMemoryAuthBackend.ProviderAccount
    ) async throws -> (ProviderSignInFlow, String) {
        let flow = try ProviderSignInFlow(provider: "github", redirectTo: redirect)
        let page = try await world.backend.providerSignInURL(for: flow)
        guard case .code(let code) = try flow.result(of: try await world.providerConsent(at: page, as: account)) else {
            throw ContractFailure.unexpected("declined")
        }
        return (flow, code)
    }
}
