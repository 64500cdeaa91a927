public import Foundation

/// What an authenticator needs to create a passkey (WebAuthn
/// `PublicKeyCredentialCreationOptionsJSON`): the `options` of
/// `POST /passkeys/registration/options`. Binary fields are base64url in JSON; a client reads
/// them with or without padding, and writes them without.
///
/// ```json
/// {"attestation":"none",
///  "authenticatorSelection":{"requireResidentKey":true,"residentKey":"required","userVerification":"required"},
///  "challenge":"…","excludeCredentials":[{"id":"…","type":"public-key"}],
///  "pubKeyCredParams":[{"alg":-7,"type":"public-key"}],
///  "rp":{"id":"example.com","name":"Example"},"timeout":300000,
///  "user":{"displayName":"ada@example.com","id":"…","name":"ada@example.com"}}
/// ```
public struct PasskeyCreationOptions: PasskeyJSON {
    public static let jsonName = "options"

    /// The relying party the passkey is for (`rp`).
    public var relyingParty: RelyingParty
    /// The account the passkey signs in to (`user`).
    public var user: User
    /// The server's random challenge, which the authenticator signs.
    public var challenge: Data
    /// The key algorithms the server accepts, most preferred first (`pubKeyCredParams`); read
    /// as empty when absent, which leaves the choice to the client.
    public var parameters: [Parameters]
    /// How long the ceremony may take, in milliseconds.
    public var timeout: Int?
    /// The account's passkeys, which the authenticator must not duplicate.
    public var excludeCredentials: [PasskeyCredentialDescriptor]?
    /// What the authenticator must offer: a discoverable credential, user verification.
    public var authenticatorSelection: AuthenticatorSelection?
    /// The attestation the server wants (WebAuthn `AttestationConveyancePreference`): `none`
    /// from Gatehouse's server.
    public var attestation: String?

    /// Creates options from plain values.
    public init(
        relyingParty: RelyingParty,
        user: User,
        challenge: Data,
        parameters: [Parameters],
        timeout: Int? = nil,
        excludeCredentials: [PasskeyCredentialDescriptor]? = nil,
        authenticatorSelection: AuthenticatorSelection? = nil,
        attestation: String? = nil
    ) {
        self.relyingParty = relyingParty
        self.user = user
        self.challenge = challenge
        self.parameters = parameters
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
    }

    /// The relying party (WebAuthn `PublicKeyCredentialRpEntity`).
    public struct RelyingParty: Codable, Sendable, Equatable {
        /// The RP id: the domain the passkey belongs to (`nil`: the web page's own domain).
        public var id: String?
        /// The name authenticators show.
        public var name: String

        /// The relying party `id`, shown as `name`.
        public init(id: String?, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// The account (WebAuthn `PublicKeyCredentialUserEntityJSON`).
    public struct User: Codable, Sendable, Equatable {
        /// The user handle the passkey stores and returns at each sign-in.
        public var id: Data
        /// The account name the passkey is saved under.
        public var name: String
        /// The name shown for the account.
        public var displayName: String

        /// The account with handle `id`.
        public init(id: Data, name: String, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }

        enum CodingKeys: String, CodingKey {
            case id, name, displayName
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decodeBase64URL(forKey: .id, .padded)
            name = try c.decode(String.self, forKey: .name)
            displayName = try c.decode(String.self, forKey: .displayName)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeBase64URL(id, forKey: .id)
            try c.encode(name, forKey: .name)
            try c.encode(displayName, forKey: .displayName)
        }
    }

    /// A key algorithm the server accepts (WebAuthn `PublicKeyCredentialParameters`).
    public struct Parameters: Codable, Sendable, Equatable {
        /// `public-key`.
        public var type: String
        /// The COSE algorithm (`alg`): -7 ES256, -8 EdDSA, -257 RS256.
        public var algorithm: Int

        /// The parameters for COSE algorithm `algorithm`.
        public init(algorithm: Int, type: String = "public-key") {
            self.type = type
            self.algorithm = algorithm
        }

        enum CodingKeys: String, CodingKey {
            case type
            case algorithm = "alg"
        }
    }

    /// What the authenticator must offer (WebAuthn `AuthenticatorSelectionCriteria`).
    public struct AuthenticatorSelection: Codable, Sendable, Equatable {
        /// Whether the credential must be discoverable (a passkey signs in without a user name).
        public var residentKey: PasskeyRequirement?
        /// The Level 1 spelling of `residentKey` = `required`, for older clients.
        public var requireResidentKey: Bool?
        /// Whether the authenticator must verify the person (Face ID, a PIN).
        public var userVerification: PasskeyRequirement?

        /// Creates the criteria.
        public init(
            residentKey: PasskeyRequirement? = nil,
            requireResidentKey: Bool? = nil,
            userVerification: PasskeyRequirement? = nil
        ) {
            self.residentKey = residentKey
            self.requireResidentKey = requireResidentKey
            self.userVerification = userVerification
        }
    }

    enum CodingKeys: String, CodingKey {
        case user, challenge, timeout, excludeCredentials, authenticatorSelection, attestation
        case relyingParty = "rp"
        case parameters = "pubKeyCredParams"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        relyingParty = try c.decode(RelyingParty.self, forKey: .relyingParty)
        user = try c.decode(User.self, forKey: .user)
        challenge = try c.decodeBase64URL(forKey: .challenge, .padded)
        parameters = try c.decodeIfPresent([Parameters].self, forKey: .parameters) ?? []
        timeout = try c.decodeIfPresent(Int.self, forKey: .timeout)
        excludeCredentials = try c.decodeIfPresent([PasskeyCredentialDescriptor].self, forKey: .excludeCredentials)
        authenticatorSelection = try c.decodeIfPresent(AuthenticatorSelection.self, forKey: .authenticatorSelection)
        attestation = try c.decodeIfPresent(String.self, forKey: .attestation)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(relyingParty, forKey: .relyingParty)
        try c.encode(user, forKey: .user)
        try c.encodeBase64URL(challenge, forKey: .challenge)
        try c.encode(parameters, forKey: .parameters)
        try c.encodeIfPresent(timeout, forKey: .timeout)
        try c.encodeIfPresent(excludeCredentials, forKey: .excludeCredentials)
        try c.encodeIfPresent(authenticatorSelection, forKey: .authenticatorSelection)
        try c.encodeIfPresent(attestation, forKey: .attestation)
    }
}
