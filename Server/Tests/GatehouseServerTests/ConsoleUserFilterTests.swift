import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 37: the users page's filters (confirmed, unconfirmed, guests, banned, with MFA, with
/// passkeys, by provider) and the audit log's filter by client address, over real HTTP through the
/// console, and the filtered listing's bounded walk in storage on the database under test.
@Suite("Console filters")
struct ConsoleUserFilterTests {
    /// Users created a second apart, in order, so the creation-time index orders them as listed.
    static func insert(_ users: [UserRecord], _ harness: Harness) async throws {
        try await harness.server.storage.transaction { tx in
            for user in users { try await tx.insertUser(user) }
        }
    }

    static func user(_ n: Int, _ start: Date, email: Bool = true, confirmed: Bool = true) -> UserRecord {
        let at = start.addingTimeInterval(Double(n))
        return UserRecord(
            email: email ? "user\(n)@example.com" : nil,
            emailConfirmedAt: email && confirmed ? at : nil,
            isAnonymous: !email,
            createdAt: at,
            updatedAt: at
        )
    }

    @Test func eachFilterListsItsUsersAndNoOthers() async throws {
        try await ConsoleAttackTests.scene { harness, _, browser, _, victim in
            let start = harness.clock.now().addingTimeInterval(-10_000)
            var users = (0..<12).map { Self.user($0, start) }
            users[2] = Self.user(2, start, email: false)
            users[7] = Self.user(7, start, email: false)
            users[4] = Self.user(4, start, confirmed: false)
            users[5].bannedUntil = harness.clock.now().addingTimeInterval(3_600)
            users[6].bannedUntil = harness.clock.now().addingTimeInterval(-3_600)  // a ban that has ended
            try await Self.insert(users, harness)
            let google = IdentityRecord(
                userID: users[9].id,
                provider: .google,
                subject: "g-9",
                email: users[9].email,
                data: [:],
                lastSignInAt: nil,
                createdAt: start,
                updatedAt: start
            )
            try await harness.server.storage.transaction { tx in try await tx.insertIdentity(google) }
            _ = try await SignInWaysTests.insertPasskey(for: victim.id.key, in: harness)

            func listed(_ query: String) async throws -> Set<UUID> {
                let page = try await browser.get("/console/users?\(query)")
                #expect(page.status == .ok, "\(query): \(page.text.prefix(300))")
                let ids = (users + [victim]).map(\.id)
                return Set(ids.filter { page.text.contains($0.key) })
            }
            #expect(try await listed("filter=guest") == [users[2].id, users[7].id])
            #expect(try await listed("filter=banned") == [users[5].id])
            #expect(try await listed("filter=unconfirmed") == [users[4].id])
            #expect(try await listed("filter=provider&provider=google") == [users[9].id])
            #expect(try await listed("filter=passkeys") == [victim.id])
            let confirmed = try await listed("filter=confirmed")
            #expect(confirmed.contains(victim.id) && confirmed.contains(users[0].id))
            #expect(!confirmed.contains(users[2].id) && !confirmed.contains(users[4].id))
            // The operator enrolled a factor to enter; nobody else has one.
            #expect(try await listed("filter=mfa").isEmpty)
            let mfa = try await browser.get("/console/users?filter=mfa")
            #expect(mfa.text.contains("op@example.com") && !mfa.text.contains("victim@example.com"))

            // What is not a filter, a provider or a cursor is refused with a reason.
            for bad in [
                "filter=admins", "filter=provider", "filter=provider&provider=%3Cscript%3E", "filter=guest&after=x_y",
            ] {
                let reply = try await browser.get("/console/users?\(bad)")
                #expect(reply.status == .badRequest, "\(bad)")
                #expect(!reply.text.contains("<script>"), "\(bad)")
            }
        }
    }

    @Test func aFilteredListingWalksABoundedStepPerPageAndMissesNoOne() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var users = (0..<25).map { Self.user($0, start) }
        for guest in [3, 11, 12, 24] { users[guest] = Self.user(guest, start, email: false) }
        try await Self.insert(users, harness)
        let guests = [3, 11, 12, 24].map { users[$0].id }

        // Five users looked at per page, two shown at most: pages end at the window's end, or
        // at the second match; the walk ends after the last user.
        var found: [UUID] = []
        var cursor: ConsoleUserCursor?
        var pages = 0
        repeat {
            let request = ConsoleUserQuery(filter: .guest, after: cursor, limit: 2, examined: 5, now: start)
            let page = try await harness.server.storage.read { try await $0.users(matching: request) }
            #expect(page.users.count <= 2)
            found += page.users.map(\.id)
            cursor = page.next
            pages += 1
        } while cursor != nil && pages < 50
        #expect(found == guests)
        #expect(pages >= 5 && pages <= 7, "\(pages) pages")
        // The cursor a link carries reads back as itself.
        let cursorText = ConsoleUserCursor(createdAt: users[7].createdAt, id: users[7].id).text
        #expect(
            ConsoleUserCursor(text: cursorText) == ConsoleUserCursor(createdAt: users[7].createdAt, id: users[7].id)
        )
        #expect(ConsoleUserCursor(text: "nan_\(users[7].id.key)") == nil)
    }

    @Test func theAuditLogFiltersByAddressAndLinksEachAddress() async throws {
        try await ConsoleAttackTests.scene { harness, _, browser, _, victim in
            try await harness.server.storage.transaction { tx in
                try await harness.server.services.audit.record(.login, actor: victim.id, ip: "198.51.100.7", in: tx)
                try await harness.server.services.audit.record(.logout, actor: victim.id, ip: "203.0.113.9", in: tx)
            }
            let page = try await browser.get("/console/audit?address=198.51.100.7")
            #expect(page.status == .ok)
            #expect(page.text.contains("198.51.100.7") && !page.text.contains("203.0.113.9"))
            #expect(page.text.contains(">login<") && !page.text.contains(">logout<"))
            let all = try await browser.get("/console/audit")
            #expect(all.text.contains("href=\"/console/audit?address=203%2E0%2E113%2E9\""))
            let bad = try await browser.get("/console/audit?address=%3Cscript%3E")
            #expect(bad.text.contains("must be an IP address") && !bad.text.contains("<script>"))
        }
    }

    @Test func theOverviewCountsNewGuestsAndThisInstancesRateLimitRefusals() async throws {
        try await ConsoleAttackTests.scene({ $0.rateLimits.passkey = 1 }) { harness, client, browser, _, _ in
            let quiet = try await browser.get("/console")
            #expect(
                quiet.text.contains("Rate-limit refusals") && quiet.text.contains("none since this instance started")
            )
            #expect(quiet.text.contains("New guests: 0"))
            #expect(try await client.post("/signup", "{}").status == .ok)
            // The passkey ceremonies' own limit, one a window here: the second is refused.
            #expect(try await client.post("/passkeys/authentication/options", "{}").status != .tooManyRequests)
            #expect(try await client.post("/passkeys/authentication/options", "{}").status == .tooManyRequests)
            let page = try await browser.get("/console")
            #expect(page.text.contains("New guests: 1"), "\(page.text)")
            #expect(page.text.contains("1 since this instance started") && page.text.contains("passkey 1"))
        }
    }
}
