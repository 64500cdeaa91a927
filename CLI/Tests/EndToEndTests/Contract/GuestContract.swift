import Foundation
import Gatehouse
import Testing

/// Guests and their upgrade by e-mail.
@Suite("Contract: guests", .serialized)
struct GuestContract {
    @Test(arguments: BackendKind.underTest)
    func aGuestIsAnonymousAndItsSessionReadsItBack(_ kind: BackendKind) async throws {
        try await kind.run { world in
            let guest = try await world.backend.signInAnonymously()
            #expect(guest.user.isAnonymous && guest.user.email == nil)
            let read = try await world.backend.user(for: guest)
            #expect(read.id == guest.user.id && read.isAnonymous)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func guestsCanBeTurnedOff(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(guests: false)) { world in
            await expectFailure(.anonymousProviderDisabled) { try await world.backend.signInAnonymously() }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anEmailUpgradeNeedsTheCodeAndKeepsTheID(_ kind: BackendKind) async throws {
        try await kind.run { world in
            let backend = world.backend
            let guest = try await backend.signInAnonymously()
            let outcome = try await backend.signUp(
                email: "ada@example.com",
                password: contractPassword,
                upgrading: guest
            )
            guard case .confirmationRequired(let pending) = outcome else {
                Issue.record("expected a confirmation, got \(outcome)")
                return
            }
            #expect(pending.id == guest.user.id && pending.isAnonymous, "still a guest until confirmed")
            #expect(pending.email == nil && pending.newEmail == "ada@example.com", "pending, not the guest's (OWN-2)")
            await expectFailure(.invalidCredentials, "an unproven address signs nobody in") {
                try await backend.signIn(email: "ada@example.com", password: contractPassword)
            }

            // Confirmed as an address change (what supabase-swift's verifyOTP(.emailChange) sends).
            let code = try await world.code(to: "ada@example.com")
            let verified = try await backend.verifyEmailChange(email: "ada@example.com", code: code)
            guard case .completed(let session) = verified else {
                Issue.record("expected the upgrade to complete, got \(verified)")
                return
            }
            #expect(session.user.id == guest.user.id && !session.user.isAnonymous)
            #expect(session.user.emailConfirmedAt != nil)
            #expect(
                try await backend.signIn(email: "ada@example.com", password: contractPassword).user.id == guest.user.id
            )
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anEmailUpgradeWithAutoconfirmIsPermanentAtOnce(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let guest = try await world.backend.signInAnonymously()
            let outcome = try await world.backend.signUp(
                email: "ada@example.com",
                password: contractPassword,
                upgrading: guest
            )
            guard case .signedIn(let session) = outcome else {
                Issue.record("expected a session, got \(outcome)")
                return
            }
            #expect(session.user.id == guest.user.id && !session.user.isAnonymous)
            #expect(session.user.email == "ada@example.com" && session.user.emailConfirmedAt != nil)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anAddressSetThroughUpdateUserNeedsTheCodeToo(_ kind: BackendKind) async throws {
        try await kind.run { world in
            let guest = try await world.backend.signInAnonymously()
            let updated = try await world.backend.updateUser(UserChanges(email: "ada@example.com"), for: guest)
            #expect(updated.id == guest.user.id && updated.isAnonymous && updated.newEmail == "ada@example.com")
            await expectFailure(.validationFailed, "a guest's password needs an address") {
                try await world.backend.updateUser(
                    UserChanges(password: contractPassword),
                    for: try await world.backend.signInAnonymously()
                )
            }
            let code = try await world.code(to: "ada@example.com")
            guard
                case .completed(let session) = try await world.backend.verifyEmailChange(
                    email: "ada@example.com",
                    code: code
                )
            else {
                Issue.record("expected the upgrade to complete")
                return
            }
            #expect(session.user.id == guest.user.id && !session.user.isAnonymous)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aGuestsPendingAddressNeitherBlocksNorCapturesItsOwner(_ kind: BackendKind) async throws {
        try await kind.run { world in
            let guest = try await world.backend.signInAnonymously()
            _ = try await world.backend.updateUser(
                UserChanges(email: "ada@example.com", password: "the guest's phrase"),
                for: guest
            )
            _ = try await world.code(to: "ada@example.com")
            let outcome = try await world.backend.signUp(
                email: "ada@example.com",
                password: contractPassword,
                upgrading: nil
            )
            guard case .confirmationRequired = outcome else {
                Issue.record("expected a confirmation, got \(outcome)")
                return
            }
            let code = try await world.code(to: "ada@example.com", after: 1)
            let owner = try await world.backend.verifyCode(email: "ada@example.com", code: code, type: .signup)
            #expect(owner.user.id != guest.user.id, "the owner lands in a new account")
            await expectFailure(.invalidCredentials) {
                try await world.backend.signIn(email: "ada@example.com", password: "the guest's phrase")
            }
            #expect(try await world.backend.user(for: guest).isAnonymous, "the guest holds nothing of it")
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aGuestCannotTakeAnotherAccountsAddress(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            _ = try await world.backend.signUp(email: "ada@example.com", password: contractPassword, upgrading: nil)
            let guest = try await world.backend.signInAnonymously()
            await expectFailure(.emailExists) {
                try await world.backend.signUp(email: "ada@example.com", password: contractPassword, upgrading: guest)
            }
            #expect(try await world.backend.user(for: guest).isAnonymous, "the guest is unchanged")
        }
    }
}
