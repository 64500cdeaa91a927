import Foundation
import Gatehouse
import Testing

/// The signed-in user: lookup, metadata, e-mail and password changes, deletion.
@Suite("Contract: the account", .serialized)
struct AccountContract {
    @Test(arguments: BackendKind.underTest)
    func metadataMergesAndTheLookupReadsItBack(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let session = try await signUp(world)
            let looked = try await world.backend.user(for: session)
            #expect(looked.id == session.user.id && looked.email == "ada@example.com" && !looked.isAnonymous)

            let first = try await world.backend.updateUser(UserChanges(data: ["theme": "dark"]), for: session)
            #expect(first.userMetadata["theme"] == "dark")
            let second = try await world.backend.updateUser(
                UserChanges(data: ["theme": "light", "language": "en"]),
                for: session
            )
            #expect(second.userMetadata == ["theme": "light", "language": "en"])
            #expect(try await world.backend.user(for: session).userMetadata == second.userMetadata)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anEmailChangeNeedsTheCodesOfBothAddresses(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let session = try await signUp(world)
            let otherDevice = try await world.backend.signIn(email: "ada@example.com", password: contractPassword)
            let pending = try await world.backend.updateUser(UserChanges(email: "ada@new.example"), for: session)
            #expect(pending.email == "ada@example.com", "unchanged until confirmed")
            #expect(pending.newEmail == "ada@new.example")
            // The new address with its code (what the Supabase clients send): one side done.
            let newCode = try await world.code(to: "ada@new.example")
            let half = try await world.backend.verifyEmailChange(email: "ada@new.example", code: newCode)
            #expect(half == .otherAddressPending)
            await expectFailure(.invalidCredentials, "not moved yet") {
                try await world.backend.signIn(email: "ada@new.example", password: contractPassword)
            }
            // The current address with its own code completes the change.
            let currentCode = try await world.code(to: "ada@example.com")
            let done = try await world.backend.verifyEmailChange(email: "ada@example.com", code: currentCode)
            guard case .completed(let changed) = done else {
                Issue.record("expected the change to complete, got \(done)")
                return
            }
            #expect(changed.user.id == session.user.id && changed.user.email == "ada@new.example")
            _ = try await world.backend.signIn(email: "ada@new.example", password: contractPassword)
            await expectFailure(.refreshTokenNotFound, "the change ended the other sessions") {
                try await world.backend.refresh(otherDevice)
            }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aPasswordChangeEndsTheOtherSessionsOnly(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let session = try await signUp(world)
            let otherDevice = try await world.backend.signIn(email: "ada@example.com", password: contractPassword)
            _ = try await world.backend.updateUser(UserChanges(password: "a brand new phrase"), for: session)
            await expectFailure(.refreshTokenNotFound) { try await world.backend.refresh(otherDevice) }
            #expect(try await world.backend.user(for: session).id == session.user.id, "the changing session stays")
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aPasswordChangeMustChangeItAndProveTheCurrentOne(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let session = try await signUp(world)
            await expectFailure(.samePassword) {
                try await world.backend.updateUser(UserChanges(password: contractPassword), for: session)
            }
            await expectFailure(.currentPasswordInvalid) {
                try await world.backend.updateUser(
                    UserChanges(password: "a brand new phrase", currentPassword: "not the password"),
                    for: session
                )
            }
            _ = try await world.backend.updateUser(
                UserChanges(password: "a brand new phrase", currentPassword: contractPassword),
                for: session
            )
            _ = try await world.backend.signIn(email: "ada@example.com", password: "a brand new phrase")
        }
    }

    @Test(arguments: BackendKind.underTest)
    func deletionEndsEverySessionAndTheAccount(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let session = try await signUp(world)
            let otherDevice = try await world.backend.signIn(email: "ada@example.com", password: contractPassword)
            try await world.backend.deleteAccount(session)

            for ended in [session, otherDevice] {
                let refresh = await expectFailure(.refreshTokenNotFound) { try await world.backend.refresh(ended) }
                #expect(refresh?.endsSession == true)
                let user = await expectFailure(.sessionNotFound) { try await world.backend.user(for: ended) }
                #expect(user?.endsSession == true)
            }
            await expectFailure(.invalidCredentials) {
                try await world.backend.signIn(email: "ada@example.com", password: contractPassword)
            }
            // The address is free again.
            _ = try await signUp(world)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aReauthenticationCodeNobodySentIsRefusedAndChangesNothing(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let session = try await signUp(world)
            await expectFailure(.reauthenticationNotValid, "checked whenever sent, even after a recent sign-in") {
                try await world.backend.updateUser(
                    UserChanges(password: "another good passphrase", nonce: "123456"),
                    for: session
                )
            }
            await expectFailure(.reauthenticationNotValid, "for any change") {
                try await world.backend.updateUser(UserChanges(nonce: "654321", data: ["theme": "dark"]), for: session)
            }
            _ = try await world.backend.signIn(email: "ada@example.com", password: contractPassword)
            #expect(try await world.backend.user(for: session).userMetadata["theme"] == nil)
        }
    }

    private func signUp(_ world: any ContractWorld) async throws -> Session {
        let outcome = try await world.backend.signUp(
            email: "ada@example.com",
            password: contractPassword,
            upgrading: nil
        )
        guard case .signedIn(let session) = outcome else { throw ContractFailure.unexpected("\(outcome)") }
        return session
    }
}
