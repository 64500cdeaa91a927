/// How much a relying party wants something of the authenticator (WebAuthn
/// `ResidentKeyRequirement`, `UserVerificationRequirement`): `required`, `preferred` or
/// `discouraged`. An open set, as the specification asks clients to ignore values they do not
/// know: another value still reads.
public struct PasskeyRequirement: RawRepresentable, Codable, Sendable, Hashable {
    /// The value as JSON spells it.
    public var rawValue: String

    /// The requirement spelled `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The ceremony fails without it (Gatehouse's server asks user verification and a
    /// discoverable credential this way).
    public static let required = PasskeyRequirement(rawValue: "required")
    /// Wanted, but the ceremony goes on without it.
    public static let preferred = PasskeyRequirement(rawValue: "preferred")
    /// Rather not.
    public static let discouraged = PasskeyRequirement(rawValue: "discouraged")

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
