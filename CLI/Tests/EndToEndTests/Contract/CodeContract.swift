import Foundation
import Gatehouse
import Testing

/// Magic codes, password resets and the rules of e-mailed codes.
@Suite("Contract: e-mailed codes", .serialized)
struct CodeContract {
    @Test(arguments: BackendKind.underTest)
    func aMagicCodeCreatesTheUserSignsInAndWorksOnce(_ kind: BackendKind) async throws {
        try await kind.run { world in
            try await world.backend.sendMagicCode(to: "ada@example.com")
            let code = try await world.code(to: "ada@example.com")
            let session = try await world.backend.verifyCode(email: "ada@example.com", code: code, type: .email)
            #expect(session.user.email == "ada@example.com" && session.user.emailConfirmedAt != nil)
            #expect(try await world.backend.user(for: session).id == session.user.id)
            await expectFailure(.otpExpired, "a code works once") {
                try await world.backend.verifyCode(email: "ada@example.com", code: code, type: .email)
            }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aMagicCodeSignsIntoTheExistingAccount(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let outcome = try await world.backend.signUp(
                email: "ada@example.com",
                password: contractPassword,
                upgrading: nil
            )
            guard case .signedIn(let account) = outcome else {
                Issue.record("expected a session, got \(outcome)")
                return
            }
            try await world.backend.sendMagicCode(to: "ada@example.com")
            let code = try await world.code(to: "ada@example.com")
            let session = try await world.backend.verifyCode(email: "ada@example.com", code: code, type: .magiclink)
            #expect(session.user.id == account.user.id)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aSecondMagicCodeWithinAMinuteIsRefused(_ kind: BackendKind) async throws {
        try await kind.run { world in
            try await world.backend.sendMagicCode(to: "ada@example.com")
            await expectFailure(.overEmailSendRateLimit) {
                try await world.backend.sendMagicCode(to: "ada@example.com")
            }
            #expect(try await world.codeCount(to: "ada@example.com", settled: true) == 1)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func fiveWrongAttemptsKillTheCode(_ kind: BackendKind) async throws {
        try await kind.run { world in
            try await world.backend.sendMagicCode(to: "ada@example.com")
            let code = try await world.code(to: "ada@example.com")
            for _ in 0..<5 {
                await expectFailure(.otpExpired) {
                    try await world.backend.verifyCode(email: "ada@example.com", code: wrong(code), type: .email)
                }
            }
            await expectFailure(.otpExpired, "dead after five wrong attempts") {
                try await world.backend.verifyCode(email: "ada@example.com", code: code, type: .email)
            }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aCodeForOnePurposeDoesNotVerifyAnother(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            _ = try await world.backend.signUp(email: "ada@example.com", password: contractPassword, upgrading: nil)
            try await world.backend.resetPassword(email: "ada@example.com")
            let code = try await world.code(to: "ada@example.com")
            await expectFailure(.otpExpired) {
                try await world.backend.verifyCode(email: "ada@example.com", code: code, type: .email)
            }
            _ = try await world.backend.verifyCode(email: "ada@example.com", code: code, type: .recovery)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aResetForAnUnknownAddressSucceedsSilently(_ kind: BackendKind) async throws {
        try await kind.run { world in
            try await world.backend.resetPassword(email: "nobody@example.com")
            #expect(try await world.codeCount(to: "nobody@example.com", settled: true) == 0)
            await expectFailure(.invalidCredentials, "and creates no account") {
                try await world.backend.signIn(email: "nobody@example.com", password: contractPassword)
            }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aRecoveryCodeSignsInSoThePasswordCanChange(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let backend = world.backend
            _ = try await backend.signUp(email: "ada@example.com", password: contractPassword, upgrading: nil)
            try await backend.resetPassword(email: "ada@example.com")
            let code = try await world.code(to: "ada@example.com")
            let session = try await backend.verifyCode(email: "ada@example.com", code: code, type: .recovery)
            _ = try await backend.updateUser(UserChanges(password: "a brand new phrase"), for: session)
            _ = try await backend.signIn(email: "ada@example.com", password: "a brand new phrase")
            await expectFailure(.invalidCredentials, "the old password is gone") {
                try await backend.signIn(email: "ada@example.com", password: contractPassword)
            }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anAddressProvenByCodeDropsAPasswordNobodyProved(_ kind: BackendKind) async throws {
        try await kind.run { world in
            let backend = world.backend
            // An attacker signs up the owner's address and never confirms it.
            _ = try await backend.signUp(email: "ada@example.com", password: "attacker's phrase", upgrading: nil)
            _ = try await world.code(to: "ada@example.com")
            try await backend.sendMagicCode(to: "ada@example.com")
            let code = try await world.code(to: "ada@example.com", after: 1)
            let session = try await backend.verifyCode(email: "ada@example.com", code: code, type: .email)
            #expect(session.user.emailConfirmedAt != nil)
            await expectFailure(.invalidCredentials, "the unproven password is gone") {
                try await backend.signIn(email: "ada@example.com", password: "attacker's phrase")
            }
        }
    }
}
