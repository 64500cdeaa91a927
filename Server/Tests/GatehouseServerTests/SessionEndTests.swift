import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

/// Sessions an admin ends, sessions that end by time, and the sweep that deletes ended rows.
@Suite("Admin sessions, session lifetime and the sweep")
struct SessionEndTests {
    static let email = "ada@example.com"

    @Test func anAdminListsAndEndsAUsersSessions() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            let ada = try await client.confirmedSession(email: Self.email)
            let other = try await client.confirmedSession(email: "bob@example.com")
            let adaID = try #require(ada.user["id"] as? String)
            let list = try await client.get("/admin/users/\(adaID)/sessions", bearer: admin)
            #expect(list.status == .ok, "\(list.text)")
            let sessions = DeviceSessionTests.sessions(list)
            #expect(sessions.count == 1 && sessions[0]["current"] as? Bool == false)
            let sessionID = try #require(sessions[0]["id"] as? String)
            let bobSession = try await DeviceSessionTests.currentID(client, other.string("access_token"))
            // Bob's session under Ada's id is not Ada's: not found, and Bob stays signed in.
            let crossed = try await client.send(.delete, "/admin/users/\(adaID)/sessions/\(bobSession)", bearer: admin)
            #expect(crossed.status == .notFound && crossed.errorCode == "not_found")
            #expect(try await client.get("/user", bearer: other.string("access_token")).status == .ok)
            let nobody = try await client.get("/admin/users/\(UUID().uuidString)/sessions", bearer: admin)
            #expect(nobody.status == .notFound && nobody.errorCode == "user_not_found")
            let asUser = try await client.get("/admin/users/\(adaID)/sessions", bearer: other.string("access_token"))
            #expect(asUser.errorCode == "not_admin")
            let end = try await client.send(.delete, "/admin/users/\(adaID)/sessions/\(sessionID)", bearer: admin)
            #expect(end.status == .noContent, "\(end.text)")
            #expect(try await client.get("/user", bearer: ada.string("access_token")).errorCode == "session_not_found")
            #expect(
                DeviceSessionTests.sessions(try await client.get("/admin/users/\(adaID)/sessions", bearer: admin))
                    .isEmpty
            )
        }
    }

    @Test func aSessionPastItsLifetimeIsRefusedUnlistedAndSwept() async throws {
        let harness = try await Harness.make {
            $0.mailerAutoconfirm = true
            $0.sessionLifetime = 86_400
            $0.jwtExpiry = 4 * 3600
        }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let old = try await client.confirmedSession(email: Self.email)
            harness.clock.advance(by: 22 * 3600)
            let young = try await client.signIn(Self.email)
            let fresh = try await client.refresh(try #require(old.string("refresh_token")))
            #expect(fresh.status == .ok)
            harness.clock.advance(by: 3 * 3600)
            // The old session's newest access token has not expired, but its session has.
            let refused = try await client.get("/user", bearer: fresh.string("access_token"))
            #expect(refused.errorCode == "session_not_found")
            let listed = DeviceSessionTests.sessions(
                try await client.get("/user/sessions", bearer: young.string("access_token"))
            )
            #expect(listed.count == 1 && listed[0]["current"] as? Bool == true)
            #expect(try await harness.server.sweepEndedSessions() == 1)
            #expect(try await harness.server.sweepEndedSessions() == 0)
            #expect(try await client.get("/user", bearer: young.string("access_token")).status == .ok)
        }
    }

    @Test func anInactiveSessionEndsAndIsSwept() async throws {
        let harness = try await Harness.make {
            $0.mailerAutoconfirm = true
            $0.sessionInactivityTimeout = 86_400
        }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let idle = try await client.confirmedSession(email: Self.email)
            var busy = try await client.signIn(Self.email)
            for _ in 0..<3 {
                harness.clock.advance(by: 20 * 3600)
                busy = try await client.refresh(try #require(busy.string("refresh_token")))
                #expect(busy.status == .ok)
            }
            #expect(try await client.refresh(try #require(idle.string("refresh_token"))).errorCode == "session_expired")
            let listed = DeviceSessionTests.sessions(
                try await client.get("/user/sessions", bearer: busy.string("access_token"))
            )
            #expect(listed.count == 1)
            _ = try await harness.server.sweepEndedSessions()
            #expect(try await client.get("/user", bearer: busy.string("access_token")).status == .ok)
        }
    }

    @Test func theSweepDeletesInBoundedBatchesAndKeepsLiveSessions() async throws {
        let harness = try await Harness.make { $0.sessionInactivityTimeout = 86_400 }
        defer { harness.removeFiles() }
        let now = harness.clock.now()
        let user = UserRecord(email: "many@example.com", createdAt: now, updatedAt: now)
        try await harness.server.storage.transaction { tx in
            try await tx.insertUser(user)
            for index in 0..<1_234 {
                let ended = now.addingTimeInterval(-2 * 86_400)
                try await tx.insertSession(
                    SessionRecord(userID: user.id, salt: "00", createdAt: ended, refreshedAt: ended, amr: [])
                )
                if index.isMultiple(of: 100) {
                    try await tx.insertSession(
                        SessionRecord(userID: user.id, salt: "00", createdAt: now, refreshedAt: now, amr: [])
                    )
                }
            }
        }
        #expect(try await harness.server.sweepEndedSessions() == 1_234)
        let left = try await harness.server.storage.read {
            try await $0.sessions(
                userID: user.id,
                createdAfter: .distantPast,
                refreshedAfter: .distantPast,
                limit: 100
            )
        }
        #expect(left.count == 13)
        try await harness.server.storage.close()
    }

    @Test func theApplicationSweepsByItself() async throws {
        let harness = try await Harness.make { $0.sessionSweepInterval = 0.05 }
        defer { harness.removeFiles() }
        let now = harness.clock.now()
        let user = UserRecord(email: "gone@example.com", createdAt: now, updatedAt: now)
        let ended = SessionRecord(
            userID: user.id,
            salt: "00",
            createdAt: now.addingTimeInterval(-400 * 86_400),
            refreshedAt: now,
            amr: []
        )
        try await harness.server.storage.transaction { tx in
            try await tx.insertUser(user)
            try await tx.insertSession(ended)
        }
        try await harness.live { _ in
            var remaining = true
            for _ in 0..<1_000 where remaining {
                remaining = try await harness.server.storage.read { try await $0.session(id: ended.id) } != nil
                if remaining { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(!remaining, "the background sweep deleted the ended session")
        }
    }
}
