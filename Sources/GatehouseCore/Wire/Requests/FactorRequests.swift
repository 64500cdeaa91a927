/// `POST /factors`: enrols a new, unverified factor.
public struct EnrollFactorRequest: Codable, Sendable, Equatable {
    /// `totp`; other types are refused.
    public var factorType: String
    /// The name the user gives the factor ("Work phone"); unique per user.
    public var friendlyName: String?
    /// The name authenticator apps show above the code; the site's host when absent.
    public var issuer: String?
    /// A reauthentication code (`GET /reauthenticate`), needed when the last sign-in is not recent.
    public var nonce: String?

    /// Creates the body that enrols an authenticator app, with a reauthentication `nonce` when
    /// the last sign-in is not recent.
    public init(factorType: String = "totp", friendlyName: String? = nil, issuer: String? = nil, nonce: String? = nil) {
        self.factorType = factorType
        self.friendlyName = friendlyName
        self.issuer = issuer
        self.nonce = nonce
    }

    enum CodingKeys: String, CodingKey {
        case issuer, nonce
        case factorType = "factor_type"
        case friendlyName = "friendly_name"
    }
}

/// `POST /factors/{id}/verify`: the code of an authenticator app for a challenge.
public struct VerifyFactorRequest: Codable, Sendable, Equatable {
    /// The `id` of the challenge the code answers (`POST /factors/{id}/challenge`).
    public var challengeID: String
    /// The authenticator app's 6-digit code.
    public var code: String

    /// Creates the body that answers the challenge `challengeID` with `code`.
    public init(challengeID: String, code: String) {
        self.challengeID = challengeID
        self.code = code
    }

    enum CodingKeys: String, CodingKey {
        case code
        case challengeID = "challenge_id"
    }
}
