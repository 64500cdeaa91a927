import Foundation
import GatehouseServer
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

/// Passkeys count as a way to sign in, in both directions: an identity unlinks when a passkey
/// remains, and a passkey cannot go when it is the account's only way in (422
/// `single_identity_not_deletable`). The passkey rows are stored directly: these rules count
/// them and never verify them (ceremonies: ``PasskeyInteropTests``).
@Suite("The last way to sign in, passkeys included")
struct SignInWaysTests {
    static func insertPasskey(for userID: String, in harness: Harness) async throws -> UUID {
        let user = try #require(UUID(uuidString: userID))
        let now = harness.clock.now()
        let passkey = PasskeyRecord(
            userID: user,
            credentialID: "credential-\(UUID().uuidString)",
            publicKey: "AA",
            algorithm: -7,
            attestationType: "none",
            aaguid: UUID().uuidString.lowercased(),
            signCount: 0,
            transports: ["internal"],
            backupEligible: true,
            backedUp: true,
            friendlyName: "iPhone",
            createdAt: now,
            updatedAt: now
        )
        try await harness.server.storage.transaction { try await $0.insertPasskey(passkey) }
        return passkey.id
    }

    @Test func anIdentityUnlinksWhenAPasskeyRemainsAndThatPasskeyThenStays() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            let appleOnly = try await IDTokenTests.signIn(
                client,
                apple,
                at: harness.clock.now(),
                subject: "apple-only",
                email: nil
            )
            let token = appleOnly.string("access_token")
            let identity = try #require(IDTokenTests.identities(appleOnly).first?["identity_id"] as? String)
            let alone = try await client.send(.delete, "/user/identities/\(identity)", bearer: token)
            #expect(alone.status == .unprocessableContent)
            #expect(alone.errorCode == "single_identity_not_deletable")

            let passkey = try await Self.insertPasskey(for: try #require(appleOnly.user["id"] as? String), in: harness)
            let unlinked = try await client.send(.delete, "/user/identities/\(identity)", bearer: token)
            #expect(unlinked.status == .ok, "the passkey is a way to sign in")
            #expect(IDTokenTests.identities(try await client.get("/user", bearer: token)).isEmpty)

            let last = try await client.send(.delete, "/passkeys/\(passkey.uuidString)", bearer: token)
            #expect(last.status == .unprocessableContent)
            #expect(last.errorCode == "single_identity_not_deletable")
            let listed = try await client.get("/passkeys", bearer: token)
            #expect((try JSONSerialization.jsonObject(with: Data(listed.text.utf8)) as? [Any])?.count == 1)
        }
    }

    @Test func aPasskeyGoesWhenAnIdentityRemainsAndThatIdentityThenStays() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            let appleUser = try await IDTokenTests.signIn(
                client,
                apple,
                at: harness.clock.now(),
                subject: "apple-with-passkey",
                email: nil
            )
            let token = appleUser.string("access_token")
            let identity = try #require(IDTokenTests.identities(appleUser).first?["identity_id"] as? String)
            let passkey = try await Self.insertPasskey(for: try #require(appleUser.user["id"] as? String), in: harness)
            let removed = try await client.send(.delete, "/passkeys/\(passkey.uuidString)", bearer: token)
            #expect(removed.status == .noContent, "Apple still signs the user in")
            let alone = try await client.send(.delete, "/user/identities/\(identity)", bearer: token)
            #expect(alone.status == .unprocessableContent)
            #expect(alone.errorCode == "single_identity_not_deletable")
        }
    }

    @Test func anEmailUserUnlinksAProviderWithOrWithoutPasskeys() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            let ada = try await client.confirmedSession(email: "ada@example.org")
            let linked = try await IDTokenTests.signIn(
                client,
                apple,
                at: harness.clock.now(),
                subject: "apple-ada",
                email: nil,
                link: ada.string("access_token")
            )
            let token = linked.string("access_token")
            let identity = try #require(
                IDTokenTests.identities(linked).first { $0["provider"] as? String == "apple" }?["identity_id"]
                    as? String
            )
            let passkey = try await Self.insertPasskey(for: try #require(ada.user["id"] as? String), in: harness)
            #expect(
                try await client.send(.delete, "/passkeys/\(passkey.uuidString)", bearer: token).status == .noContent
            )
            #expect(try await client.send(.delete, "/user/identities/\(identity)", bearer: token).status == .ok)
        }
    }
}
