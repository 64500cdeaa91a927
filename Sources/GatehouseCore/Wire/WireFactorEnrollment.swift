/// The answer of `POST /factors` (GoTrue's shape): the new factor and what an authenticator
/// app needs to add it.
public struct WireFactorEnrollment: Codable, Sendable, Equatable {
    /// What an authenticator app scans or is given.
    public struct TOTP: Codable, Sendable, Equatable {
        /// An SVG document of the QR code of ``uri``.
        public var qrCode: String
        /// The shared secret, base32, for typing into an app.
        public var secret: String
        /// The `otpauth://totp/…` URI.
        public var uri: String

        /// Creates what an authenticator app needs.
        public init(qrCode: String, secret: String, uri: String) {
            self.qrCode = qrCode
            self.secret = secret
            self.uri = uri
        }

        enum CodingKeys: String, CodingKey {
            case secret, uri
            case qrCode = "qr_code"
        }
    }

    /// The factor's id (a UUID, lowercase).
    public var id: String
    /// `totp`.
    public var type: String
    /// The name the user gave the factor.
    public var friendlyName: String
    /// The QR code, secret and URI for the authenticator app.
    public var totp: TOTP
    /// Always `""` for an authenticator-app factor.
    public var phone: String

    /// Creates the answer of an enrolment.
    public init(id: String, type: String = "totp", friendlyName: String, totp: TOTP, phone: String = "") {
        self.id = id
        self.type = type
        self.friendlyName = friendlyName
        self.totp = totp
        self.phone = phone
    }

    enum CodingKeys: String, CodingKey {
        case id, type, totp, phone
        case friendlyName = "friendly_name"
    }
}

/// The answer of `POST /factors/{id}/challenge`.
public struct WireFactorChallenge: Codable, Sendable, Equatable {
    /// The challenge's id, for the verify that follows.
    public var id: String
    /// `totp`.
    public var type: String
    /// Unix seconds after which the challenge is dead.
    public var expiresAt: Int

    /// Creates the answer of a challenge.
    public init(id: String, type: String = "totp", expiresAt: Int) {
        self.id = id
        self.type = type
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case id, type
        case expiresAt = "expires_at"
    }
}
