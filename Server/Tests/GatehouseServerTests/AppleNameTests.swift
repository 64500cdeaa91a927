import Foundation
import GatehouseServerSupport
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Apple gives the user's name on the first authorization only, never in the ID token
/// (issue 21): the client forwards it beside the token and the server keeps it in
/// `user_metadata` without ever overwriting what is there.
@Suite("Apple's first-authorization name")
struct AppleNameTests {
    /// An Apple sign-in whose body carries `extra` besides the token and a fresh nonce.
    static func signIn(
        _ client: Client,
        _ apple: FakeProvider,
        at now: Date,
        subject: String = "apple-1",
        email: String? = "ada@example.com",
        extra: [String: Any]
    ) async throws -> Reply {
        let nonce = UUID().uuidString
        let token = try apple.token(now: now, subject: subject, rawNonce: nonce, email: email)
        var body: [String: Any] = ["provider": "apple", "id_token": token, "nonce": nonce]
        body.merge(extra) { _, new in new }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        return try await client.post("/token?grant_type=id_token", json)
    }

    static func metadata(_ reply: Reply) -> [String: String] {
        (reply.user["user_metadata"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }

    @Test func theFirstNameIsKeptOnceAndNeverOverwritten() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            let now = harness.clock.now()
            let first = try await Self.signIn(
                client,
                apple,
                at: now,
                extra: ["full_name": ["given_name": " Ada ", "family_name": "Lovelace"]]
            )
            #expect(first.status == .ok, "\(first.text)")
            #expect(
                Self.metadata(first) == ["full_name": "Ada Lovelace", "given_name": "Ada", "family_name": "Lovelace"]
            )
            // A later sign-in with another name changes nothing.
            let second = try await Self.signIn(
                client,
                apple,
                at: now,
                email: nil,
                extra: ["given_name": "Eve", "family_name": "Attacker"]
            )
            #expect(second.status == .ok, "\(second.text)")
            #expect(second.user["id"] as? String == first.user["id"] as? String)
            #expect(Self.metadata(second)["full_name"] == "Ada Lovelace")
            #expect(Self.metadata(second)["given_name"] == "Ada")
            // What the user sets stays; an emptied field is filled again by the next sign-in.
            let token = second.string("access_token")
            let set = try await client.send(
                .put,
                "/user",
                json: #"{"data":{"full_name":"Countess of Lovelace","given_name":""}}"#,
                bearer: token
            )
            #expect(set.status == .ok, "\(set.text)")
            let third = try await Self.signIn(
                client,
                apple,
                at: now,
                email: nil,
                extra: ["data": ["full_name": "Someone Else", "given_name": "Augusta"]]
            )
            #expect(Self.metadata(third)["full_name"] == "Countess of Lovelace")
            #expect(Self.metadata(third)["given_name"] == "Augusta")
            #expect(Self.metadata(third)["family_name"] == "Lovelace")
        }
    }

    @Test func supabaseStyleDataAndFlatFieldsAreRead() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            let now = harness.clock.now()
            let data = try await Self.signIn(
                client,
                apple,
                at: now,
                subject: "apple-data",
                email: "grace@example.com",
                extra: ["data": ["full_name": "Grace Hopper", "unrelated": 1]]
            )
            #expect(data.status == .ok, "\(data.text)")
            #expect(Self.metadata(data) == ["full_name": "Grace Hopper"])
            let flat = try await Self.signIn(
                client,
                apple,
                at: now,
                subject: "apple-flat",
                email: "alan@example.com",
                extra: ["given_name": "Alan", "family_name": "Turing"]
            )
            #expect(Self.metadata(flat) == ["full_name": "Alan Turing", "given_name": "Alan", "family_name": "Turing"])
            let none = try await Self.signIn(
                client,
                apple,
                at: now,
                subject: "apple-none",
                email: "none@example.com",
                extra: ["full_name": ["given_name": "  "]]
            )
            #expect(none.status == .ok)
            #expect(Self.metadata(none).isEmpty)
        }
    }

    @Test func aMalformedNameIsRefusedBeforeTheNonceIsSpent() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            let now = harness.clock.now()
            let cases: [(String, [String: Any], String)] = [
                ("too long", ["given_name": String(repeating: "a", count: 101)], "validation_failed"),
                ("too many bytes", ["family_name": String(repeating: "👩‍👩‍👧‍👦", count: 40)], "validation_failed"),
                ("control character", ["full_name": ["given_name": "Ada\u{0}"]], "validation_failed"),
                ("bidi override", ["data": ["full_name": "Ada \u{202E}ecalevol"]], "validation_failed"),
                ("huge", ["given_name": String(repeating: "x", count: 100_000)], "validation_failed"),
                ("not a string", ["given_name": 42], "validation_failed"),
            ]
            for (name, extra, code) in cases {
                let reply = try await Self.signIn(client, apple, at: now, extra: extra)
                #expect(reply.status == .badRequest, "\(name): \(reply.text)")
                #expect(reply.errorCode == code, "\(name): \(reply.text)")
            }
            // Nothing was created: the first good sign-in makes the user, with its name.
            let ok = try await Self.signIn(client, apple, at: now, extra: ["given_name": "Ada"])
            #expect(ok.status == .ok, "\(ok.text)")
            #expect(Self.metadata(ok) == ["full_name": "Ada", "given_name": "Ada"])
        }
    }

    @Test func aNameWithAFailedSignInIsNotStored() async throws {
        try await IDTokenTests.withProviders { client, apple, _, harness in
            let now = harness.clock.now()
            let token = try apple.token(now: now, subject: "apple-2", rawNonce: "right")
            let body: [String: Any] = [
                "provider": "apple", "id_token": token, "nonce": "wrong", "given_name": "Mallory",
            ]
            let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let refused = try await client.post("/token?grant_type=id_token", json)
            #expect(refused.errorCode == "id_token_nonce_invalid")
            let ok = try await Self.signIn(client, apple, at: now, subject: "apple-2", extra: [:])
            #expect(ok.status == .ok, "\(ok.text)")
            #expect(Self.metadata(ok).isEmpty)
        }
    }
}
