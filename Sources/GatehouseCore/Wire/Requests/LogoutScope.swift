/// Which sessions `POST /logout?scope=` ends.
public enum LogoutScope: String, Sendable, Codable, CaseIterable {
    /// Every session of the user (GoTrue's default).
    case global
    /// Only the caller's session.
    case local
    /// Every session but the caller's.
    case others
}
