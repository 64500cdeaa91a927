/// The complete authentication state a view reads: who is signed in, the status of the
/// current or last operation, and its error.
///
/// ```swift
/// Button("Continue as Guest") { authService.signInAnonymously() }
///     .disabled(authService.authSession.isLoading)
/// if let error = authService.authSession.error { Text(error.localizedDescription) }
/// ```
public struct AuthSession: Sendable, Equatable {
    /// Who is signed in.
    public var state: AuthState
    /// The status of the current or last operation.
    public var operationStatus: OperationStatus
    /// The error from the last failed operation; cleared when a new operation starts.
    public var error: AuthError?
    /// Why the session could not be saved, until a later save succeeds: the user stays signed
    /// in for this run, but a relaunch will not find the session.
    public var storageError: AuthError?
    /// The operations of the service this value came from, in seed 002's callback shape
    /// (`operations?.signInAsGuest()`); `nil` for a value made by hand. Not part of equality.
    public internal(set) var operations: AuthOperations?

    /// Creates a session value.
    public init(
        state: AuthState = .loading,
        operationStatus: OperationStatus = .idle,
        error: AuthError? = nil,
        storageError: AuthError? = nil
    ) {
        self.state = state
        self.operationStatus = operationStatus
        self.error = error
        self.storageError = storageError
    }

    /// Whether an auth operation is currently in progress.
    public var isLoading: Bool { operationStatus == .pending }

    /// Whether the last operation resulted in an error.
    public var isError: Bool { error != nil }

    /// Whether the last operation completed successfully.
    public var isSuccess: Bool { operationStatus == .success }

    /// Whether no operation has been attempted yet.
    public var isIdle: Bool { operationStatus == .idle }

    /// The current user, if signed in (guest or authenticated).
    public var user: User? { state.user }

    /// Whether a user is signed in (guest or authenticated).
    public var isSignedIn: Bool { state.isSignedIn }

    /// Whether the user is fully authenticated (not a guest).
    public var isAuthenticated: Bool { state.isAuthenticated }

    /// Whether the user is a guest.
    public var isGuest: Bool { state.isGuest }

    /// Whether the user must still enter a code of their authenticator app.
    public var isSecondFactorRequired: Bool { state.isSecondFactorRequired }

    /// Two values are equal when their state, status and errors are; the service they came
    /// from does not count.
    public static func == (lhs: AuthSession, rhs: AuthSession) -> Bool {
        lhs.state == rhs.state && lhs.operationStatus == rhs.operationStatus && lhs.error == rhs.error
            && lhs.storageError == rhs.storageError
    }
}
