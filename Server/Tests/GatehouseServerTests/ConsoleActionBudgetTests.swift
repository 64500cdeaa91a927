import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 37: the console's forms spend the operator's own budget
/// (`GATEHOUSE_RATE_LIMIT_CONSOLE_ACTIONS` per 5 minutes). A stolen cookie acts at a bounded
/// pace; over the budget nothing is done and the page says how long to wait; another operator's
/// budget is untouched; signing out is never refused; the window reopens.
@Suite("Console action budget")
struct ConsoleActionBudgetTests {
    @Test func anOperatorsFormsAreCountedAndTheOverflowDoesNothing() async throws {
        try await ConsoleAttackTests.scene({ $0.rateLimits.consoleActions = 3 }) {
            harness,
            client,
            browser,
            _,
            victim in
            let page = "/console/users/\(victim.id.key)"
            let ban = [("duration", "24h")]
            #expect(try await browser.submit("\(page)/ban", from: page, ban).status == .seeOther)
            #expect(try await browser.submit("\(page)/unban", from: page).status == .seeOther)
            #expect(try await browser.submit("\(page)/ban", from: page, ban).status == .seeOther)
            #expect(try await ConsoleAttackTests.isBanned(victim.id, harness))

            // The fourth form in five minutes: refused before anything is done.
            let over = try await browser.submit("\(page)/unban", from: page)
            #expect(over.status == .tooManyRequests)
            let wait = try #require(over.header("Retry-After").flatMap(Int.init))
            #expect(wait > 0 && wait <= 300)
            #expect(over.text.contains("Too many console actions"))
            #expect(over.header("Content-Security-Policy") == ConsoleHeadersMiddleware.contentSecurityPolicy)
            #expect(try await ConsoleAttackTests.isBanned(victim.id, harness))
            // Pages still open: only forms are counted.
            #expect(try await browser.get(page).status == .ok)

            // Another operator's forms spend their own budget.
            let other = try await ConsoleOperatorAccount.make("op2@example.com", client, harness)
            let second = ConsoleVisitor(client)
            try await second.signIn(other.email, code: other.code(harness.clock))
            #expect(try await second.submit("\(page)/unban", from: page).status == .seeOther)
            #expect(try await !ConsoleAttackTests.isBanned(victim.id, harness))

            // Five minutes on, the first operator's window has reopened.
            harness.clock.advance(by: 301)
            #expect(try await browser.submit("\(page)/ban", from: page, ban).status == .seeOther)
            #expect(try await ConsoleAttackTests.isBanned(victim.id, harness))
        }
    }

    @Test func signingOutIsNeverRefused() async throws {
        try await ConsoleAttackTests.scene({ $0.rateLimits.consoleActions = 1 }) { harness, _, browser, _, victim in
            let page = "/console/users/\(victim.id.key)"
            #expect(try await browser.submit("\(page)/ban", from: page, [("duration", "24h")]).status == .seeOther)
            #expect(try await browser.submit("\(page)/unban", from: page).status == .tooManyRequests)
            let out = try await browser.submit("/console/sign-out", from: "/console/users")
            #expect(out.status == .seeOther)
            let after = try await browser.get("/console/users")
            #expect(after.status == .seeOther && after.header("Location")?.hasPrefix("/console/sign-in") == true)
        }
    }
}
