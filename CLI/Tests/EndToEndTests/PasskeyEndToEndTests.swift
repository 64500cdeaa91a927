import Foundation
import Gatehouse
import GatehouseGoTrue
import GatehouseTesting
import Testing

/// The SDK's passkey flows through `GoTrueBackend` against the real server process, with the
/// Swift software authenticator of GatehouseTesting.
@MainActor
@Suite(
    "SDK passkeys against the real server",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct PasskeyEndToEndTests {
    func service(_ server: EndToEndServer, file: String) -> AuthService {
        AuthService(
            backend: GoTrueBackend(url: server.url),
            store: FileSessionStore(fileURL: server.directory.appendingPathComponent("client/\(file).json"))
        )
    }

    @Test func aGuestBecomesAnAccountWithOnePasskeyAndSignsInWithIt() async throws {
        let server = try await EndToEndServer(environment: ["GATEHOUSE_WEBAUTHN_RP_ID": "example.com"])
        defer { server.stop() }
        let authenticator = SoftwarePasskeyAuthenticator()
        let auth = service(server, file: "guest")
        await auth.restoreSession()
        let guest = try await auth.signInAnonymously()
        #expect(guest.isAnonymous)

        let request = try await auth.passkeys.registrationRequest()
        #expect(request.relyingPartyID == "example.com")
        #expect(request.userID == Data(guest.id.utf8))
        let passkey = try await auth.passkeys.register(
            try authenticator.register(request),
            for: request,
            name: "Test phone"
        )
        #expect(passkey.name == "Test phone")
        #expect(auth.currentUser?.id == guest.id)
        #expect(auth.currentUser?.isAnonymous == false)

        await auth.signOut()
        #expect(auth.currentUser == nil)
        let signIn = try await auth.passkeys.signInRequest()
        let user = try await auth.passkeys.signIn(try authenticator.signIn(signIn), for: signIn)
        #expect(user.id == guest.id)
        #expect(user.isAnonymous == false)

        let listed = try await auth.passkeys.list()
        #expect(listed.map(\.id) == [passkey.id])
        #expect(listed.first?.lastUsedAt != nil)
        let renamed = try await auth.passkeys.rename(passkey.id, to: "Old phone")
        #expect(renamed.name == "Old phone")
        await #expect(throws: AuthError.self) { try await auth.passkeys.remove(passkey.id) }
        #expect(try await auth.passkeys.list().count == 1)

        // A second passkey, then the first may go.
        let second = try await auth.passkeys.registrationRequest()
        #expect(second.excludedCredentialIDs.count == 1)
        try await auth.passkeys.register(try SoftwarePasskeyAuthenticator().register(second), for: second)
        try await auth.passkeys.remove(passkey.id)
        #expect(try await auth.passkeys.list().count == 1)
        let again = try await auth.passkeys.signInRequest()
        do {
            try await auth.passkeys.signIn(try authenticator.signIn(again), for: again)
            Issue.record("a removed passkey signed in")
        } catch let error as AuthError {
            #expect(error.code == .webAuthnCredentialNotFound)
        }
    }

    @Test func aWrongOriginAndAReplayedChallengeAreRefusedWithTheirCodes() async throws {
        let server = try await EndToEndServer(environment: ["GATEHOUSE_WEBAUTHN_RP_ID": "example.com"])
        defer { server.stop() }
        let auth = service(server, file: "origin")
        await auth.restoreSession()
        try await auth.signInAnonymously()
        let request = try await auth.passkeys.registrationRequest()
        let phishing = SoftwarePasskeyAuthenticator(origin: "https://example.com.evil.test")
        do {
            try await auth.passkeys.register(try phishing.register(request), for: request)
            Issue.record("a credential from another origin registered")
        } catch let error as AuthError {
            #expect(error.code == .webAuthnVerificationFailed)
        }
        let authenticator = SoftwarePasskeyAuthenticator(countsSignatures: true)
        let fresh = try await auth.passkeys.registrationRequest()
        try await auth.passkeys.register(try authenticator.register(fresh), for: fresh)
        let signIn = try await auth.passkeys.signInRequest()
        let credential = try authenticator.signIn(signIn)
        try await auth.passkeys.signIn(credential, for: signIn)
        do {
            try await auth.passkeys.signIn(credential, for: signIn)
            Issue.record("a challenge worked twice")
        } catch let error as AuthError {
            #expect(error.code == .webAuthnChallengeNotFound)
        }
    }

    @Test func passkeysOffAnswerPasskeyDisabled() async throws {
        let server = try await EndToEndServer()
        defer { server.stop() }
        let auth = service(server, file: "off")
        await auth.restoreSession()
        do {
            _ = try await auth.passkeys.signInRequest()
            Issue.record("options from a server without passkeys")
        } catch let error as AuthError {
            #expect(error.code == .passkeyDisabled)
        }
    }
}
