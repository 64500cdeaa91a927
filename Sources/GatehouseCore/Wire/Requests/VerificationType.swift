/// What a one-time code or link verifies (`POST /verify` and `GET /verify` `type`).
public struct VerificationType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The code that confirms a new account's address.
    public static let signup: VerificationType = "signup"
    /// The code of an invitation an admin sent.
    public static let invite: VerificationType = "invite"
    /// A sign-in code or link sent by the magic-link flow.
    public static let magiclink: VerificationType = "magiclink"
    /// The code that recovers an account whose password was forgotten.
    public static let recovery: VerificationType = "recovery"
    /// A code that confirms an e-mail change, sent to the new address (and to the current one).
    public static let emailChange: VerificationType = "email_change"
    /// A code sent by `POST /otp` (sign-in or sign-up by e-mail code).
    public static let email: VerificationType = "email"
    /// A code sent by `GET /reauthenticate`: a sensitive action takes it as `nonce`; it is never
    /// verified at `/verify`.
    public static let reauthentication: VerificationType = "reauthentication"
}
