/// A person's name as Sign in with Apple gives it, on the first authorization only and never
/// in the ID token: the `full_name` object of an ID-token grant.
public struct WirePersonName: Codable, Sendable, Equatable {
    /// The first name ("Ada").
    public var givenName: String?
    /// The last name ("Lovelace").
    public var familyName: String?

    /// Creates a name.
    public init(givenName: String? = nil, familyName: String? = nil) {
        self.givenName = givenName
        self.familyName = familyName
    }

    enum CodingKeys: String, CodingKey {
        case givenName = "given_name"
        case familyName = "family_name"
    }
}
