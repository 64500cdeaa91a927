import Foundation
import GatehouseCore
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 15: inputs an attacker controls are bounded: admin paging cannot overflow, metadata
/// cannot grow tokens and rows without limit, a JWT has one spelling only, and a refresh grant's
/// body over the limit is refused before its token is read (issue 35 reads that body without the
/// JSON decoder).
@Suite("Input bounds")
struct InputBoundsTests {
    @Test func hugeAdminPagingIsRefusedAndTheServerKeepsRunning() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            for query in [
                "page=9223372036854775807", "per_page=9223372036854775807", "page=1000001", "page=abc",
                "page=99999999999999999999", "per_page=1001",
            ] {
                let reply = try await client.get("/admin/users?\(query)", bearer: admin)
                #expect(reply.status == .badRequest, "\(query): \(reply.status)")
                #expect(reply.errorCode == "validation_failed", "\(query)")
            }
            // Empty values are the defaults, as in GoTrue: supabase-py's `list_users()` sends
            // `page=&per_page=` (httpx writes None as an empty value).
            for query in ["page=0", "page=-5", "per_page=0", "page=1000000&per_page=1000", "page=&per_page="] {
                #expect(try await client.get("/admin/users?\(query)", bearer: admin).status == .ok, "\(query)")
            }
            #expect(try await client.get("/health").status == .ok, "still alive")
        }
        #expect(throws: Never.self) { try AdminPaging(page: "1000000", perPage: "1000").offset }
    }

    /// `{"data":{"<key>":"xxx…"}}` of `bytes` bytes of padding.
    static func data(_ key: String, bytes: Int) -> String {
        #"{"\#(key)":"\#(String(repeating: "x", count: bytes))"}"#
    }

    @Test func metadataIsCappedOnEveryRouteThatSetsIt() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        let big = Self.data("k", bytes: 17_000)
        try await harness.live { client in
            // A guest grows its metadata call by call; the merged result is what is capped.
            let guest = try await client.post("/signup", "{}")
            let token = try #require(guest.string("access_token"))
            for index in 0..<3 {
                let reply = try await client.send(
                    .put,
                    "/user",
                    json: #"{"data":\#(Self.data("k" + String(index), bytes: 6000))}"#,
                    bearer: token
                )
                #expect(reply.status == (index < 2 ? .ok : .unprocessableContent), "PUT /user #\(index)")
            }
            let sized = try await client.get("/user", bearer: token)
            #expect(sized.text.utf8.count < 20_000)

            let refused: [(String, HTTPRequest.Method, String, String?)] = [
                (
                    "/signup", .post, #"{"email":"a@example.com","password":"correct horse battery","data":\#(big)}"#,
                    nil
                ),
                ("/signup", .post, #"{"data":\#(big)}"#, nil),
                ("/otp", .post, #"{"email":"b@example.com","data":\#(big)}"#, nil),
                ("/user", .put, #"{"data":\#(big)}"#, token),
                ("/admin/users", .post, #"{"email":"c@example.com","user_metadata":\#(big)}"#, admin),
                ("/admin/users", .post, #"{"email":"c@example.com","app_metadata":\#(big)}"#, admin),
                ("/invite", .post, #"{"email":"d@example.com","data":\#(big)}"#, admin),
                (
                    "/admin/generate_link", .post,
                    #"{"type":"signup","email":"e@example.com","password":"correct horse battery","data":\#(big)}"#,
                    admin
                ),
            ]
            for (path, method, json, bearer) in refused {
                let reply = try await client.send(method, path, json: json, bearer: bearer)
                #expect(reply.status == .unprocessableContent, "\(path) \(json.prefix(40)): \(reply.status)")
            }
            let created = try await client.post("/admin/users", #"{"email":"f@example.com"}"#, bearer: admin)
            let id = try #require(created.string("id"))
            let update = try await client.send(
                .put,
                "/admin/users/\(id)",
                json: #"{"user_metadata":\#(big)}"#,
                bearer: admin
            )
            #expect(update.status == .unprocessableContent)
        }
    }

    @Test func aSecondSpellingOfTheSameSignatureIsRefused() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let token = try #require(session.string("access_token"))
            let parts = JWTTests.segments(token)
            // 64 signature bytes are 86 characters: the last one carries 4 bits that decode to nothing.
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            let last = try #require(parts[2].last.flatMap { alphabet.firstIndex(of: $0) })
            #expect(parts[2].count % 4 == 2 && last & 0x0F == 0)
            let respelled = parts[0] + "." + parts[1] + "." + parts[2].dropLast() + String(alphabet[last | 0x01])
            #expect(
                Base64URL.decodeCanonical(respelled.split(separator: ".")[2])
                    == Base64URL.decodeCanonical(Substring(parts[2]))
            )
            let reply = try await client.get("/user", bearer: respelled)
            #expect(reply.status == .forbidden && reply.errorCode == "bad_jwt")
            #expect(try await client.get("/user", bearer: token).status == .ok)
        }
        #expect(Base64URL.isCanonical("AA") && !Base64URL.isCanonical("AB") && !Base64URL.isCanonical("A"))
        #expect(Base64URL.isCanonical("AAA") && !Base64URL.isCanonical("AAB") && !Base64URL.isCanonical("AA=="))
    }

    /// A refresh grant's body over the request limit is refused with 413 before a token in it is
    /// read, whatever its shape: the clients' own (read without the JSON decoder) with a long
    /// token or a megabyte of white space after it, or another member padding it. The token in
    /// those bodies is not used up.
    @Test func aHugeRefreshBodyIsRefusedWithoutUsingTheToken() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let token = try #require(session.string("refresh_token"))
            let megabyte = 1 << 20
            let bodies = [
                #"{"refresh_token":""# + String(repeating: "A", count: megabyte) + #""}"#,
                #"{"refresh_token":"\#(token)"}"# + String(repeating: " ", count: megabyte),
                #"{"refresh_token":"\#(token)","pad":""# + String(repeating: "x", count: megabyte) + #""}"#,
            ]
            for body in bodies {
                let reply = try await client.post("/token?grant_type=refresh_token", body)
                #expect(reply.status == .contentTooLarge, "\(body.prefix(30)): \(reply.status)")
                #expect(reply.errorCode == "request_entity_too_large")
            }
            let refreshed = try await client.refresh(token)
            #expect(refreshed.status == .ok, "the token was not used by the refused bodies")
            #expect(refreshed.string("refresh_token") != token)
        }
    }
}
