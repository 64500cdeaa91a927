public import Gatehouse
import IssueReporting
public import Sharing

/// Seed 002's operations on the projected value: `$auth.signInAsGuest()`. Each starts at once;
/// its progress and error show in the shared value (`auth.isLoading`, `auth.error`), and the
/// optional callbacks run on the main actor when it ends.
///
/// ```swift
/// struct LoginView: View {
///     @Shared(.gatehouseAuth) private var auth: AuthSession
///
///     var body: some View {
///         Button("Continue as Guest") { $auth.signInAsGuest() }
///             .disabled(auth.isLoading)
///         if let error = auth.error {
///             Text(error.localizedDescription)
///             Button("Dismiss") { $auth.clearError() }
///         }
///     }
/// }
/// ```
@MainActor
extension Shared where Value == AuthSession {
    /// Signs in as a guest user, upgraded later by e-mail or a provider.
    public func signInAsGuest(
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        operations(onError)?.signInAsGuest(onSuccess: onSuccess, onError: onError)
    }

    /// Sends a sign-in code to `email`; then call ``verifyMagicCode(email:code:onSuccess:onError:)``.
    public func sendMagicCode(
        to email: String,
        onSuccess: (@MainActor () -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        operations(onError)?.sendMagicCode(to: email, onSuccess: onSuccess, onError: onError)
    }

    /// Verifies the code sent to `email` and signs the user in.
    public func verifyMagicCode(
        email: String,
        code: String,
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        operations(onError)?.verifyMagicCode(email: email, code: code, onSuccess: onSuccess, onError: onError)
    }

    /// Signs in with an e-mail address and password.
    public func signIn(
        email: String,
        password: String,
        onSuccess: (@MainActor (User) -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        operations(onError)?.signIn(email: email, password: password, onSuccess: onSuccess, onError: onError)
    }

    /// Creates an account with an e-mail address and password.
    public func signUp(
        email: String,
        password: String,
        onSuccess: (@MainActor (SignUpResult) -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        operations(onError)?.signUp(email: email, password: password, onSuccess: onSuccess, onError: onError)
    }

    /// Upgrades the signed-in guest to a permanent account, keeping its id.
    public func upgradeGuest(
        email: String,
        password: String,
        onSuccess: (@MainActor (GuestUpgradeOutcome) -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        operations(onError)?.upgradeGuest(email: email, password: password, onSuccess: onSuccess, onError: onError)
    }

    /// Signs out; afterwards `auth.state` is `.unauthenticated`. Sign-out never fails.
    public func signOut(
        onSuccess: (@MainActor () -> Void)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil
    ) {
        operations(onError)?.signOut(onSuccess: onSuccess, onError: onError)
    }

    /// Clears the error of the last operation.
    public func clearError() {
        wrappedValue.operations?.clearError()
    }

    /// The operations of the service behind the value, or `nil` after telling `onError` (and,
    /// in debug builds, the developer) that no service is connected yet.
    private func operations(_ onError: (@MainActor (any Error) -> Void)?) -> AuthOperations? {
        if let operations = wrappedValue.operations { return operations }
        onError?(AuthError.disconnectedSession())
        reportIssue(GatehouseAuthKey.missingService)
        return nil
    }
}
