public import Foundation

/// A credential of either ceremony, read only as far as both share: its id and the client
/// data. A relying party reads this first to find the passkey a sign-in names (an unknown one
/// is answered as such, whatever else the credential lacks), then the whole
/// ``PasskeyAssertionCredential``.
public struct AnyPasskeyCredential: PasskeyJSON {
    public static let jsonName = "credential"

    /// The credential's id (WebAuthn `rawId`).
    public var credentialID: Data
    /// The client data the authenticator signed over, as JSON bytes.
    public var clientDataJSON: Data

    /// The shared part of a credential.
    public init(credentialID: Data, clientDataJSON: Data) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
    }

    enum ResponseKeys: String, CodingKey {
        case clientDataJSON
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: PasskeyCredentialCoding.Keys.self)
        credentialID = try PasskeyCredentialCoding.decodeID(c)
        let response = try c.nestedContainer(keyedBy: ResponseKeys.self, forKey: .response)
        clientDataJSON = try response.decodeBase64URL(forKey: .clientDataJSON, .canonical)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: PasskeyCredentialCoding.Keys.self)
        try PasskeyCredentialCoding.encodeID(credentialID, &c)
        var response = c.nestedContainer(keyedBy: ResponseKeys.self, forKey: .response)
        try response.encodeBase64URL(clientDataJSON, forKey: .clientDataJSON)
    }
}
