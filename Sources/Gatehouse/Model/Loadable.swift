/// The lifecycle of a value that is loaded asynchronously, such as the restored session.
///
/// ```swift
/// switch authService.session {
/// case .notInitiated, .loading: ProgressView()
/// case .success(let user?): MainView(user: user)
/// case .success(nil): SignInView()
/// case .failure(let error): RetryView(error: error)
/// }
/// ```
public enum Loadable<Value> {
    /// Nothing has been attempted yet (the app just launched).
    case notInitiated
    /// The value is being loaded.
    case loading
    /// The value loaded.
    case success(Value)
    /// Loading failed; the error says why and whether a retry can help.
    case failure(AuthError)

    /// The loaded value, if loading succeeded.
    public var value: Value? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error, if loading failed.
    public var error: AuthError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// Whether the value is not there yet (`.notInitiated` or `.loading`).
    public var isPending: Bool {
        switch self {
        case .notInitiated, .loading: return true
        case .success, .failure: return false
        }
    }
}

extension Loadable: Sendable where Value: Sendable {}
extension Loadable: Equatable where Value: Equatable {}
