import Foundation
import GatehouseServerSupport
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// GoogleSignIn on iOS (8.1 and later) puts the app's nonce into the ID token unhashed
/// (issue 21; supabase/auth#1829, #2079): a Google token may carry the raw nonce or its
/// SHA-256 hex, an Apple token only the hash, and either way a token works once.
@Suite("Google's raw nonce")
struct GoogleNonceTests {
    /// A Google token whose `nonce` claim is `claim` (no hashing by the fake).
    static func googleToken(
        _ google: FakeProvider,
        now: Date,
        claim: String?,
        subject: String = "g-1"
    ) throws
        -> String
    {
        try google.token(now: now, subject: subject, rawNonce: nil, claims: claim.map { ["nonce": $0] } ?? [:])
    }

    @Test func aGoogleTokenCarryingTheRawNonceSignsInOnce() async throws {
        try await IDTokenTests.withProviders { client, _, google, harness in
            let now = harness.clock.now()
            let raw = "app-nonce-\(UUID().uuidString)"
            let token = try Self.googleToken(google, now: now, claim: raw)
            let first = try await IDTokenTests.grant(client, provider: google, token: token, nonce: raw)
            #expect(first.status == .ok, "\(first.text)")
            #expect(IDTokenTests.identities(first).first?["provider"] as? String == "google")
            // The same token again: the nonce was consumed.
            let replay = try await IDTokenTests.grant(client, provider: google, token: token, nonce: raw)
            #expect(replay.status == .badRequest)
            #expect(replay.errorCode == "id_token_nonce_invalid")
            // Sending the nonce's hash instead does not reopen it either.
            let hashed = try await IDTokenTests.grant(
                client,
                provider: google,
                token: token,
                nonce: FakeProvider.sha256Hex(raw)
            )
            #expect(hashed.status == .badRequest)
            #expect(hashed.errorCode == "id_token_nonce_invalid")
        }
    }

    @Test func aGoogleTokenCarryingTheHashStillWorksOnceWhateverTheClientSends() async throws {
        try await IDTokenTests.withProviders { client, _, google, harness in
            let now = harness.clock.now()
            let raw = "app-nonce-\(UUID().uuidString)"
            let hash = FakeProvider.sha256Hex(raw)
            let token = try Self.googleToken(google, now: now, claim: hash)
            let first = try await IDTokenTests.grant(client, provider: google, token: token, nonce: raw)
            #expect(first.status == .ok, "\(first.text)")
            // An attacker replays the token sending the claim itself as the "raw" nonce: the
            // nonce is consumed under the token's claim, so this is a replay, not a new nonce.
            let replayAsRaw = try await IDTokenTests.grant(client, provider: google, token: token, nonce: hash)
            #expect(replayAsRaw.status == .badRequest)
            #expect(replayAsRaw.errorCode == "id_token_nonce_invalid")
            let upper = try await IDTokenTests.grant(
                client,
                provider: google,
                token: token,
                nonce: hash.uppercased()
            )
            #expect(upper.errorCode == "id_token_nonce_invalid")
            let replay = try await IDTokenTests.grant(client, provider: google, token: token, nonce: raw)
            #expect(replay.errorCode == "id_token_nonce_invalid")
        }
    }

    @Test func aGoogleNonceIsStillRequiredAndMustMatch() async throws {
        try await IDTokenTests.withProviders { client, _, google, harness in
            let now = harness.clock.now()
            let cases: [(String, String, String?)] = [
                ("no nonce sent", try Self.googleToken(google, now: now, claim: "n-1"), nil),
                ("empty nonce sent", try Self.googleToken(google, now: now, claim: "n-2"), ""),
                ("token without nonce", try Self.googleToken(google, now: now, claim: nil), "n-3"),
                ("another raw nonce", try Self.googleToken(google, now: now, claim: "n-4"), "n-5"),
                ("case differs", try Self.googleToken(google, now: now, claim: "Nonce-6"), "nonce-6"),
                (
                    "hash of another nonce",
                    try Self.googleToken(google, now: now, claim: FakeProvider.sha256Hex("n-7")), "n-8"
                ),
                (
                    "hash sent for a raw claim",
                    try Self.googleToken(google, now: now, claim: "n-9"), FakeProvider.sha256Hex("n-9")
                ),
            ]
            for (name, token, nonce) in cases {
                let reply = try await IDTokenTests.grant(client, provider: google, token: token, nonce: nonce)
                #expect(reply.status == .badRequest, "\(name): \(reply.text)")
                #expect(reply.errorCode == "id_token_nonce_invalid", "\(name)")
            }
        }
    }

    @Test func anAppleTokenCarryingTheRawNonceIsRefused() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            let now = harness.clock.now()
            let raw = "app-nonce-\(UUID().uuidString)"
            let token = try apple.token(now: now, rawNonce: nil, claims: ["nonce": raw])
            let reply = try await IDTokenTests.grant(client, provider: apple, token: token, nonce: raw)
            #expect(reply.status == .badRequest, "\(reply.text)")
            #expect(reply.errorCode == "id_token_nonce_invalid")
            // Apple's hashed form works, once.
            let hashed = try apple.token(now: now, rawNonce: raw)
            let ok = try await IDTokenTests.grant(client, provider: apple, token: hashed, nonce: raw)
            #expect(ok.status == .ok, "\(ok.text)")
            let replay = try await IDTokenTests.grant(client, provider: apple, token: hashed, nonce: raw)
            #expect(replay.errorCode == "id_token_nonce_invalid")
        }
    }
}
