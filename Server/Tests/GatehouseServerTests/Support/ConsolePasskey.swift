import Foundation
import Gatehouse
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import GatehouseTesting
import HTTPTypes

@testable import GatehouseServer
@testable import GatehouseWebAuthn

/// An operator's passkey in the console tests, held by the SDK's software authenticator: it is
/// registered through the API as users register theirs (or, to play a hostile or broken
/// authenticator the API would refuse to register, written to the database as it is), and
/// asserted on the console's sign-in page as `/console/passkey.js` asserts it.
struct ConsolePasskey {
    /// The RP id and origin of the console tests' server.
    static let relyingPartyID = "example.com"

    static func enabled(_ configuration: inout ServerConfiguration) {
        configuration.webAuthn = WebAuthnSettings(rpID: relyingPartyID, origins: ["https://\(relyingPartyID)"])
    }

    let authenticator: SoftwarePasskeyAuthenticator

    /// Registers a passkey through `POST /passkeys/registration/options` and `/verify` with the
    /// access token of a session that signed in just now.
    static func register(
        bearer: String?,
        _ client: Client,
        authenticator: SoftwarePasskeyAuthenticator = SoftwarePasskeyAuthenticator()
    ) async throws -> ConsolePasskey {
        let options = try await client.post("/passkeys/registration/options", bearer: bearer)
        guard options.status == .ok else { throw Failure("registration options: \(options.status) \(options.text)") }
        let reply = try JSONDecoder().decode(PasskeyOptions.self, from: Data(options.text.utf8))
        let credential = try authenticator.register(try PasskeyRegistrationRequest(reply))
        let body = try Self.json(
            PasskeyVerifyRequest(challengeID: reply.challengeID, credential: Self.value(credential))
        )
        let verified = try await client.post("/passkeys/registration/verify", body, bearer: bearer)
        guard verified.status == .ok else { throw Failure("registration: \(verified.status) \(verified.text)") }
        return ConsolePasskey(authenticator: authenticator)
    }

    /// Writes a passkey for `user` to the database as `authenticator` creates it for `rpID`, with
    /// none of the registration's checks (an authenticator without user verification, another
    /// site's RP id or origin): what a sign-in must then refuse. Without `storage`, the passkey
    /// stays on the authenticator only (one the server never registered).
    static func store(
        _ authenticator: SoftwarePasskeyAuthenticator,
        rpID: String = relyingPartyID,
        for user: UUID,
        storage: (any AuthStorage)?
    ) async throws -> ConsolePasskey {
        let request = PasskeyRegistrationRequest(
            challengeID: UUID().uuidString,
            relyingPartyID: rpID,
            relyingPartyName: "Gatehouse",
            userID: Data(user.key.utf8),
            userName: "operator",
            challenge: Data(count: 32),
            excludedCredentialIDs: [],
            expiresAt: Date()
        )
        let credential = try authenticator.register(request)
        let attestation = try AttestationObject(Array(credential.attestationObject))
        guard let attested = attestation.authenticatorData.attestedCredential else { throw Failure("no credential") }
        let now = Date()
        let record = PasskeyRecord(
            userID: user,
            credentialID: Base64URL.encode(attested.credentialID),
            publicKey: Base64URL.encode(attested.publicKeyBytes),
            algorithm: -7,
            attestationType: "none",
            aaguid: "00000000-0000-0000-0000-000000000000",
            signCount: 0,
            transports: ["internal"],
            backupEligible: true,
            backedUp: true,
            friendlyName: "stored",
            createdAt: now,
            updatedAt: now
        )
        try await storage?.transaction { tx in try await tx.insertPasskey(record) }
        return ConsolePasskey(authenticator: authenticator)
    }

    /// The console's passkey options, fetched as the script fetches them: a form post carrying
    /// the sign-in page's CSRF token (`csrf`; the page's own when `nil`).
    static func options(_ visitor: ConsoleVisitor, csrf: String? = nil) async throws -> (csrf: String, reply: Reply) {
        let page = try await visitor.get("/console/sign-in")
        let token = csrf ?? ConsoleVisitor.csrf(in: page.text) ?? ""
        return (token, try await visitor.post("/console/sign-in/passkey/options", [("csrf", token)]))
    }

    /// An assertion of the console's options, as the script puts it in the form: the challenge
    /// id and the credential's JSON. `rpID` plays an authenticator asked for another site's RP id.
    func assertion(_ options: Reply, rpID: String? = nil) throws -> (challengeID: String, credential: String) {
        let reply = try JSONDecoder().decode(PasskeyOptions.self, from: Data(options.text.utf8))
        var request = try PasskeyAssertionRequest(reply)
        if let rpID { request.relyingPartyID = rpID }
        let credential = try authenticator.signIn(request)
        return (reply.challengeID, try Self.json(credential))
    }

    /// Why the API's own passkey sign-in (`POST /passkeys/authentication/options` and `/verify`)
    /// refuses this passkey's assertion: its `msg`, or `nil` when it signs in. It names the check
    /// a console refusal (which tells nothing) came from.
    func apiRefusal(_ client: Client, rpID: String? = nil) async throws -> String? {
        let options = try await client.post("/passkeys/authentication/options")
        let (challengeID, credential) = try assertion(options, rpID: rpID)
        let verified = try await client.post(
            "/passkeys/authentication/verify",
            #"{"challenge_id":"\#(challengeID)","credential":\#(credential)}"#
        )
        return verified.status == .ok ? nil : verified.string("msg") ?? verified.text
    }

    /// Signs in on the console with this passkey and the authenticator `code`: the page, the
    /// options, the assertion, the form.
    @discardableResult
    func signIn(_ visitor: ConsoleVisitor, code: String = "", next: String? = nil) async throws -> Reply {
        let (csrf, options) = try await Self.options(visitor)
        guard options.status == .ok else { return options }
        let (challengeID, credential) = try assertion(options)
        var fields = [("csrf", csrf), ("challenge_id", challengeID), ("credential", credential), ("code", code)]
        if let next { fields.append(("next", next)) }
        return try await visitor.post("/console/sign-in/passkey", fields)
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func value(_ value: some Encodable) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
