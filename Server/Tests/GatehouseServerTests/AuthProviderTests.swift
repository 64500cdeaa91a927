import Foundation
import GatehouseCore
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 33: providers are typed at the storage seam (``AuthProvider``): identities, flows,
/// used nonces and a session's `amr` entries hold one, and the stored and wire texts stay
/// GoTrue's. A provider this build has no constant for (one configured by name, or imported)
/// reads back as its text, unchanged.
@Suite("Provider names at the storage seam")
struct AuthProviderTests {
    @Test func theConstantsAreGoTruesNames() {
        #expect(AuthProvider.email.rawValue == "email")
        #expect(AuthProvider.apple.rawValue == "apple")
        #expect(AuthProvider.google.rawValue == "google")
        #expect(IdentityProvider.allCases.map(\.name) == [.apple, .google])
    }

    @Test(arguments: [AuthProvider.google, AuthProvider(rawValue: "keycloak")])
    func anIdentityReadsBackWithItsProviderAndTheWireKeepsTheText(_ provider: AuthProvider) async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let now = harness.clock.now()
        let user = UserRecord(email: "ada@example.com", createdAt: now, updatedAt: now)
        let identity = IdentityRecord(
            userID: user.id,
            provider: provider,
            subject: "subject-1",
            email: "ada@example.com",
            data: [:],
            lastSignInAt: now,
            createdAt: now,
            updatedAt: now
        )
        try await harness.server.storage.transaction { tx in
            try await tx.insertUser(user)
            try await tx.insertIdentity(identity)
        }
        let read = try await harness.server.storage.read {
            try await $0.identity(provider: provider, subject: "subject-1")
        }
        #expect(read?.provider == provider && read?.id == identity.id)
        let other = try await harness.server.storage.read {
            try await $0.identity(provider: AuthProvider(rawValue: "other"), subject: "subject-1")
        }
        #expect(other == nil)
        let listed = try await harness.server.storage.read { try await $0.user(id: user.id) }
        #expect(listed?.identities.map(\.provider) == [provider])
        #expect(listed?.wire.identities?.map(\.provider) == [provider.rawValue])
        try await harness.server.storage.close()
    }

    /// A session's `amr` keeps the provider as a JSON string, as before.
    @Test func anAMREntryStoresItsProviderAsText() throws {
        let entries = [AMREntry(method: .oauth, timestamp: 1_795_700_000, provider: AuthProvider(rawValue: "keycloak"))]
        let text = JSONText.encode(entries)
        #expect(text.contains(#""provider":"keycloak""#), "\(text)")
        #expect(try AMRText.entries(text) == entries)
    }
}
