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
            #expect(pending.email == "ada@example.com" && pending.emailConfirmedAt == nil)
            await expectFailure(.emailNotConfirmed) {
                try await backend.signIn(email: "ada@example.com", password: contractPassword)
            }

            let code = try await world.code(to: "ada@example.com")
            let session = try await backend.verifyCode(email: "ada@example.com", code: code, type: .signup)
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
            #expect(updated.id == guest.user.id && updated.isAnonymous && updated.emailConfirmedAt == nil)
            await expectFailure(.validationFailed, "a guest's password needs an address") {
                try await world.backend.updateUser(
                    UserChanges(password: contractPassword),
                    for: try await world.backend.signInAnonymously()
                )
            }
            let code = try await world.code(to: "ada@example.com")
            let session = try await world.backend.verifyCode(email: "ada@example.com", code: code, type: .signup)
            #expect(session.user.id == guest.user.id && !session.user.isAnonymous)
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
