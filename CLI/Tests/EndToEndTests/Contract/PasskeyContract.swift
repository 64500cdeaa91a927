import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// Passkeys, with `SoftwarePasskeyAuthenticator` signing: the same rules of `InMemoryAuthBackend`
/// and the server (expiry needs the server's clock: `PasskeyTests` and `passkeys.py` there, the
/// in-memory backend's own tests here).
@Suite("Contract: passkeys", .serialized)
struct PasskeyContract {
    static let on = ContractSettings(autoconfirm: true, passkeys: true)

    static func passkeys(_ world: any ContractWorld) throws -> any PasskeyBackend {
        try #require(world.backend as? any PasskeyBackend)
    }

    /// A guest made permanent by a passkey of `authenticator`.
    static func upgradedGuest(
        _ backend: any PasskeyBackend,
        _ authenticator: SoftwarePasskeyAuthenticator
    ) async throws -> (Session, Passkey) {
        let guest = try await backend.signInAnonymously()
        let request = try await backend.passkeyRegistrationRequest(for: guest, nonce: nil)
        let passkey = try await backend.registerPasskey(
            try authenticator.register(request),
            for: request,
            name: nil,
            session: guest
        )
        return (try await backend.refresh(guest), passkey)
    }

    static func signIn(
        _ backend: any PasskeyBackend,
        _ authenticator: SoftwarePasskeyAuthenticator
    ) async throws
        -> Session
    {
        let request = try await backend.passkeyAssertionRequest()
        return try await backend.signIn(with: try authenticator.signIn(request), for: request)
    }

    @Test(arguments: BackendKind.underTest)
    func passkeysAreOffWithoutAnRPID(_ kind: BackendKind) async throws {
        try await kind.run { world in
            let backend = try Self.passkeys(world)
            await expectFailure(.passkeyDisabled) { try await backend.passkeyAssertionRequest() }
            let guest = try await backend.signInAnonymously()
            await expectFailure(.passkeyDisabled) {
                try await backend.passkeyRegistrationRequest(for: guest, nonce: nil)
            }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aGuestBecomesPermanentInPlaceAndSignsInWithThePasskey(_ kind: BackendKind) async throws {
        try await kind.run(Self.on) { world in
            let backend = try Self.passkeys(world)
            let authenticator = SoftwarePasskeyAuthenticator()
            let guest = try await backend.signInAnonymously()
            let request = try await backend.passkeyRegistrationRequest(for: guest, nonce: nil)
            #expect(request.relyingPartyID == "example.com")
            #expect(request.userID == Data(guest.user.id.utf8))
            #expect(request.excludedCredentialIDs.isEmpty)
            let passkey = try await backend.registerPasskey(
                try authenticator.register(request),
                for: request,
                name: " Ada's iPhone ",
                session: guest
            )
            #expect(passkey.name == "Ada's iPhone")
            let upgraded = try await backend.refresh(guest)
            #expect(upgraded.user.id == guest.user.id && !upgraded.user.isAnonymous)
            let current = try await backend.sessions(for: upgraded).first { $0.isCurrent }
            #expect(current?.methods.contains("passkey") == true, "the guest's session says how it became permanent")

            let signedIn = try await Self.signIn(backend, authenticator)
            #expect(signedIn.user.id == guest.user.id && !signedIn.user.isAnonymous)
            let session = try await backend.sessions(for: signedIn).first { $0.isCurrent }
            #expect(session?.methods == ["passkey"])
            let listed = try await backend.passkeys(for: signedIn)
            #expect(listed.map(\.id) == [passkey.id])
            #expect(listed.first?.lastUsedAt != nil)
            let next = try await backend.passkeyRegistrationRequest(for: signedIn, nonce: nil)
            #expect(next.excludedCredentialIDs.count == 1, "the authenticator is told not to make a second one")
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anAttackersCredentialsAreRefusedWithStableCodes(_ kind: BackendKind) async throws {
        try await kind.run(Self.on) { world in
            let backend = try Self.passkeys(world)
            let authenticator = SoftwarePasskeyAuthenticator()
            _ = try await Self.upgradedGuest(backend, authenticator)

            let request = try await backend.passkeyAssertionRequest()
            let credential = try authenticator.signIn(request)
            _ = try await backend.signIn(with: credential, for: request)
            await expectFailure(.webAuthnChallengeNotFound, "a replayed challenge") {
                try await backend.signIn(with: credential, for: request)
            }

            let tamperedRequest = try await backend.passkeyAssertionRequest()
            var tampered = try authenticator.signIn(tamperedRequest)
            tampered.signature[tampered.signature.count / 2] ^= 0x01
            await expectFailure(.webAuthnVerificationFailed, "a tampered signature") {
                try await backend.signIn(with: tampered, for: tamperedRequest)
            }
            await expectFailure(.webAuthnChallengeNotFound, "a failed attempt used the challenge up") {
                try await backend.signIn(with: try authenticator.signIn(tamperedRequest), for: tamperedRequest)
            }

            let stranger = try await backend.passkeyAssertionRequest()
            var foreign = try authenticator.signIn(stranger)
            foreign.userHandle = Data(UUID().uuidString.lowercased().utf8)
            await expectFailure(.webAuthnVerificationFailed, "another user's handle") {
                try await backend.signIn(with: foreign, for: stranger)
            }

            // A device that reports no user verification.
            let unverifiedAuthenticator = SoftwarePasskeyAuthenticator(verifiesUser: false)
            let guest = try await backend.signInAnonymously()
            let registration = try await backend.passkeyRegistrationRequest(for: guest, nonce: nil)
            await expectFailure(.webAuthnVerificationFailed, "a registration without user verification") {
                try await backend.registerPasskey(
                    try unverifiedAuthenticator.register(registration),
                    for: registration,
                    name: nil,
                    session: guest
                )
            }
            #expect(try await backend.user(for: guest).isAnonymous, "a refused registration leaves the guest a guest")

            let elsewhere = try await backend.passkeyRegistrationRequest(for: guest, nonce: nil)
            await expectFailure(.webAuthnVerificationFailed, "another origin") {
                try await backend.registerPasskey(
                    try SoftwarePasskeyAuthenticator(origin: "https://evil.example").register(elsewhere),
                    for: elsewhere,
                    name: nil,
                    session: guest
                )
            }
            var otherRP = try await backend.passkeyRegistrationRequest(for: guest, nonce: nil)
            otherRP.relyingPartyID = "evil.example"
            await expectFailure(.webAuthnVerificationFailed, "another RP id") {
                try await backend.registerPasskey(
                    try SoftwarePasskeyAuthenticator(origin: "https://example.com").register(otherRP),
                    for: otherRP,
                    name: nil,
                    session: guest
                )
            }

            let mallory = try await backend.signInAnonymously()
            let victims = try await backend.passkeyRegistrationRequest(for: guest, nonce: nil)
            await expectFailure(.webAuthnChallengeNotFound, "someone else's challenge") {
                try await backend.registerPasskey(
                    try SoftwarePasskeyAuthenticator().register(victims),
                    for: victims,
                    name: nil,
                    session: mallory
                )
            }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aClonedAuthenticatorIsRefusedAndSyncedPasskeysSignInAgain(_ kind: BackendKind) async throws {
        try await kind.run(Self.on) { world in
            let backend = try Self.passkeys(world)
            let original = SoftwarePasskeyAuthenticator(countsSignatures: true)
            let (upgraded, _) = try await Self.upgradedGuest(backend, original)
            let clone = original.clone()
            #expect(try await Self.signIn(backend, original).user.id == upgraded.user.id)
            await expectFailure(.webAuthnVerificationFailed, "the clone's counter did not grow") {
                try await Self.signIn(backend, clone)
            }
            #expect(try await Self.signIn(backend, original).user.id == upgraded.user.id, "the original goes on")

            // Synced passkeys always send 0: signing in again is no regression.
            let synced = SoftwarePasskeyAuthenticator()
            let (syncedUser, _) = try await Self.upgradedGuest(backend, synced)
            for _ in 0..<2 { #expect(try await Self.signIn(backend, synced.clone()).user.id == syncedUser.user.id) }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func tenPasskeysAtMostAndNeverTheLastWayToSignIn(_ kind: BackendKind) async throws {
        try await kind.run(Self.on) { world in
            let backend = try Self.passkeys(world)
            let authenticator = SoftwarePasskeyAuthenticator()
            let (session, first) = try await Self.upgradedGuest(backend, authenticator)
            await expectFailure(.singleIdentityNotDeletable, "the only passkey of an account without e-mail") {
                try await backend.removePasskey(first.id, session: session)
            }
            for _ in 1..<10 {
                let request = try await backend.passkeyRegistrationRequest(for: session, nonce: nil)
                _ = try await backend.registerPasskey(
                    try authenticator.register(request),
                    for: request,
                    name: nil,
                    session: session
                )
            }
            await expectFailure(.tooManyPasskeys) {
                try await backend.passkeyRegistrationRequest(for: session, nonce: nil)
            }
            #expect(try await backend.passkeys(for: session).count == 10)

            let renamed = try await backend.renamePasskey(first.id, to: "Old phone", session: session)
            #expect(renamed.name == "Old phone")
            await expectFailure(.validationFailed) {
                try await backend.renamePasskey(first.id, to: "  ", session: session)
            }
            let mallory = try await backend.signInAnonymously()
            await expectFailure(.webAuthnCredentialNotFound, "someone else's passkey") {
                try await backend.removePasskey(first.id, session: mallory)
            }
            await expectFailure(.webAuthnCredentialNotFound, "someone else's passkey") {
                try await backend.renamePasskey(first.id, to: "mine", session: mallory)
            }
            let newest = try #require(try await backend.passkeys(for: session).last)
            try await backend.removePasskey(newest.id, session: session)
            #expect(try await backend.passkeys(for: session).count == 9)
            // The authenticator signs with its newest passkey, which is gone.
            await expectFailure(.webAuthnCredentialNotFound) { try await Self.signIn(backend, authenticator) }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anEmailAccountAddsAPasskeyRightAfterSigningInAndMayRemoveIt(_ kind: BackendKind) async throws {
        try await kind.run(Self.on) { world in
            let backend = try Self.passkeys(world)
            let outcome = try await backend.signUp(email: "ada@example.com", password: contractPassword, upgrading: nil)
            guard case .signedIn(let session) = outcome else {
                Issue.record("expected a session, got \(outcome)")
                return
            }
            let authenticator = SoftwarePasskeyAuthenticator()
            let request = try await backend.passkeyRegistrationRequest(for: session, nonce: nil)
            #expect(request.userName == "ada@example.com")
            let passkey = try await backend.registerPasskey(
                try authenticator.register(request),
                for: request,
                name: nil,
                session: session
            )
            let signedIn = try await Self.signIn(backend, authenticator)
            #expect(signedIn.user.id == session.user.id && signedIn.user.email == "ada@example.com")
            try await backend.removePasskey(passkey.id, session: signedIn)
            #expect(try await backend.passkeys(for: signedIn).isEmpty, "the password still signs Ada in")
        }
    }
}
