/// A way to sign in, by the name stored in `identities.provider`, `flow_states.provider` and
/// `used_nonces.provider`, and sent as `provider` on the wire (GoTrue's names): the e-mail
/// account's own, the ID-token providers', and any provider configured by name
/// (`GATEHOUSE_EXTERNAL_<NAME>_…`).
///
/// A struct over its text rather than an enum, like ``AuditAction``: providers are configured
/// by name, and an identity imported from another server or linked through a provider since
/// removed from the configuration keeps its name and reads back as that text, unchanged. The
/// server writes the constants below where it means them, and makes one from text only where a
/// name comes from the configuration, a request, a stored row or an import.
public struct AuthProvider: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The stored (and wire) text; it is also the value's JSON (a string, as in a session's `amr`).
    public let rawValue: String

    /// The provider named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// An e-mail account's own identity, and the e-mail flows (`flow_states` of a mailed link).
    public static let email = AuthProvider(rawValue: "email")
    /// Sign in with Apple (an ID token, or Apple's web page).
    public static let apple = AuthProvider(rawValue: "apple")
    /// Google (an ID token, or Google's web page).
    public static let google = AuthProvider(rawValue: "google")
}
