import Foundation
import GatehouseServer
import GatehouseStorage
import HTTPTypes
import Testing

/// A guest's pending address does not capture the owner's Apple sign-in, and a provider that
/// vouches for an unconfirmed address drops the password nobody proved (`security.md` OWN-1, OWN-2).
@Suite("Pending addresses and provider sign-in")
struct PendingAddressProviderTests {
    @Test func aGuestsPendingAddressDoesNotCaptureTheOwnersProviderSignIn() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            let guest = try await client.post("/signup", "{}")
            _ = try await client.send(
                .put,
                "/user",
                json: #"{"email":"ada@example.com","password":"attacker chosen phrase"}"#,
                bearer: guest.string("access_token")
            )
            let owner = try await IDTokenTests.signIn(client, apple, at: harness.clock.now(), email: "ada@example.com")
            #expect(owner.status == .ok, "\(owner.text)")
            #expect(owner.user["id"] as? String != guest.user["id"] as? String)
            #expect(owner.user["email"] as? String == "ada@example.com")
            #expect(
                try await client.signIn("ada@example.com", "attacker chosen phrase").errorCode == "invalid_credentials"
            )
        }
    }

    @Test func aVouchedAddressDropsAnUnprovenPasswordAndRecordsIt() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            _ = try await client.post("/signup", #"{"email":"ada@example.com","password":"attacker chosen phrase"}"#)
            let owner = try await IDTokenTests.signIn(client, apple, at: harness.clock.now(), email: "ada@example.com")
            #expect(owner.status == .ok, "\(owner.text)")
            #expect(
                try await client.signIn("ada@example.com", "attacker chosen phrase").errorCode == "invalid_credentials"
            )
            let audit = try await harness.server.storage.transaction { try await $0.auditEntries(limit: 20) }
            #expect(audit.contains { $0.action == .unprovenPasswordDropped })
        }
    }
}
