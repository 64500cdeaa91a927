/// Who is signed in, as a root view switches on it.
public enum AuthState: Sendable, Hashable {
    /// The session is being restored, or could not be read yet.
    case loading
    /// Nobody is signed in.
    case unauthenticated
    /// A guest (anonymous) user is signed in.
    case guest(User)
    /// A permanent user is signed in.
    case authenticated(User)
    /// A permanent user signed in with a first factor (password, e-mailed code, Apple,
    /// Google) and must enter a code of their authenticator app (``MultiFactorAuth``) before
    /// the sign-in is complete: signed in, not authenticated.
    case secondFactorRequired(User)

    /// The signed-in user, guest or permanent.
    public var user: User? {
        switch self {
        case .guest(let user), .authenticated(let user), .secondFactorRequired(let user): return user
        case .loading, .unauthenticated: return nil
        }
    }

    /// Whether a user is signed in, guest or permanent.
    public var isSignedIn: Bool { user != nil }

    /// Whether a permanent (non-guest) user is signed in.
    public var isAuthenticated: Bool {
        if case .authenticated = self { return true }
        return false
    }

    /// Whether the signed-in user must still enter a code of their authenticator app.
    public var isSecondFactorRequired: Bool {
        if case .secondFactorRequired = self { return true }
        return false
    }

    /// Whether a guest user is signed in.
    public var isGuest: Bool {
        if case .guest = self { return true }
        return false
    }
}

extension AuthState {
    /// The state that a session lifecycle value stands for.
    ///
    /// `.failure` maps to `.loading`, not `.unauthenticated`: a store that could not be read
    /// says nothing about who is signed in, and the error travels in ``AuthSession/error``.
    public init(_ session: Loadable<User?>) {
        self.init(session, assurance: nil)
    }

    /// The state of a session lifecycle value and the session's assurance level: a permanent
    /// user below the level their factors reach has ``secondFactorRequired(_:)``.
    public init(_ session: Loadable<User?>, assurance: AssuranceLevel?) {
        switch session {
        case .notInitiated, .loading, .failure: self = .loading
        case .success(nil): self = .unauthenticated
        case .success(let user?) where user.isAnonymous: self = .guest(user)
        case .success(let user?):
            self = assurance?.isSecondFactorRequired == true ? .secondFactorRequired(user) : .authenticated(user)
        }
    }
}
