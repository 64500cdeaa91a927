import Crypto
import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Apple's refresh token (issue 21): the server exchanges the `authorization_code` sent beside
/// an Apple ID token at a fake Apple on loopback, keeps the token sealed, and revokes it when
/// the user or the Apple identity is deleted, retrying until Apple takes it.
@Suite("Apple's tokens: code exchange and revocation")
struct AppleTokenTests {
    static let client = IDTokenTests.appleClient

    /// A server with Apple's developer key, pointed at a fake Apple.
    static func withApple(
        configure: @escaping @Sendable (inout ServerConfiguration, FakeApple) -> Void = { _, _ in },
        _ body: @escaping @Sendable (Client, FakeApple, Harness) async throws -> Void
    ) async throws {
        let clock = TestClock()
        let apple = try await FakeApple(clientID: client, clock: clock.now)
        let harness = try await Harness.make(clock: clock) { configuration in
            configuration.apple = IdentityProviderSettings(clientIDs: [client], jwksURL: apple.provider.url)
            configuration.appleBaseURL = apple.provider.baseURL
            configuration.appleAccount = apple.account
            configure(&configuration, apple)
        }
        defer { harness.removeFiles() }
        do {
            try await harness.live { client in try await body(client, apple, harness) }
        } catch {
            await apple.stop()
            throw error
        }
        await apple.stop()
    }

    /// An Apple sign-in with a fresh nonce, `code` beside the token and `extra` fields.
    static func signIn(
        _ client: Client,
        _ apple: FakeApple,
        _ harness: Harness,
        subject: String = "apple-1",
        code: String?,
        extra: [String: Any] = [:],
        email: String? = nil,
        bearer: String? = nil
    ) async throws -> Reply {
        let nonce = UUID().uuidString
        let token = try apple.provider.token(now: harness.clock.now(), subject: subject, rawNonce: nonce, email: email)
        var body: [String: Any] = ["provider": "apple", "id_token": token, "nonce": nonce]
        if let code { body["authorization_code"] = code }
        if bearer != nil { body["link_identity"] = true }
        body.merge(extra) { _, new in new }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        return try await client.post("/token?grant_type=id_token", json, bearer: bearer)
    }

    static func appleIdentityID(_ reply: Reply) throws -> UUID {
        let identity = try #require(IDTokenTests.identities(reply).first { $0["provider"] as? String == "apple" })
        return try #require(UUID(uuidString: identity["identity_id"] as? String ?? ""))
    }

    static func storedToken(_ harness: Harness, _ identityID: UUID) async throws -> String? {
        try await harness.server.storage.transaction { tx in
            try await tx.appleToken(identityID: identityID)?.sealedToken
        }
    }

    /// Runs revocation passes (moving the clock `seconds` each time, past each retry delay by
    /// default) until Apple has taken `count` revocations and the server has recorded them; a
    /// deletion's own pass may be running meanwhile.
    static func deliver(
        _ harness: Harness,
        _ apple: FakeApple,
        until count: Int,
        advancing seconds: TimeInterval = 120
    ) async throws {
        // Two minutes a step: past every retry delay of the first attempts (30 s, 60 s), well
        // within a claimed row's lease (600 s), so a pass the application started itself (a
        // deletion's) keeps its row while it calls Apple, and no row is revoked twice.
        for _ in 0..<200 {
            let recorded = try await harness.server.storage.transaction { tx in
                try await tx.auditEntries(limit: 100).filter { $0.action == .appleTokenRevoked }.count
            }
            if recorded >= count, apple.revocations.filter(\.accepted).count >= count { return }
            try await harness.server.deliverAppleRevocations()
            harness.clock.advance(by: seconds)
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func theCodeIsExchangedAndTheTokenKeptSealed() async throws {
        try await Self.withApple { client, apple, harness in
            let first = try await Self.signIn(
                client,
                apple,
                harness,
                code: apple.issueCode(subject: "apple-1"),
                extra: ["full_name": ["given_name": "Ada", "family_name": "Lovelace"]]
            )
            #expect(first.status == .ok, "\(first.text)")
            #expect(apple.exchanges == 1)
            let identityID = try Self.appleIdentityID(first)
            let plaintext = try #require(apple.refreshTokens.first)
            let sealed = try #require(try await Self.storedToken(harness, identityID))
            #expect(sealed.hasPrefix(SigningKeyVault.prefix))
            #expect(!sealed.contains(plaintext))
            #expect(!(try await harness.databaseText()).contains(plaintext))
            // Sealed for this identity only: another identity's id does not open it.
            let sealing = AppleTokenSealing(vault: harness.server.services.vault)
            #expect(try sealing.open(sealed, identityID: identityID) == plaintext)
            #expect(throws: (any Error).self) { try sealing.open(sealed, identityID: UUID()) }

            // A later sign-in with a new code replaces the token; the name stays the first one.
            let second = try await Self.signIn(
                client,
                apple,
                harness,
                code: apple.issueCode(subject: "apple-1"),
                extra: ["full_name": ["given_name": "Eve", "family_name": "Other"]]
            )
            #expect(second.status == .ok, "\(second.text)")
            #expect(apple.exchanges == 2)
            #expect(AppleNameTests.metadata(second)["full_name"] == "Ada Lovelace")
            let replaced = try #require(try await Self.storedToken(harness, identityID))
            #expect(try sealing.open(replaced, identityID: identityID) == apple.refreshTokens.last)
        }
    }

    @Test func aCodeOfAnotherAccountOrAppOrUsedAlreadyIsRefused() async throws {
        try await Self.withApple { client, apple, harness in
            // The attacker pairs their ID token with the victim's code (or the reverse).
            let mismatch = try await Self.signIn(
                client,
                apple,
                harness,
                subject: "attacker",
                code: apple.issueCode(subject: "victim")
            )
            #expect(mismatch.status == .badRequest, "\(mismatch.text)")
            #expect(mismatch.errorCode == "authorization_code_invalid")
            #expect(mismatch.text.contains("another Apple account"))
            let otherApp = try await Self.signIn(
                client,
                apple,
                harness,
                code: apple.issueCode(subject: "apple-1", clientID: "com.example.other")
            )
            #expect(otherApp.errorCode == "authorization_code_invalid", "\(otherApp.text)")
            let code = apple.issueCode(subject: "apple-1")
            let ok = try await Self.signIn(client, apple, harness, code: code)
            #expect(ok.status == .ok, "\(ok.text)")
            let replayed = try await Self.signIn(client, apple, harness, code: code)
            #expect(replayed.status == .badRequest)
            #expect(replayed.errorCode == "authorization_code_invalid", "\(replayed.text)")
            for junk in ["", " ", "a b", String(repeating: "x", count: 5000), "code\u{0}"] where !junk.isEmpty {
                let reply = try await Self.signIn(client, apple, harness, code: junk)
                #expect(reply.status == .badRequest, "\(junk.prefix(10)): \(reply.text)")
                #expect(reply.errorCode == "authorization_code_invalid", "\(junk.prefix(10)): \(reply.text)")
            }
            // The refused sign-ins created nobody and stored nothing.
            let users = try await harness.server.storage.transaction { try await $0.listUsers(offset: 0, limit: 10) }
            #expect(users.1 == 1)
        }
    }

    @Test func appleUnreachableOrRefusingOurKeyIsARetryableRefusal() async throws {
        let otherKey: @Sendable (inout ServerConfiguration, FakeApple) -> Void = { configuration, _ in
            // Another developer key than the one Apple knows.
            configuration.appleAccount?.privateKeyPEM = P256.Signing.PrivateKey().pemRepresentation
        }
        try await Self.withApple(configure: otherKey) { client, apple, harness in
            let reply = try await Self.signIn(client, apple, harness, code: apple.issueCode(subject: "apple-1"))
            #expect(reply.status == .serviceUnavailable, "\(reply.text)")
            #expect(reply.errorCode == "provider_unavailable")
            #expect(reply.header("Retry-After") != nil)
            #expect(apple.refusedSecrets == 1)
            #expect(apple.exchanges == 0)
        }
        let unreachable: @Sendable (inout ServerConfiguration, FakeApple) -> Void = { configuration, _ in
            configuration.appleBaseURL = URL(string: "http://127.0.0.1:1")!
        }
        try await Self.withApple(configure: unreachable) { client, apple, harness in
            let reply = try await Self.signIn(client, apple, harness, code: apple.issueCode(subject: "apple-1"))
            #expect(reply.status == .serviceUnavailable, "\(reply.text)")
            #expect(reply.errorCode == "provider_unavailable")
            // Without a code the sign-in does not need Apple's token endpoint.
            let plain = try await Self.signIn(client, apple, harness, code: nil)
            #expect(plain.status == .ok, "\(plain.text)")
        }
    }

    @Test func deletingTheAccountRevokesAppleToken() async throws {
        try await Self.withApple { client, apple, harness in
            let session = try await Self.signIn(client, apple, harness, code: apple.issueCode(subject: "apple-1"))
            #expect(session.status == .ok, "\(session.text)")
            let deleted = try await client.send(.delete, "/user", bearer: session.string("access_token"))
            #expect(deleted.status.code < 300, "\(deleted.text)")
            try await Self.deliver(harness, apple, until: 1)
            let accepted = apple.revocations.filter(\.accepted)
            let revocation = try #require(accepted.first)
            #expect(revocation.token == apple.refreshTokens.first)
            #expect(revocation.clientID == Self.client)
            #expect(revocation.hint == "refresh_token")
            let audit = try await harness.server.storage.transaction { try await $0.auditEntries(limit: 20) }
            #expect(audit.contains { $0.action == .appleTokenRevoked })
            // Done once: later passes find nothing.
            #expect(try await harness.server.deliverAppleRevocations() == 0)
        }
    }

    @Test func aFailingRevocationIsRetriedWhileTheAccountIsGone() async throws {
        try await Self.withApple { client, apple, harness in
            apple.failRevocations(2)
            let session = try await Self.signIn(client, apple, harness, code: apple.issueCode(subject: "apple-1"))
            let userID = try #require(session.user["id"] as? String)
            let deleted = try await client.send(.delete, "/user", bearer: session.string("access_token"))
            #expect(deleted.status.code < 300, "\(deleted.text)")
            let admin = try await harness.server.serviceRoleToken()
            #expect(try await client.get("/admin/users/\(userID)", bearer: admin).status == .notFound)
            try await Self.deliver(harness, apple, until: 1)
            #expect(apple.revocations.filter { !$0.accepted }.count == 2)
            #expect(apple.revocations.filter(\.accepted).count == 1)
            #expect(try await client.get("/admin/users/\(userID)", bearer: admin).status == .notFound)
            let audit = try await harness.server.storage.transaction { try await $0.auditEntries(limit: 20) }
            #expect(audit.filter { $0.action == .appleTokenRevocationFailed }.count == 2)
            #expect(audit.contains { $0.action == .appleTokenRevoked })
        }
    }

    @Test func concurrentPassesRevokeEachTokenOnce() async throws {
        try await Self.withApple { client, apple, harness in
            let admin = try await harness.server.serviceRoleToken()
            for index in 0..<6 {
                let subject = "apple-\(index)"
                let session = try await Self.signIn(
                    client,
                    apple,
                    harness,
                    subject: subject,
                    code: apple.issueCode(subject: subject)
                )
                let userID = try #require(session.user["id"] as? String)
                #expect(try await client.send(.delete, "/admin/users/\(userID)", bearer: admin).status.code < 300)
            }
            // Passes racing each other (and the deletions' own) claim different rows.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 { group.addTask { try await harness.server.deliverAppleRevocations() } }
                try await group.waitForAll()
            }
            // No time passes: a pass still calling Apple (a deletion's own, in the background)
            // keeps its rows' lease, which an hour's jump would end and hand them to another.
            try await Self.deliver(harness, apple, until: 6, advancing: 0)
            let accepted = apple.revocations.filter(\.accepted).map(\.token)
            #expect(accepted.count == 6)
            #expect(Set(accepted) == Set(apple.refreshTokens))
        }
    }

    @Test func adminDeletionAndUnlinkingRevoke() async throws {
        try await Self.withApple { client, apple, harness in
            let session = try await Self.signIn(client, apple, harness, code: apple.issueCode(subject: "apple-1"))
            let userID = try #require(session.user["id"] as? String)
            let admin = try await harness.server.serviceRoleToken()
            let deleted = try await client.send(.delete, "/admin/users/\(userID)", bearer: admin)
            #expect(deleted.status.code < 300, "\(deleted.text)")
            try await Self.deliver(harness, apple, until: 1)
            let accepted = apple.revocations.filter(\.accepted)
            #expect(accepted.first?.token == apple.refreshTokens.first)

            // A password account links Apple, then unlinks it: the token goes, the user stays.
            let owner = try await client.confirmedSession(email: "grace@example.com")
            let bearer = try #require(owner.string("access_token"))
            let linked = try await Self.signIn(
                client,
                apple,
                harness,
                subject: "apple-2",
                code: apple.issueCode(subject: "apple-2"),
                bearer: bearer
            )
            #expect(linked.status == .ok, "\(linked.text)")
            let identityID = try Self.appleIdentityID(linked)
            let unlinked = try await client.send(.delete, "/user/identities/\(identityID)", bearer: bearer)
            #expect(unlinked.status.code < 300, "\(unlinked.text)")
            #expect(try await client.get("/user", bearer: bearer).status == .ok)
            try await Self.deliver(harness, apple, until: 2)
            #expect(apple.revocations.filter(\.accepted).map(\.token).contains(apple.refreshTokens.last ?? "-"))
            let ownerID = try #require(owner.user["id"] as? String)
            let stillThere = try await client.get(
                "/admin/users/\(ownerID)",
                bearer: try await harness.server.serviceRoleToken()
            )
            #expect(stillThere.status == .ok)
        }
    }
}
