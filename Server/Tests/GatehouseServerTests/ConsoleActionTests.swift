import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 37: the console's pages and actions over real HTTP. Each action is the admin API's
/// flow (ban through `AdminUserUpdate`, sessions through `AdminSessionEnding`, keys through
/// `SigningKeyAdmin`) with the operator as the audit line's actor and the user as its subject,
/// and takes effect on the user's devices at once.
@Suite("Console pages and actions")
struct ConsoleActionTests {
    static func lines(_ harness: Harness, _ query: AuditQuery) async throws -> [AuditEntry] {
        try await harness.server.storage.read { try await $0.auditEntries(matching: query) }.map(\.entry)
    }

    @Test func banAndUnbanGoThroughTheAdminFlow() async throws {
        try await ConsoleAttackTests.scene { harness, client, browser, account, victim in
            let device = try await client.signIn("victim@example.com")
            let page = "/console/users/\(victim.id.key)"
            let banned = try await browser.submit("\(page)/ban", from: page, [("duration", "24h")])
            #expect(banned.status == .seeOther && banned.header("Location") == "\(page)?done=banned")
            #expect(try await client.refresh(device.string("refresh_token") ?? "").status == .badRequest)
            #expect(try await client.signIn("victim@example.com").errorCode == "user_banned")
            let op = try #require(try await harness.server.storage.read { try await $0.user(email: account.email) })
            let line = try #require(
                try await Self.lines(harness, AuditQuery(user: victim.id, action: .adminUserModified)).first
            )
            #expect(line.actorID == op.id && line.subjectID == victim.id)
            // An unknown period is refused; the offered ones are the admin API's durations.
            let odd = try await browser.submit("\(page)/ban", from: page, [("duration", "5y")])
            #expect(odd.status == .badRequest)
            let shown = try await browser.get("\(page)?done=banned")
            #expect(shown.text.contains("The user is banned"))
            let unbanned = try await browser.submit("\(page)/unban", from: page)
            #expect(unbanned.status == .seeOther)
            #expect(try await client.signIn("victim@example.com").status == .ok)
        }
    }

    @Test func endingOneSessionSignsOutThatDeviceOnly() async throws {
        try await ConsoleAttackTests.scene { harness, client, browser, _, victim in
            let phone = try await client.signIn("victim@example.com")
            let laptop = try await client.signIn("victim@example.com")
            let phoneSession = try #require(
                accessClaims(phone.string("access_token"))["session_id"] as? String
            )
            let page = "/console/users/\(victim.id.key)"
            let listed = try await browser.get(page)
            #expect(listed.text.contains(phoneSession.lowercased()))
            let ended = try await browser.submit("\(page)/sessions/\(phoneSession)/end", from: page)
            #expect(ended.status == .seeOther)
            #expect(try await client.get("/user", bearer: phone.string("access_token")).status == .forbidden)
            #expect(try await client.refresh(phone.string("refresh_token") ?? "").status == .badRequest)
            let rotated = try await client.refresh(laptop.string("refresh_token") ?? "")
            #expect(rotated.status == .ok)
            let line = try #require(
                try await Self.lines(harness, AuditQuery(user: victim.id, action: .sessionEnded)).first
            )
            #expect(line.detail == "console" && line.subjectID == victim.id)
            // All of them.
            let all = try await browser.submit("\(page)/sessions/end", from: page)
            #expect(all.status == .seeOther)
            #expect(try await client.refresh(rotated.string("refresh_token") ?? "").status == .badRequest)
            #expect(try await Self.lines(harness, AuditQuery(user: victim.id, action: .sessionsEnded)).count == 1)
        }
    }

    @Test func keysRotateAndRetireWithTheCommandsRules() async throws {
        try await ConsoleAttackTests.scene { harness, _, browser, _, _ in
            let before = try await SigningKeyAdmin.list(storage: harness.server.storage)
            let rotated = try await browser.submit("/console/keys/rotate", from: "/console/keys")
            #expect(rotated.status == .seeOther)
            let after = try await SigningKeyAdmin.list(storage: harness.server.storage).sorted {
                $0.createdAt < $1.createdAt
            }
            #expect(after.count == before.count + 1)
            let page = try await browser.get("/console/keys?done=key-rotated")
            #expect(page.text.contains(after.last?.kid ?? "-"))
            #expect(!page.text.contains("PRIVATE KEY"))
            // The newest key is the one that signs: not retired.
            let refused = try await browser.submit(
                "/console/keys/retire",
                from: "/console/keys",
                [("kid", after.last?.kid ?? "")]
            )
            #expect(refused.status == .unprocessableContent)
            if after.count > 1 {
                let retired = try await browser.submit(
                    "/console/keys/retire",
                    from: "/console/keys",
                    [("kid", after[0].kid)]
                )
                #expect(retired.status == .seeOther)
                #expect(try await SigningKeyAdmin.list(storage: harness.server.storage).count == after.count - 1)
            }
            let lines = try await Self.lines(harness, AuditQuery(action: .signingKeyRotated))
            #expect(lines.first?.actorID != nil)
        }
    }

    @Test func usersAreFoundByAddressOrIdAndPaged() async throws {
        try await ConsoleAttackTests.scene { harness, client, browser, _, victim in
            for index in 0..<55 {
                _ = try await client.post(
                    "/signup",
                    #"{"email":"p\#(index)@example.net","password":"correct horse battery"}"#
                )
            }
            let first = try await browser.get("/console/users")
            #expect(first.text.contains("page 1 of 2"))
            #expect(first.text.contains("/console/users?page=2"))
            let second = try await browser.get("/console/users?page=2")
            #expect(second.status == .ok && second.text.contains("page 2 of 2"))
            let byPrefix = try await browser.get("/console/users?q=VICT")
            #expect(byPrefix.text.contains("victim@example.com") && !byPrefix.text.contains("p1@example.net"))
            let byID = try await browser.get("/console/users?q=\(victim.id.key)")
            #expect(byID.text.contains("victim@example.com"))
            let none = try await browser.get("/console/users?q=nobody")
            #expect(none.text.contains("No user matches"))
            #expect(try await browser.get("/console/users/\(UUID().uuidString)").status == .notFound)
        }
    }

    @Test func theOverviewCountsAndChartsSignInsPerDay() async throws {
        try await ConsoleAttackTests.scene { harness, client, browser, account, _ in
            _ = try await client.signIn("victim@example.com")
            _ = try await client.signIn("victim@example.com", "wrong password")
            harness.clock.advance(by: 86_400)
            _ = try await client.signIn("victim@example.com")
            // A day later the console session has lapsed: the operator signs in again.
            try await browser.signIn(account.email, code: account.code(harness.clock))
            let page = try await browser.get("/console")
            #expect(page.status == .ok)
            #expect(page.text.contains("<dt>Users</dt><dd>2</dd>"))
            #expect(page.text.contains("<svg class=\"chart\""))
            // Bars of two days: the first day's sign-ups (the operator's and the victim's), the
            // sign-ins of both days (the operator's and the victim's) and one failure.
            let bars = page.text.components(separatedBy: "<rect ").count - 1
            #expect(bars == 4, "\(bars) bars")
            #expect(page.text.contains("New users: 2</li>") && page.text.contains("New guests: 0</li>"))
            #expect(page.text.contains("<title>Failed sign-ins: 1</title>"))
            #expect(page.text.contains("Failed sign-ins: 1</li>"))
        }
    }

    @Test func theAuditPageFiltersAndLinksToUsers() async throws {
        try await ConsoleAttackTests.scene { harness, client, browser, _, victim in
            _ = try await client.signIn("victim@example.com")
            let page = try await browser.get("/console/audit?user=\(victim.id.key)&action=login")
            #expect(page.status == .ok)
            #expect(page.text.contains("href=\"/console/users/\(victim.id.key)\""))
            #expect(!page.text.contains("console_signed_in"))
            let day = ConsoleAuditPageDay.text(harness.clock.now())
            let today = try await browser.get("/console/audit?from=\(day)&until=\(day)&action=console_signed_in")
            #expect(today.text.contains("console_signed_in"))
            let bad = try await browser.get("/console/audit?from=yesterday")
            #expect(bad.text.contains("From must be a date"))
            let trail = try await browser.get("/console/users/\(victim.id.key)")
            #expect(trail.text.contains("Audit trail") && trail.text.contains(">login<"))
        }
    }
}

/// A day as the audit page's date fields send it.
enum ConsoleAuditPageDay {
    static func text(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
