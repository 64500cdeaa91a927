import Foundation
import Gatehouse
import Testing

/// Sign-up and password sign-in, the same on `InMemoryAuthBackend` and the server.
@Suite("Contract: sign-up and password sign-in", .serialized)
struct SignUpContract {
    @Test(arguments: BackendKind.underTest)
    func signUpNeedsTheEmailedCodeThenSignsIn(_ kind: BackendKind) async throws {
        try await kind.run { world in
            let backend = world.backend
            let outcome = try await backend.signUp(email: "Ada@Example.com", password: contractPassword, upgrading: nil)
            guard case .confirmationRequired(let user) = outcome else {
                Issue.record("expected a confirmation, got \(outcome)")
                return
            }
            #expect(user.email == "ada@example.com" && user.emailConfirmedAt == nil && !user.isAnonymous)
            await expectFailure(.emailNotConfirmed) {
                try await backend.signIn(email: "ada@example.com", password: contractPassword)
            }

            let code = try await world.code(to: "ada@example.com")
            await expectFailure(.otpExpired) {
                try await backend.verifyCode(email: "ada@example.com", code: wrong(code), type: .signup)
            }
            let session = try await backend.verifyCode(email: "ada@example.com", code: code, type: .signup)
            #expect(session.user.id == user.id && session.user.emailConfirmedAt != nil)
            await expectFailure(.otpExpired, "a code works once") {
                try await backend.verifyCode(email: "ada@example.com", code: code, type: .signup)
            }
            let signedIn = try await backend.signIn(email: "ada@example.com", password: contractPassword)
            #expect(signedIn.user.id == user.id)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func autoconfirmSignsInAtOnceAndRefusesADuplicate(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let outcome = try await world.backend.signUp(
                email: "ada@example.com",
                password: contractPassword,
                upgrading: nil
            )
            guard case .signedIn(let session) = outcome else {
                Issue.record("expected a session, got \(outcome)")
                return
            }
            #expect(session.user.email == "ada@example.com" && session.user.emailConfirmedAt != nil)
            #expect(try await world.backend.user(for: session).id == session.user.id)
            await expectFailure(.userAlreadyExists) {
                try await world.backend.signUp(email: "ada@example.com", password: contractPassword, upgrading: nil)
            }
            #expect(try await world.codeCount(to: "ada@example.com", settled: true) == 0, "nothing to confirm")
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aContestedSignUpProvesTheAddressOnly(_ kind: BackendKind) async throws {
        // Issue 31: a second sign-up for a pending address answers a look-alike, and confirming
        // the address then proves neither password.
        try await kind.run { world in
            let backend = world.backend
            let first = try await backend.signUp(email: "ada@example.com", password: contractPassword, upgrading: nil)
            _ = try await world.code(to: "ada@example.com")
            let second = try await backend.signUp(
                email: "ada@example.com",
                password: "attacker's phrase",
                upgrading: nil
            )
            guard case .confirmationRequired(let pending) = first, case .confirmationRequired(let lookalike) = second
            else {
                Issue.record("expected two confirmations, got \(first) and \(second)")
                return
            }
            #expect(lookalike.id != pending.id, "the repeated sign-up learns no account id")
            let code = try await world.code(to: "ada@example.com", after: 1)
            let session = try await backend.verifyCode(email: "ada@example.com", code: code, type: .signup)
            #expect(session.user.id == pending.id && session.user.emailConfirmedAt != nil)
            for password in [contractPassword, "attacker's phrase"] {
                await expectFailure(.invalidCredentials, "neither password is the account's") {
                    try await backend.signIn(email: "ada@example.com", password: password)
                }
            }
            _ = try await backend.updateUser(UserChanges(password: "the owner's own phrase"), for: session)
            _ = try await backend.signIn(email: "ada@example.com", password: "the owner's own phrase")
        }
    }

    @Test(arguments: BackendKind.underTest)
    func signUpOfAKnownAddressRevealsNothingAndSendsNothing(_ kind: BackendKind) async throws {
        try await kind.run { world in
            let backend = world.backend
            guard
                case .confirmationRequired(let pending) = try await backend.signUp(
                    email: "ada@example.com",
                    password: contractPassword,
                    upgrading: nil
                )
            else {
                Issue.record("expected a confirmation")
                return
            }
            _ = try await world.code(to: "ada@example.com")
            // Again while unconfirmed: a fresh code, a look-alike answer of the same shape, and the
            // address contested: neither password will be proven by it (OWN-1, OWN-5, issue 31).
            let again = try await backend.signUp(
                email: "ada@example.com",
                password: "the owner's phrase",
                upgrading: nil
            )
            guard case .confirmationRequired(let replaced) = again else {
                Issue.record("expected a confirmation, got \(again)")
                return
            }
            #expect(replaced.email == "ada@example.com" && replaced.emailConfirmedAt == nil)
            #expect(replaced.id != pending.id)
            #expect(try await world.codeCount(to: "ada@example.com", settled: true) == 2)

            _ = try await backend.verifyCode(
                email: "ada@example.com",
                code: try await world.code(to: "ada@example.com", after: 1),
                type: .signup
            )
            for password in ["the owner's phrase", contractPassword] {
                await expectFailure(.invalidCredentials, "a contested address proves no password") {
                    try await backend.signIn(email: "ada@example.com", password: password)
                }
            }
            // Once confirmed: a made-up user and no mail.
            let confirmed = try await backend.signUp(
                email: "ada@example.com",
                password: "another good phrase",
                upgrading: nil
            )
            guard case .confirmationRequired(let other) = confirmed else {
                Issue.record("expected a confirmation, got \(confirmed)")
                return
            }
            #expect(other.id != pending.id && other.email == "ada@example.com")
            #expect(try await world.codeCount(to: "ada@example.com", settled: true) == 2)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aWrongPasswordAndAnUnknownAddressGetTheSameAnswer(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            _ = try await world.backend.signUp(email: "ada@example.com", password: contractPassword, upgrading: nil)
            let wrongPassword = await expectFailure(.invalidCredentials) {
                try await world.backend.signIn(email: "ada@example.com", password: "not the password")
            }
            let unknown = await expectFailure(.invalidCredentials) {
                try await world.backend.signIn(email: "nobody@example.com", password: contractPassword)
            }
            #expect(wrongPassword != nil && wrongPassword == unknown, "no account enumeration")
        }
    }

    @Test(arguments: BackendKind.underTest)
    func passwordsAndAddressesOutsideTheRulesAreRefused(_ kind: BackendKind) async throws {
        try await kind.run { world in
            let backend = world.backend
            await expectFailure(.weakPassword, "too short") {
                try await backend.signUp(email: "ada@example.com", password: "short", upgrading: nil)
            }
            await expectFailure(.weakPassword, "beyond bcrypt's 72 bytes") {
                try await backend.signUp(
                    email: "ada@example.com",
                    password: String(repeating: "é", count: 37),
                    upgrading: nil
                )
            }
            await expectFailure(.weakPassword, "the address itself") {
                try await backend.signUp(email: "adalovelace@example.com", password: "AdaLovelace", upgrading: nil)
            }
            await expectFailure(.validationFailed) {
                try await backend.signUp(email: "not-an-address", password: contractPassword, upgrading: nil)
            }
        }
    }
}
