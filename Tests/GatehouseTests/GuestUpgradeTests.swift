import Foundation
import Gatehouse
import GatehouseTesting
import Testing

@MainActor
@Suite("Typed guest upgrade")
struct GuestUpgradeTests {
    @Test func emailUpgradeKeepsTheID() async throws {
        let fixture = Fixture()
        let guest = try await fixture.service.signInAnonymously()
        let outcome = try await fixture.service.upgradeGuest(email: "ada@example.com", password: password)
        guard case .upgradedInPlace(let user) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(user.id == guest.id && !user.isAnonymous)
    }

    @Test func emailUpgradeWithConfirmationIsPending() async throws {
        let fixture = Fixture(requiresEmailConfirmation: true)
        let guest = try await fixture.service.signInAnonymously()
        let outcome = try await fixture.service.upgradeGuest(email: "ada@example.com", password: password)
        #expect(outcome == .pendingVerification(email: "ada@example.com"))
        #expect(fixture.service.isAnonymous)
        #expect(fixture.service.currentUser?.email == nil, "the address is pending, not the guest's")
        #expect(fixture.service.currentUser?.newEmail == "ada@example.com")
        let code = try #require(await fixture.backend.lastCode(for: "ada@example.com", type: .emailChange))
        let status = try await fixture.service.confirmEmailChange(email: "ada@example.com", code: code)
        guard case .completed(let user) = status else {
            Issue.record("\(status)")
            return
        }
        #expect(user.id == guest.id && !user.isAnonymous && user.email == "ada@example.com")
        #expect(fixture.service.currentUser?.id == guest.id)
    }

    @Test func anEmailOfAnotherAccountIsAnOutcomeNotAnError() async throws {
        let fixture = Fixture()
        await fixture.backend.seedUser(email: "ada@example.com", password: password)
        let guest = try await fixture.service.signInAnonymously()
        let outcome = try await fixture.service.upgradeGuest(email: "ada@example.com", password: password)
        #expect(outcome == .emailBelongsToExistingAccount(email: "ada@example.com", previousGuestID: guest.id))
        #expect(fixture.service.currentUser == guest)
        #expect(fixture.service.authSession.error == nil)
    }

    @Test func aLinkedIdentitySignsIntoTheExistingAccount() async throws {
        let fixture = Fixture()
        let first = await fixture.backend.makeIDToken(
            provider: .apple,
            subject: "apple-1",
            email: "a@icloud.com",
            nonce: "n1"
        )
        let owner = try await fixture.service.signIn(
            with: IDTokenCredential(provider: .apple, idToken: first, nonce: "n1")
        )
        await fixture.service.signOut()
        let guest = try await fixture.service.signInAnonymously()

        let second = await fixture.backend.makeIDToken(provider: .apple, subject: "apple-1", nonce: "n2")
        let outcome = try await fixture.service.upgradeGuest(
            with: IDTokenCredential(provider: .apple, idToken: second, nonce: "n2")
        )

        #expect(outcome == .signedIntoExistingAccount(owner, previousGuestID: guest.id))
        #expect(fixture.service.currentUser?.id == owner.id)
    }

    @Test func aNewIdentityUpgradesInPlace() async throws {
        let fixture = Fixture()
        let guest = try await fixture.service.signInAnonymously()
        let token = await fixture.backend.makeIDToken(
            provider: .google,
            subject: "g-1",
            email: "a@gmail.com",
            nonce: "n1"
        )
        let outcome = try await fixture.service.upgradeGuest(
            with: IDTokenCredential(provider: .google, idToken: token, nonce: "n1")
        )
        guard case .upgradedInPlace(let user) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(user.id == guest.id)
    }

    @Test func upgradingNeedsAGuest() async throws {
        let fixture = Fixture()
        await #expect(throws: AuthError.self) {
            try await fixture.service.upgradeGuest(email: "ada@example.com", password: password)
        }
    }
}
