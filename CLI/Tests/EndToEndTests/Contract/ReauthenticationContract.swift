import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// The reauthentication code of every sensitive action (`docs/security.md`, "Sensitive
/// actions"): once the sign-in is more than 10 minutes old, the action without a code answers
/// `reauthentication_needed`, with a wrong code `reauthentication_not_valid`, and with the code
/// `GET /reauthenticate` mailed it succeeds; on `InMemoryAuthBackend` and on the server, each
/// proof sent as `GoTrueBackend` sends it.
@Suite("Contract: reauthentication", .serialized)
struct ReauthenticationContract {
    static let email = "ada@example.com"

    /// One action, set up while the sign-in was recent.
    struct Setup {
        /// The session that performs the action.
        var session: Session
        /// The action, with a code or none.
        var perform: (String?) async throws -> Void
        /// Whether it took effect.
        var happened: () async throws -> Bool
    }

    static func settings(for action: SensitiveAction) -> ContractSettings {
        switch action {
        case .linkIdentity: ContractSettings(autoconfirm: true, apple: true)
        case .registerPasskey, .renamePasskey, .removePasskey: ContractSettings(autoconfirm: true, passkeys: true)
        default: ContractSettings(autoconfirm: true)
        }
    }

    @Test(arguments: BackendKind.underTest, SensitiveAction.allCases)
    func anOldSignInNeedsTheMailedCodeAndAWrongOneIsRefused(_ kind: BackendKind, _ action: SensitiveAction) async throws
    {
        try await kind.run(Self.settings(for: action)) { world in
            let setup = try await Self.setUp(action, in: world)
            try await world.ageSignIns()

            await expectFailure(.reauthenticationNeeded, "\(action.rawValue) without a code") {
                try await setup.perform(nil)
            }
            #expect(try await !setup.happened(), "\(action.rawValue) was refused")

            let mailed = try await world.codeCount(to: Self.email)
            try await world.backend.reauthenticate(for: setup.session)
            let code = try await world.code(to: Self.email, after: mailed)
            await expectFailure(.reauthenticationNotValid, "\(action.rawValue) with a wrong code") {
                try await setup.perform(wrong(code))
            }
            #expect(try await !setup.happened(), "\(action.rawValue) was refused")

            try await setup.perform(code)
            #expect(try await setup.happened(), "\(action.rawValue) with the mailed code")
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aCodeWorksOnceAndIsCheckedEvenAfterARecentSignIn(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let session = try await Self.signUp(world)
            try await world.backend.reauthenticate(for: session)
            let code = try await world.code(to: Self.email)
            await expectFailure(.overEmailSendRateLimit, "one code a minute") {
                try await world.backend.reauthenticate(for: session)
            }
            await expectFailure(.reauthenticationNotValid, "a recent sign-in does not excuse a wrong code") {
                try await world.backend.enrollTOTP(friendlyName: "one", nonce: wrong(code), for: session)
            }
            _ = try await world.backend.enrollTOTP(friendlyName: "one", nonce: code, for: session)
            await expectFailure(.reauthenticationNotValid, "spent") {
                try await world.backend.enrollTOTP(friendlyName: "two", nonce: code, for: session)
            }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aLateGlobalSignOutEndsTheCallersSessionAndKeepsTheOthers(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let session = try await Self.signUp(world)
            let other = try await world.backend.signIn(email: Self.email, password: contractPassword)
            try await world.ageSignIns()
            await expectFailure(.reauthenticationNeeded) {
                try await world.backend.signOut(session, scope: .global, nonce: nil)
            }
            await expectFailure(.sessionNotFound, "the caller's own session ended") {
                try await world.backend.user(for: session)
            }
            #expect(try await world.backend.user(for: other).id == other.user.id, "the other device stays")

            let mailed = try await world.codeCount(to: Self.email)
            try await world.backend.reauthenticate(for: other)
            let code = try await world.code(to: Self.email, after: mailed)
            try await world.backend.signOut(other, scope: .global, nonce: code)
            await expectFailure(.refreshTokenNotFound) { try await world.backend.refresh(other) }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func theServiceAsksForTheCodeAndRetries(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in try await Self.askAndRetry(world) }
    }

    /// `AuthService.withReauthentication` over `world`: the prompt names the address, the code
    /// the backend mailed goes through.
    @MainActor
    static func askAndRetry(_ world: any ContractWorld) async throws {
        let auth = AuthService(backend: world.backend, store: InMemorySessionStore())
        _ = try await auth.signUp(email: email, password: contractPassword)
        try await world.ageSignIns()
        let mailed = try await world.codeCount(to: email)
        var asked: [ReauthenticationPrompt] = []
        _ = try await auth.withReauthentication(.enrolFactor) { prompt in
            asked.append(prompt)
            return try await world.code(to: email, after: mailed)
        } perform: { nonce in
            try await auth.mfa.enrollTOTP(friendlyName: "phone", nonce: nonce)
        }
        #expect(asked.map(\.email) == [email])
        #expect(auth.mfa.factors.map(\.friendlyName) == ["phone"])
    }

    // MARK: - Setting up

    static func signUp(_ world: any ContractWorld) async throws -> Session {
        let outcome = try await world.backend.signUp(email: email, password: contractPassword, upgrading: nil)
        guard case .signedIn(let session) = outcome else { throw ContractFailure.unexpected("\(outcome)") }
        return session
    }

    /// Signs up and prepares `action` (its passkey, factor or other device) while the sign-in is
    /// recent.
    static func setUp(_ action: SensitiveAction, in world: any ContractWorld) async throws -> Setup {
        let backend = world.backend
        var session = try await signUp(world)
        switch action {
        case .linkIdentity:
            let nonce = SignInNonce().raw
            let token = try await world.appleIDToken(subject: "apple-ada", email: "ada.apple@example.com", nonce: nonce)
            let credential = IDTokenCredential(provider: .apple, idToken: token, nonce: nonce)
            let caller = session
            return Setup(
                session: session,
                perform: { _ = try await backend.linkIdentity(credential, nonce: $0, for: caller) },
                happened: {
                    try await backend.user(for: caller).identities.contains { $0.provider == "apple" }
                }
            )
        case .registerPasskey:
            let passkeys = try PasskeyContract.passkeys(world)
            let caller = session
            let issued = Counter()
            return Setup(
                session: session,
                perform: {
                    _ = try await passkeys.passkeyRegistrationRequest(for: caller, nonce: $0)
                    await issued.add()
                },
                happened: { await issued.value == 1 }
            )
        case .renamePasskey, .removePasskey:
            let passkeys = try PasskeyContract.passkeys(world)
            let request = try await passkeys.passkeyRegistrationRequest(for: session, nonce: nil)
            let passkey = try await passkeys.registerPasskey(
                try SoftwarePasskeyAuthenticator().register(request),
                for: request,
                name: "Phone",
                session: session
            )
            let caller = session
            if action == .renamePasskey {
                return Setup(
                    session: session,
                    perform: {
                        _ = try await passkeys.renamePasskey(passkey.id, to: "Laptop", nonce: $0, session: caller)
                    },
                    happened: { try await passkeys.passkeys(for: caller).map(\.name) == ["Laptop"] }
                )
            }
            return Setup(
                session: session,
                perform: { try await passkeys.removePasskey(passkey.id, nonce: $0, session: caller) },
                happened: { try await passkeys.passkeys(for: caller).isEmpty }
            )
        case .enrolFactor:
            let caller = session
            return Setup(
                session: session,
                perform: { _ = try await backend.enrollTOTP(friendlyName: "phone", nonce: $0, for: caller) },
                happened: { try await !backend.user(for: caller).factors.isEmpty }
            )
        case .unenrolFactor:
            let enrolment = try await backend.enrollTOTP(friendlyName: "phone", for: session)
            let challenge = try await backend.challengeFactor(enrolment.factorID, for: session)
            session = try await backend.verifyFactor(
                enrolment.factorID,
                challengeID: challenge.id,
                code: AuthenticatorApp(base32: enrolment.secret).code(at: world.now()),
                for: session
            )
            let caller = session
            return Setup(
                session: session,
                perform: { try await backend.unenrollFactor(enrolment.factorID, nonce: $0, for: caller) },
                happened: { try await backend.user(for: caller).factors.isEmpty }
            )
        case .changePassword:
            let caller = session
            return Setup(
                session: session,
                perform: {
                    _ = try await backend.updateUser(
                        UserChanges(password: "a brand new phrase", nonce: $0),
                        for: caller
                    )
                },
                happened: { (try? await backend.signIn(email: email, password: "a brand new phrase")) != nil }
            )
        case .changeEmail:
            let caller = session
            return Setup(
                session: session,
                perform: {
                    _ = try await backend.updateUser(UserChanges(email: "ada@new.example", nonce: $0), for: caller)
                },
                happened: { try await backend.user(for: caller).newEmail == "ada@new.example" }
            )
        case .endOtherSession, .endOtherSessions:
            let other = try await backend.signIn(email: email, password: contractPassword)
            let otherID = try #require(try await backend.sessions(for: other).first { $0.isCurrent }?.id)
            let caller = session
            let perform: (String?) async throws -> Void
            if action == .endOtherSession {
                perform = { _ = try await backend.endSession(id: otherID, nonce: $0, for: caller) }
            } else {
                perform = { try await backend.signOut(caller, scope: .others, nonce: $0) }
            }
            return Setup(session: session, perform: perform, happened: { (try? await backend.user(for: other)) == nil })
        case .deleteAccount:
            let caller = session
            return Setup(
                session: session,
                perform: { try await backend.deleteAccount(caller, nonce: $0) },
                happened: { (try? await backend.user(for: caller)) == nil }
            )
        }
    }
}

/// Counts calls that completed.
private actor Counter {
    private(set) var value = 0

    func add() { value += 1 }
}
