import Foundation
import Gatehouse
import GatehouseCore
import GatehouseTesting
import Testing

/// The passkey ceremonies as plain values: the server's options read into requests, and the
/// software authenticator's credentials in the JSON form the server reads.
@Suite("Passkeys as plain values")
struct PasskeyPlainValueTests {
    static let creation = PasskeyOptions(
        challengeID: "6f0c9c1e-1111-4222-8333-444455556666",
        options: [
            "rp": ["id": "example.com", "name": "Example"],
            "user": ["id": "YWJj", "name": "ada@example.com", "displayName": "ada@example.com"],
            "challenge": "AAECAwQF-_8",
            "excludeCredentials": [["type": "public-key", "id": "AQI"]],
        ],
        expiresAt: 1_800_000_300
    )

    @Test func readsCreationOptions() throws {
        let request = try PasskeyRegistrationRequest(Self.creation)
        #expect(request.relyingPartyID == "example.com")
        #expect(request.relyingPartyName == "Example")
        #expect(request.userID == Data("abc".utf8))
        #expect(request.challenge == Data([0, 1, 2, 3, 4, 5, 0xFB, 0xFF]))
        #expect(request.excludedCredentialIDs == [Data([1, 2])])
        #expect(request.expiresAt == Date(timeIntervalSince1970: 1_800_000_300))
    }

    @Test func refusesIncompleteOptions() {
        var broken = Self.creation
        broken.options = ["rp": ["id": "example.com"], "challenge": "!!"]
        #expect(throws: AuthError.self) { try PasskeyRegistrationRequest(broken) }
        #expect(throws: AuthError.self) { try PasskeyAssertionRequest(broken) }
    }

    @Test func theSoftwareAuthenticatorAnswersForItsRPOnly() throws {
        let authenticator = SoftwarePasskeyAuthenticator()
        let request = try PasskeyRegistrationRequest(Self.creation)
        let created = try authenticator.register(request)
        #expect(created.credentialID.count == 32)
        let clientData = try #require(
            try JSONSerialization.jsonObject(with: created.clientDataJSON) as? [String: Any]
        )
        #expect(clientData["type"] as? String == "webauthn.create")
        #expect(clientData["origin"] as? String == "https://example.com")
        #expect(clientData["challenge"] as? String == "AAECAwQF-_8")
        let json = created.json.objectValue
        #expect(json?["id"] == .string(Base64URL.string(created.credentialID)))
        #expect(json?["type"] == "public-key")

        let assertion = PasskeyAssertionRequest(
            challengeID: "x",
            relyingPartyID: "example.com",
            challenge: Data([9]),
            expiresAt: Date()
        )
        let signed = try authenticator.signIn(assertion)
        #expect(signed.credentialID == created.credentialID)
        #expect(signed.userHandle == Data("abc".utf8))
        #expect(signed.authenticatorData.count == 37)
        var elsewhere = assertion
        elsewhere.relyingPartyID = "other.example"
        #expect(throws: AuthError.self) { try authenticator.signIn(elsewhere) }
    }

    @Test @MainActor func aBackendWithoutPasskeysSaysSo() async throws {
        // A backend that is not a `PasskeyBackend` (this one wraps the in-memory backend).
        let auth = AuthService(backend: GatedBackend(InMemoryAuthBackend()), store: InMemorySessionStore())
        await auth.restoreSession()
        let error = await #expect(throws: AuthError.self) { _ = try await auth.passkeys.signInRequest() }
        #expect(error?.code == .notSupported)
    }

    @Test func transportsAreSentOnlyAsTheAuthenticatorReportsThem() {
        let platform = PasskeyRegistrationCredential(credentialID: Data([1]), clientDataJSON: Data([2]), attestationObject: Data([3]))
        #expect(platform.transports.isEmpty, "Apple's platform authenticator reports none: none are guessed")
        #expect(platform.json.objectValue?["response"]?.objectValue?["transports"] == nil)

        let key = PasskeyRegistrationCredential(
            credentialID: Data([1]),
            clientDataJSON: Data([2]),
            attestationObject: Data([3]),
            transports: ["usb", "nfc"]
        )
        #expect(key.json.objectValue?["response"]?.objectValue?["transports"] == .array([.string("usb"), .string("nfc")]))
    }
}
