import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseServerSupport
import HTTPTypes
import Testing

/// `GET /user/sessions` and `DELETE /user/sessions/{id}`: each sign-in is a session with its
/// device label, addresses and times; the caller ends one at once, never another user's.
@Suite("Device sessions")
struct DeviceSessionTests {
    static let email = "ada@example.com"

    @Test func signInsAreListedNewestFirstWithTheirDeviceAndAddress() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.confirmedSession(email: Self.email)
            harness.clock.advance(by: 10)
            let phone = try await client.post(
                "/token?grant_type=password",
                #"{"email":"\#(Self.email)","password":"correct horse battery","device":"Ada's iPhone"}"#
            )
            harness.clock.advance(by: 10)
            let laptop = try await client.post(
                "/token?grant_type=password",
                #"{"email":"\#(Self.email)","password":"correct horse battery"}"#,
                headers: ["X-Client-Info": "gatehouse-cli/1.0 (Linux)", "User-Agent": "curl/8"]
            )
            harness.clock.advance(by: 10)
            _ = try await client.post(
                "/token?grant_type=password",
                #"{"email":"\#(Self.email)","password":"correct horse battery"}"#,
                headers: ["User-Agent": "Mozilla/5.0 (X11; Linux x86_64)"]
            )
            let list = try await client.get("/user/sessions", bearer: laptop.string("access_token"))
            #expect(list.status == .ok, "\(list.text)")
            let sessions = Self.sessions(list)
            #expect(sessions.count == 4)
            #expect(
                sessions.map { $0["device"] as? String } == [
                    "Mozilla/5.0 (X11; Linux x86_64)", "gatehouse-cli/1.0 (Linux)", "Ada's iPhone", nil,
                ]
            )
            #expect(sessions.map { $0["current"] as? Bool } == [false, true, false, false])
            let created = sessions.compactMap { $0["created_at"] as? String }
            #expect(created == created.sorted(by: >) && Set(created).count == 4, "newest first")
            for session in sessions {
                #expect(session["ip"] as? String == "127.0.0.1")
                #expect(session["aal"] as? String == "aal1")
                #expect((session["amr"] as? [[String: Any]])?.first?["method"] as? String == "password")
                #expect(session["refreshed_at"] as? String == session["created_at"] as? String)
            }
            let phoneID = try #require(sessions[2]["id"] as? String)
            let refreshed = try await client.refresh(try #require(phone.string("refresh_token")))
            #expect(refreshed.status == .ok)
            let again = Self.sessions(try await client.get("/user/sessions", bearer: laptop.string("access_token")))
            let phoneRow = try #require(again.first { $0["id"] as? String == phoneID })
            #expect(phoneRow["refreshed_at"] as? String != phoneRow["created_at"] as? String)
        }
    }

    @Test func deviceLabelsAreCleanedAndBounded() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.confirmedSession(email: Self.email)
            let labels: [(sent: String, shown: String?)] = [
                ("  Ada\u{0}'s\n\u{202E}phone\u{200B}  ", "Ada 's phone"),
                (String(repeating: "x", count: 100_000), String(repeating: "x", count: 64)),
                // One character of seven bytes: the byte bound cuts first.
                (
                    String(repeating: "e\u{301}\u{301}\u{301}", count: 200),
                    String(repeating: "e\u{301}\u{301}\u{301}", count: 36)
                ),
                ("\u{7}\t\r\n", nil),
            ]
            for (sent, shown) in labels {
                let body = try JSONSerialization.data(
                    withJSONObject: ["email": Self.email, "password": "correct horse battery", "device": sent]
                )
                let reply = try await client.post("/token?grant_type=password", String(decoding: body, as: UTF8.self))
                #expect(reply.status == .ok, "\(reply.text.prefix(200))")
                let list = Self.sessions(try await client.get("/user/sessions", bearer: reply.string("access_token")))
                let device = try #require(list.first { $0["current"] as? Bool == true })["device"] as? String
                #expect(device == shown, "\(sent.prefix(20))")
            }
        }
    }

    @Test func endingAnotherSessionRefusesItsTokensAtOnce() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let (mine, other, otherID) = try await Self.signedInTwice(client)
            let end = try await client.send(.delete, "/user/sessions/\(otherID)", bearer: mine.string("access_token"))
            #expect(end.status == .noContent, "\(end.text)")
            let refused = try await client.get("/user", bearer: other.string("access_token"))
            #expect(refused.status == .forbidden && refused.errorCode == "session_not_found")
            let refresh = try await client.refresh(try #require(other.string("refresh_token")))
            #expect(refresh.errorCode == "refresh_token_not_found")
            #expect(try await client.get("/user", bearer: mine.string("access_token")).status == .ok)
            #expect(
                Self.sessions(try await client.get("/user/sessions", bearer: mine.string("access_token"))).count == 1
            )
            let twice = try await client.send(.delete, "/user/sessions/\(otherID)", bearer: mine.string("access_token"))
            #expect(twice.status == .notFound && twice.errorCode == "not_found")
        }
    }

    @Test func endingTheOwnSessionIsASignOut() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let mine = try await client.confirmedSession(email: Self.email)
            harness.clock.advance(by: 25 * 3600)
            let fresh = try await client.refresh(try #require(mine.string("refresh_token")))
            let token = fresh.string("access_token")
            let id = try await Self.currentID(client, token)
            // Not recent, yet no code is needed to end one's own session.
            #expect(try await client.send(.delete, "/user/sessions/\(id)", bearer: token).status == .noContent)
            #expect(try await client.get("/user", bearer: token).errorCode == "session_not_found")
        }
    }

    @Test func anotherUsersSessionIsNotFoundExactlyLikeNoSession() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let attacker = try await client.confirmedSession(email: "mallory@example.com")
            let victim = try await client.confirmedSession(email: Self.email)
            let victimID = try await Self.currentID(client, victim.string("access_token"))
            let token = attacker.string("access_token")
            let theirs = try await client.send(.delete, "/user/sessions/\(victimID)", bearer: token)
            let none = try await client.send(.delete, "/user/sessions/\(UUID().uuidString)", bearer: token)
            let garbage = try await client.send(.delete, "/user/sessions/..%2F..%2Fadmin", bearer: token)
            #expect(theirs.status == .notFound && theirs.errorCode == "not_found")
            #expect(theirs.text == none.text && none.status == .notFound)
            #expect(garbage.status == .notFound)
            #expect(try await client.get("/user", bearer: victim.string("access_token")).status == .ok)
            let listed = Self.sessions(try await client.get("/user/sessions", bearer: token))
            #expect(listed.count == 1 && listed[0]["id"] as? String != victimID, "only the caller's own")
        }
    }

    @Test func endingAnotherSessionNeedsARecentSignInOrACode() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let (mine, _, otherID) = try await Self.signedInTwice(client)
            harness.clock.advance(by: 25 * 3600)
            // A token stolen a day after sign-in cannot throw the owner off their other devices.
            let stale = try await client.refresh(try #require(mine.string("refresh_token")))
            let token = stale.string("access_token")
            let needed = try await client.send(.delete, "/user/sessions/\(otherID)", bearer: token)
            #expect(needed.status == .badRequest && needed.errorCode == "reauthentication_needed")
            let wrong = try await client.send(
                .delete,
                "/user/sessions/\(otherID)",
                json: #"{"nonce":"000000"}"#,
                bearer: token
            )
            #expect(wrong.errorCode == "reauthentication_not_valid")
            #expect(try await client.get("/reauthenticate", bearer: token).status == .ok)
            let nonce = try await client.waitForCode(to: Self.email, subject: "Confirm it is you")
            let ended = try await client.send(
                .delete,
                "/user/sessions/\(otherID)",
                json: #"{"nonce":"\#(nonce)"}"#,
                bearer: token
            )
            #expect(ended.status == .noContent, "\(ended.text)")
            let replay = try await client.send(
                .delete,
                "/user/sessions/\(UUID().uuidString)",
                json: #"{"nonce":"\#(nonce)"}"#,
                bearer: token
            )
            #expect(replay.errorCode == "reauthentication_not_valid", "a code works once")
        }
    }

    @Test func racingDeletesEndASessionOnceAndNeverFail() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let (mine, _, otherID) = try await Self.signedInTwice(client)
            let token = mine.string("access_token")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await client.send(.delete, "/user/sessions/\(otherID)", bearer: token).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .noContent }.count == 1)
            #expect(statuses.allSatisfy { $0 == .noContent || $0 == .notFound || $0 == .tooManyRequests })
        }
    }

    @Test func aHugeBodyIsRefusedBeforeAnything() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let mine = try await client.confirmedSession(email: Self.email)
            let id = try await Self.currentID(client, mine.string("access_token"))
            let huge = #"{"nonce":""# + String(repeating: "1", count: 2 << 20) + #""}"#
            let reply = try await client.send(
                .delete,
                "/user/sessions/\(id)",
                json: huge,
                bearer: mine.string("access_token")
            )
            #expect(reply.status == .contentTooLarge)
            #expect(try await client.get("/user", bearer: mine.string("access_token")).status == .ok)
        }
    }

    static func sessions(_ reply: Reply) -> [[String: Any]] {
        reply.json["sessions"] as? [[String: Any]] ?? []
    }

    /// The id of the session `token` belongs to, as its own listing marks it.
    /// The user signed in on two devices: this one, the other one and the other one's id.
    static func signedInTwice(_ client: Client) async throws -> (mine: Reply, other: Reply, otherID: String) {
        let mine = try await client.confirmedSession(email: email)
        let other = try await client.signIn(email)
        return (mine, other, try await currentID(client, other.string("access_token")))
    }

    static func currentID(_ client: Client, _ token: String?) async throws -> String {
        let list = sessions(try await client.get("/user/sessions", bearer: token))
        return try #require(list.first { $0["current"] as? Bool == true }?["id"] as? String)
    }
}
