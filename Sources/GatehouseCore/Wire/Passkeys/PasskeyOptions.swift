/// The answer of `POST /passkeys/registration/options` and `/passkeys/authentication/options`:
/// the WebAuthn options to hand the authenticator and the challenge to verify against.
public struct PasskeyOptions: Codable, Sendable, Equatable {
    /// Names the challenge in the verify request.
    public var challengeID: String
    /// `PublicKeyCredentialCreationOptions` or `PublicKeyCredentialRequestOptions` as JSON
    /// (binary fields base64url).
    public var options: JSONValue
    /// When the challenge expires (seconds since 1970).
    public var expiresAt: Int

    /// Creates the answer to send.
    public init(challengeID: String, options: JSONValue, expiresAt: Int) {
        self.challengeID = challengeID
        self.options = options
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case options
        case challengeID = "challenge_id"
        case expiresAt = "expires_at"
    }
}

/// The body of `POST /passkeys/registration/options`.
public struct PasskeyRegistrationOptionsRequest: Codable, Sendable, Equatable {
    /// A reauthentication code (`GET /reauthenticate`), needed when the last sign-in is not recent
    /// and the account can sign in another way already.
    public var nonce: String?

    /// Creates the body, with a reauthentication code or without one.
    public init(nonce: String? = nil) {
        self.nonce = nonce
    }
}

/// The body of `POST /passkeys/registration/verify` and `/passkeys/authentication/verify`.
public struct PasskeyVerifyRequest: Codable, Sendable, Equatable {
    /// The `challenge_id` of the options answer this credential responds to.
    public var challengeID: String?
    /// The `PublicKeyCredential` as JSON (its `toJSON()` form).
    public var credential: JSONValue?
    /// Registration: the name to give the passkey.
    public var friendlyName: String?

    /// Creates the body for a credential answering the challenge `challengeID`.
    public init(challengeID: String, credential: JSONValue, friendlyName: String? = nil) {
        self.challengeID = challengeID
        self.credential = credential
        self.friendlyName = friendlyName
    }

    enum CodingKeys: String, CodingKey {
        case credential
        case challengeID = "challenge_id"
        case friendlyName = "friendly_name"
    }
}

/// The body of `PATCH /passkeys/{id}`.
public struct PasskeyRenameRequest: Codable, Sendable, Equatable {
    /// The passkey's new name.
    public var friendlyName: String?
    /// A reauthentication code (`GET /reauthenticate`), needed when the last sign-in is not recent.
    public var nonce: String?

    /// Creates the body that renames a passkey to `friendlyName`, with a reauthentication
    /// `nonce` when the last sign-in is not recent.
    public init(friendlyName: String, nonce: String? = nil) {
        self.friendlyName = friendlyName
        self.nonce = nonce
    }

    enum CodingKeys: String, CodingKey {
        case nonce
        case friendlyName = "friendly_name"
    }
}
