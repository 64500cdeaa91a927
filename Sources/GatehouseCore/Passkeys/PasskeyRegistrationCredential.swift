public import Foundation

/// A new passkey as an authenticator returns it (WebAuthn `AuthenticatorAttestationResponse`),
/// and its JSON form (`RegistrationResponseJSON`, the `credential` of
/// `POST /passkeys/registration/verify`):
///
/// ```json
/// {"id":"…","rawId":"…","type":"public-key",
///  "response":{"attestationObject":"…","clientDataJSON":"…","transports":["internal","hybrid"]}}
/// ```
///
/// Reading it checks the shape only: `type` is `public-key`, `rawId` (when present) is `id`,
/// the binary fields are base64url in their one canonical spelling; the server verifies the
/// rest (WebAuthn §7.1).
public struct PasskeyRegistrationCredential: PasskeyJSON {
    public static let jsonName = "credential"

    /// The new credential's id (WebAuthn `rawId`).
    public var credentialID: Data
    /// The client data the authenticator signed over: the challenge, the origin and the ceremony's type, as JSON bytes.
    public var clientDataJSON: Data
    /// The attestation object (CBOR): the authenticator data with the new public key, and its attestation.
    public var attestationObject: Data
    /// How the authenticator can be reached (`internal`, `hybrid`, …), as the authenticator
    /// reports it; empty when it reports none (Apple's platform authenticator does not), and
    /// then left out of the JSON rather than guessed.
    public var transports: [String]

    /// Creates the credential from the authenticator's answer.
    public init(credentialID: Data, clientDataJSON: Data, attestationObject: Data, transports: [String] = []) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }

    enum ResponseKeys: String, CodingKey {
        case clientDataJSON, attestationObject, transports
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: PasskeyCredentialCoding.Keys.self)
        credentialID = try PasskeyCredentialCoding.decodeID(c)
        let response = try c.nestedContainer(keyedBy: ResponseKeys.self, forKey: .response)
        clientDataJSON = try response.decodeBase64URL(forKey: .clientDataJSON, .canonical)
        attestationObject = try response.decodeBase64URL(forKey: .attestationObject, .canonical)
        transports = try response.decodeIfPresent([String].self, forKey: .transports) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: PasskeyCredentialCoding.Keys.self)
        try PasskeyCredentialCoding.encodeID(credentialID, &c)
        var response = c.nestedContainer(keyedBy: ResponseKeys.self, forKey: .response)
        try response.encodeBase64URL(clientDataJSON, forKey: .clientDataJSON)
        try response.encodeBase64URL(attestationObject, forKey: .attestationObject)
        if !transports.isEmpty { try response.encode(transports, forKey: .transports) }
    }
}
