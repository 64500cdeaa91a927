import GatehouseStorage

/// A service whose users `gatehouse-server import` reads.
public enum ImportSource: String, Sendable, CaseIterable {
    /// `firebase auth:export users.json` (Firebase's scrypt hashes).
    case firebase
    /// `auth.users` and `auth.identities` as JSON or `COPY … TO … CSV` (bcrypt hashes).
    case supabase
    /// Auth0's bulk user export, newline-delimited JSON (bcrypt hashes when exported).
    case auth0

    /// The `app_metadata` key that keeps the user's id in the source, when the user gets a new
    /// one here (a Supabase id is kept as the user's id).
    var sourceIDKey: String? {
        switch self {
        case .firebase: "firebase_uid"
        case .supabase: nil
        case .auth0: "auth0_user_id"
        }
    }
}
