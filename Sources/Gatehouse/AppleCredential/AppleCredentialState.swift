/// What Sign in with Apple says about an Apple user on this device
/// (`ASAuthorizationAppleIDProvider.CredentialState`).
public enum AppleCredentialState: Sendable, Hashable {
    /// The Apple ID still authorizes the app.
    case authorized
    /// The person stopped using Sign in with Apple with the app (Settings, or on the web), or
    /// signed out of the Apple ID on this device: sign them out.
    case revoked
    /// Apple knows no such user for the app on this device: sign them out.
    case notFound
    /// The app moved to another developer team; the user identifier must be migrated (the
    /// session is kept).
    case transferred

    /// Whether this answer is definitive enough to end the session: `revoked` and `notFound`.
    public var endsSession: Bool {
        switch self {
        case .revoked, .notFound: return true
        case .authorized, .transferred: return false
        }
    }
}
