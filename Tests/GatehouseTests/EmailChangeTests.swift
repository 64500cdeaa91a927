import Foundation
import Gatehouse
import GatehouseTesting
import Testing

@MainActor
@Suite("E-mail change")
struct EmailChangeTests {
    @Test func aConfirmedUserConfirmsBothAddresses() async throws {
        // Given: a confirmed user signed in on two devices.
        let fixture = Fixture()
        let user = try await fixture.service.signUp(email: "ada@example.com", password: password)
        _ = user
        let other = try await fixture.backend.signIn(email: "ada@example.com", password: password)

        // When: the address change is asked for.
        let asked = try await fixture.service.updateUser(email: "ada@new.example")
        #expect(asked == .codesSentToBothAddresses(newEmail: "ada@new.example", currentEmail: "ada@example.com"))
        #expect(fixture.service.currentUser?.email == "ada@example.com")
        #expect(fixture.service.currentUser?.newEmail == "ada@new.example")

        // Then: one code alone leaves the other pending, both complete the change.
        let newCode = try #require(await fixture.backend.lastCode(for: "ada@new.example", type: .emailChange))
        let currentCode = try #require(await fixture.backend.lastCode(for: "ada@example.com"))
        #expect(
            try await fixture.service.confirmEmailChange(email: "ada@new.example", code: newCode)
                == .otherAddressPending
        )
        #expect(fixture.service.currentUser?.email == "ada@example.com")
        let done = try await fixture.service.confirmEmailChange(email: "ada@example.com", code: currentCode)
        guard case .completed(let changed) = done else {
            Issue.record("\(done)")
            return
        }
        #expect(changed.email == "ada@new.example" && changed.newEmail == nil)
        #expect(fixture.service.currentUser?.email == "ada@new.example")
        await #expect(throws: AuthError.self) { try await fixture.backend.refresh(other) }
    }

    @Test func aPasswordChangeEndsTheOtherSessions() async throws {
        let fixture = Fixture()
        _ = try await fixture.service.signUp(email: "ada@example.com", password: password)
        let other = try await fixture.backend.signIn(email: "ada@example.com", password: password)
        _ = try await fixture.service.updateUser(UserChanges(password: "a brand new phrase"))
        await #expect(throws: AuthError.self) { try await fixture.backend.refresh(other) }
        #expect(fixture.service.currentUser != nil)
    }

    @Test func aPreHijackedSignUpLosesItsPassword() async throws {
        let fixture = Fixture(requiresEmailConfirmation: true)
        _ = try await fixture.backend.signUp(email: "ada@example.com", password: "attacker phrase", upgrading: nil)
        try await fixture.backend.sendMagicCode(to: "ada@example.com")
        let code = try #require(await fixture.backend.lastCode(for: "ada@example.com", type: .email))
        _ = try await fixture.service.verifyMagicCode(email: "ada@example.com", code: code)
        await #expect(throws: AuthError.self) {
            try await fixture.backend.signIn(email: "ada@example.com", password: "attacker phrase")
        }
    }

    @Test func aGuestConfirmsTheNewAddressOnlyAndKeepsItsID() async throws {
        let fixture = Fixture(requiresEmailConfirmation: true)
        let guest = try await fixture.service.signInAnonymously()
        let asked = try await fixture.service.updateUser(email: "ada@example.com")
        #expect(asked == .codeSentToNewAddress(newEmail: "ada@example.com"))
        #expect(fixture.service.isAnonymous)
        let code = try #require(await fixture.backend.lastCode(for: "ada@example.com", type: .emailChange))
        await #expect(throws: AuthError.self) {
            try await fixture.service.confirmEmailChange(email: "ada@example.com", code: wrongCode(code))
        }
        let done = try await fixture.service.confirmEmailChange(email: "ada@example.com", code: code)
        guard case .completed(let user) = done else {
            Issue.record("\(done)")
            return
        }
        #expect(user.id == guest.id && !user.isAnonymous && user.email == "ada@example.com")
    }

    @Test func aGuestsPendingAddressDoesNotBlockTheOwner() async throws {
        let fixture = Fixture(requiresEmailConfirmation: true)
        let guest = try await fixture.service.signInAnonymously()
        _ = try await fixture.service.updateUser(email: "ada@example.com")
        let owner = try await fixture.backend.signUp(email: "ada@example.com", password: password, upgrading: nil)
        guard case .confirmationRequired(let user) = owner else {
            Issue.record("\(owner)")
            return
        }
        #expect(user.id != guest.id)
    }

    private func wrongCode(_ code: String) -> String { code == "000000" ? "111111" : "000000" }
}
