import Foundation
import Gatehouse
import Testing

/// Sign in with Apple: nonces, identities, guests and linking.
@Suite("Contract: ID tokens", .serialized)
struct IDTokenContract {
    static let apple = ContractSettings(apple: true)

    @Test(arguments: BackendKind.underTest)
    func theNonceIsRequiredMustMatchAndWorksOnce(_ kind: BackendKind) async throws {
        try await kind.run(Self.apple) { world in
            let backend = world.backend
            let nonce = SignInNonce()
            let token = try await world.appleIDToken(subject: "apple-ada", email: "ada@icloud.com", nonce: nonce.raw)
            await expectFailure(.idTokenNonceInvalid, "missing") {
                try await backend.signIn(with: IDTokenCredential(provider: .apple, idToken: token), upgrading: nil)
            }
            await expectFailure(.idTokenNonceInvalid, "wrong") {
                try await backend.signIn(with: Self.credential(token, nonce: "another"), upgrading: nil)
            }
            await expectFailure(.idTokenNonceInvalid, "the hash instead of the raw nonce") {
                try await backend.signIn(with: Self.credential(token, nonce: nonce.sha256), upgrading: nil)
            }
            let session = try await backend.signIn(with: Self.credential(token, nonce: nonce.raw), upgrading: nil)
            #expect(session.user.email == "ada@icloud.com")
            await expectFailure(.idTokenNonceInvalid, "replayed") {
                try await backend.signIn(with: Self.credential(token, nonce: nonce.raw), upgrading: nil)
            }
            let unbound = try await world.appleIDToken(subject: "apple-ada", nonce: nil)
            await expectFailure(.idTokenNonceInvalid, "a token without a nonce") {
                try await backend.signIn(with: Self.credential(unbound, nonce: "fresh"), upgrading: nil)
            }
            await expectFailure(.idTokenInvalid) {
                try await backend.signIn(with: Self.credential("not-an-id-token", nonce: "fresh"), upgrading: nil)
            }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func googleTakesTheRawNonceGoogleSignInPutsInItsTokenOrItsHashEachOnce(_ kind: BackendKind) async throws {
        try await kind.run(Self.apple) { world in
            let backend = world.backend
            let google = { (token: String, nonce: String) in
                IDTokenCredential(provider: .google, idToken: token, nonce: nonce)
            }
            let nonce = SignInNonce()
            let raw = try await world.googleIDToken(
                subject: "g-ada",
                email: "ada@gmail.com",
                nonce: nonce.raw,
                unhashed: true
            )
            await expectFailure(.idTokenNonceInvalid, "the hash sent for a token that carries the raw nonce") {
                try await backend.signIn(with: google(raw, nonce.sha256), upgrading: nil)
            }
            let session = try await backend.signIn(with: google(raw, nonce.raw), upgrading: nil)
            #expect(session.user.email == "ada@gmail.com")
            await expectFailure(.idTokenNonceInvalid, "replayed") {
                try await backend.signIn(with: google(raw, nonce.raw), upgrading: nil)
            }

            let other = SignInNonce()
            let hashed = try await world.googleIDToken(
                subject: "g-ada",
                email: "ada@gmail.com",
                nonce: other.raw,
                unhashed: false
            )
            let again = try await backend.signIn(with: google(hashed, other.raw), upgrading: nil)
            #expect(again.user.id == session.user.id)
            // The hash the token carries, sent as if it were the raw nonce, matches too (Google
            // takes the raw form): the token's claim is what is spent, so it is still a replay.
            await expectFailure(.idTokenNonceInvalid, "the token replayed with the hash it carries") {
                try await backend.signIn(with: google(hashed, other.sha256), upgrading: nil)
            }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aNewSubjectMakesAUserThatItSignsIntoAgain(_ kind: BackendKind) async throws {
        try await kind.run(Self.apple) { world in
            let first = try await signIn(world, subject: "apple-ada", email: "ada@icloud.com")
            #expect(first.user.email == "ada@icloud.com" && first.user.emailConfirmedAt != nil)
            #expect(!first.user.isAnonymous)
            // The Apple identity names the user Sign in with Apple knows (its credential-state check).
            #expect(first.user.appleUserID == "apple-ada")
            #expect(try await world.backend.user(for: first).appleUserID == "apple-ada")
            // Apple sends the address only the first time.
            let again = try await signIn(world, subject: "apple-ada", email: nil)
            #expect(again.user.id == first.user.id && again.user.email == "ada@icloud.com")
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aGuestKeepsItsIDOrMovesToTheAccountThatHasTheIdentity(_ kind: BackendKind) async throws {
        try await kind.run(Self.apple) { world in
            let guest = try await world.backend.signInAnonymously()
            let upgraded = try await signIn(world, subject: "apple-guest", email: "guest@icloud.com", upgrading: guest)
            #expect(upgraded.user.id == guest.user.id && !upgraded.user.isAnonymous)
            #expect(upgraded.user.appleUserID == "apple-guest", "the linked identity is listed")
            #expect(upgraded.user.email == "guest@icloud.com")

            let second = try await world.backend.signInAnonymously()
            let moved = try await signIn(world, subject: "apple-guest", email: nil, upgrading: second)
            #expect(moved.user.id == guest.user.id, "signed into the account that has the identity")
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aSubjectLinkedToAnotherAccountIsIdentityAlreadyExists(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true, apple: true)) { world in
            let ada = try await signUp(world, "ada@example.com")
            let bob = try await signUp(world, "bob@example.com")
            let linked = try await signIn(world, subject: "apple-ada", email: nil, upgrading: ada)
            #expect(linked.user.id == ada.user.id, "a permanent user links a new identity")
            await expectFailure(.identityAlreadyExists) {
                try await signIn(world, subject: "apple-ada", email: nil, upgrading: bob)
            }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anAddressLinksOnlyWhenTheProviderVouchesForIt(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true, apple: true)) { world in
            let ada = try await signUp(world, "ada@example.com")
            await expectFailure(.emailExists) {
                try await signIn(world, subject: "apple-ada", email: "ada@example.com", verified: false)
            }
            let linked = try await signIn(world, subject: "apple-ada", email: "ada@example.com")
            #expect(linked.user.id == ada.user.id)
            // The password still works: the address was confirmed.
            _ = try await world.backend.signIn(email: "ada@example.com", password: contractPassword)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anUnconfirmedAccountLosesItsPasswordWhenTheProviderVouchesForItsAddress(_ kind: BackendKind) async throws {
        try await kind.run(Self.apple) { world in
            let outcome = try await world.backend.signUp(
                email: "ada@example.com",
                password: contractPassword,
                upgrading: nil
            )
            guard case .confirmationRequired(let pending) = outcome else {
                Issue.record("expected a confirmation, got \(outcome)")
                return
            }
            let session = try await signIn(world, subject: "apple-ada", email: "ada@example.com")
            #expect(session.user.id == pending.id && session.user.emailConfirmedAt != nil)
            await expectFailure(.invalidCredentials, "whoever set the password never proved the address") {
                try await world.backend.signIn(email: "ada@example.com", password: contractPassword)
            }
        }
    }

    static func credential(_ token: String, nonce: String) -> IDTokenCredential {
        IDTokenCredential(provider: .apple, idToken: token, nonce: nonce)
    }

    /// Signs in with a fresh Apple token and nonce.
    private func signIn(
        _ world: any ContractWorld,
        subject: String,
        email: String?,
        verified: Bool = true,
        upgrading caller: Session? = nil
    ) async throws -> Session {
        let nonce = SignInNonce()
        let token = try await world.appleIDToken(
            subject: subject,
            email: email,
            emailVerified: verified,
            nonce: nonce.raw
        )
        return try await world.backend.signIn(with: Self.credential(token, nonce: nonce.raw), upgrading: caller)
    }

    private func signUp(_ world: any ContractWorld, _ email: String) async throws -> Session {
        let outcome = try await world.backend.signUp(email: email, password: contractPassword, upgrading: nil)
        guard case .signedIn(let session) = outcome else { throw ContractFailure.unexpected("\(outcome)") }
        return session
    }
}

/// A step whose result the rest of a test depends on went another way.
enum ContractFailure: Error {
    case unexpected(String)
}
