public import Foundation

/// What an authenticator needs to sign in with a passkey (WebAuthn
/// `PublicKeyCredentialRequestOptionsJSON`): the `options` of
/// `POST /passkeys/authentication/options`. Gatehouse's server names no credential, so any
/// discoverable passkey of the RP may answer.
///
/// ```json
/// {"challenge":"…","rpId":"example.com","timeout":300000,"userVerification":"required"}
/// ```
public struct PasskeyRequestOptions: PasskeyJSON {
    public static let jsonName = "options"

    /// The server's random challenge, which the passkey signs.
    public var challenge: Data
    /// How long the ceremony may take, in milliseconds.
    public var timeout: Int?
    /// The RP id (`rpId`): the domain whose passkeys may answer (`nil`: the web page's own).
    public var relyingPartyID: String?
    /// The passkeys that may answer; absent or empty: any discoverable one.
    public var allowCredentials: [PasskeyCredentialDescriptor]?
    /// Whether the authenticator must verify the person.
    public var userVerification: PasskeyRequirement?

    /// Creates options from plain values.
    public init(
        challenge: Data,
        timeout: Int? = nil,
        relyingPartyID: String?,
        allowCredentials: [PasskeyCredentialDescriptor]? = nil,
        userVerification: PasskeyRequirement? = nil
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.relyingPartyID = relyingPartyID
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }

    enum CodingKeys: String, CodingKey {
        case challenge, timeout, allowCredentials, userVerification
        case relyingPartyID = "rpId"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        challenge = try c.decodeBase64URL(forKey: .challenge, .padded)
        timeout = try c.decodeIfPresent(Int.self, forKey: .timeout)
        relyingPartyID = try c.decodeIfPresent(String.self, forKey: .relyingPartyID)
        allowCredentials = try c.decodeIfPresent([PasskeyCredentialDescriptor].self, forKey: .allowCredentials)
        userVerification = try c.decodeIfPresent(PasskeyRequirement.self, forKey: .userVerification)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeBase64URL(challenge, forKey: .challenge)
        try c.encodeIfPresent(timeout, forKey: .timeout)
        try c.encodeIfPresent(relyingPartyID, forKey: .relyingPartyID)
        try c.encodeIfPresent(allowCredentials, forKey: .allowCredentials)
        try c.encodeIfPresent(userVerification, forKey: .userVerification)
    }
}
