/// The routing logic a root view switches on, for both ways an app can use authentication.
///
/// - **Gate mode** (the whole app needs a user): progress while restoring, sign-in when nobody
///   is signed in, the app when someone is, and a session error with a retry when the stored
///   session could not be read.
/// - **Optional mode** (browse without an account): the content always shows, with the user
///   or none; features that need an account ask ``requiresSignIn(for:in:)``.
///
/// ```swift
/// switch AuthGate.gate.route(for: auth.session) {
/// case .progress: ProgressView()
/// case .signIn: SignInView()
/// case .content(let user): MainView(user: user)
/// case .sessionError(let error): SessionErrorView(error, actions: AuthGate.actions(for: error))
/// }
/// ```
public struct AuthGate: Sendable, Equatable {
    /// How the app treats signed-out users.
    public enum Mode: Sendable, Equatable {
        /// Nothing but sign-in is shown until a user is signed in.
        case gate
        /// The content is shown to everyone; features ask for sign-in when they need it.
        case optional
    }

    /// What the root view shows.
    public enum Route: Sendable, Equatable {
        /// The session is being restored.
        case progress
        /// Nobody is signed in: show sign-in.
        case signIn
        /// Show the app, with the signed-in user (always non-`nil` in gate mode).
        case content(User?)
        /// The user signed in with a password or code and must enter a code of their
        /// authenticator app (``MultiFactorAuth/challengeAndVerify(factorID:code:)``), in both modes.
        case secondFactor(User)
        /// The stored session could not be read: show the error and a retry.
        case sessionError(AuthError)
    }

    /// What a session-error screen offers.
    public enum SessionErrorAction: Sendable, Hashable {
        /// Read the store again (``AuthService/restoreSession()``): the error may pass (a
        /// locked device, a busy disk).
        case retry
        /// Clear the stored session and show sign-in (``AuthService/discardStoredSession()``),
        /// after the person confirms: retrying cannot fix the error (an unreadable session, a
        /// missing entitlement).
        case signInAgain

        /// Whether the person must confirm first, because the action removes the stored session.
        public var needsConfirmation: Bool { self == .signInAgain }
    }

    /// What a feature needs.
    public enum Requirement: Sendable, Equatable {
        /// Any signed-in user, guests included.
        case anyUser
        /// A permanent account (guests must sign up or sign in first).
        case account
    }

    /// The mode.
    public var mode: Mode

    /// Creates a gate.
    public init(mode: Mode) {
        self.mode = mode
    }

    /// The whole app requires a user.
    public static let gate = AuthGate(mode: .gate)
    /// Authentication is optional.
    public static let optional = AuthGate(mode: .optional)

    /// The route for a session lifecycle value.
    public func route(for session: Loadable<User?>) -> Route {
        route(for: session, assurance: nil)
    }

    /// The route for a session lifecycle value and the session's assurance level
    /// (``AuthService/assuranceLevel``): a user whose second factor is due gets ``Route/secondFactor(_:)``.
    public func route(for session: Loadable<User?>, assurance: AssuranceLevel?) -> Route {
        if case .secondFactorRequired(let user) = AuthState(session, assurance: assurance) {
            return .secondFactor(user)
        }
        switch (mode, session) {
        case (.gate, .notInitiated), (.gate, .loading): return .progress
        case (.gate, .success(nil)): return .signIn
        case (.gate, .success(let user?)): return .content(user)
        case (.gate, .failure(let error)): return .sessionError(error)
        case (.optional, .success(let user)): return .content(user)
        case (.optional, _): return .content(nil)
        }
    }

    /// The actions a session-error screen offers for `error`: retry when it may pass, else
    /// sign in again.
    public static func actions(for error: AuthError) -> [SessionErrorAction] {
        error.isRetryable ? [.retry] : [.signInAgain]
    }

    /// Whether a feature with `requirement` must ask the person to sign in first.
    public func requiresSignIn(for requirement: Requirement, in state: AuthState) -> Bool {
        switch requirement {
        case .anyUser: return !state.isSignedIn
        case .account: return !state.isAuthenticated
        }
    }
}
