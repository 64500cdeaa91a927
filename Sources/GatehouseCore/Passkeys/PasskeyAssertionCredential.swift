public import Foundation

/// A passkey sign-in as an authenticator returns it (WebAuthn `AuthenticatorAssertionResponse`),
/// and its JSON form (`AuthenticationResponseJSON`, the `credential` of
/// `POST /passkeys/authentication/verify`):
///
/// ```json
/// {"id":"…","rawId":"…","type":"public-key",
///  "response":{"authenticatorData":"…","clientDataJSON":"…","signature":"…","userHandle":"…"}}
/// ```
///
/// The user handle is required: Gatehouse signs in with discoverable passkeys only, which
/// always return it. Reading checks the shape only; the server verifies the rest (WebAuthn §7.2).
public struct PasskeyAssertionCredential: PasskeyJSON {
    public static let jsonName = "credential"

    /// The id of the passkey that signed (WebAuthn `rawId`).
    public var credentialID: Data
    /// The client data the authenticator signed over: the challenge, the origin and the ceremony's type, as JSON bytes.
    public var clientDataJSON: Data
    /// The authenticator data: the RP id's hash, the flags (user present, user verified, backup) and the signature counter.
    public var authenticatorData: Data
    /// The signature over the authenticator data and the client data's SHA-256.
    public var signature: Data
    /// The user handle the passkey stored at registration.
    public var userHandle: Data

    /// Creates the assertion from the authenticator's answer.
    public init(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }

    enum ResponseKeys: String, CodingKey {
        case clientDataJSON, authenticatorData, signature, userHandle
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: PasskeyCredentialCoding.Keys.self)
        credentialID = try PasskeyCredentialCoding.decodeID(c)
        let response = try c.nestedContainer(keyedBy: ResponseKeys.self, forKey: .response)
        clientDataJSON = try response.decodeBase64URL(forKey: .clientDataJSON, .canonical)
        authenticatorData = try response.decodeBase64URL(forKey: .authenticatorData, .canonical)
        signature = try response.decodeBase64URL(forKey: .signature, .canonical)
        userHandle = try response.decodeBase64URL(forKey: .userHandle, .canonical)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: PasskeyCredentialCoding.Keys.self)
        try PasskeyCredentialCoding.encodeID(credentialID, &c)
        var response = c.nestedContainer(keyedBy: ResponseKeys.self, forKey: .response)
        try response.encodeBase64URL(clientDataJSON, forKey: .clientDataJSON)
        try response.encodeBase64URL(authenticatorData, forKey: .authenticatorData)
        try response.encodeBase64URL(signature, forKey: .signature)
        try response.encodeBase64URL(userHandle, forKey: .userHandle)
    }
}
