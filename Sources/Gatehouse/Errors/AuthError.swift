public import Foundation

/// The one error type of the Gatehouse SDK.
///
/// Every failure carries a stable ``code`` (shared with the server; see ``ErrorCode``), a message
/// a person can act on, and a ``recovery`` that tells an app what to do next. Two errors are
/// equal when their code and message are, so an `AuthError` can sit in UI state.
///
/// ```swift
/// do {
///     try await authService.signIn(email: email, password: password)
/// } catch let error as AuthError where error.code == .invalidCredentials {
///     showWrongPassword()
/// }
/// ```
public struct AuthError: Error, Sendable, Equatable, Hashable {
    /// The stable, machine-readable code.
    public var code: ErrorCode
    /// What went wrong, in words a person can act on.
    public var message: String
    /// What the person can do about it.
    public var recoverySuggestion: String?
    /// Whether trying the same thing again later may succeed.
    public var isRetryable: Bool
    /// The HTTP status the server answered with, when one did.
    public var httpStatus: Int?
    /// How long the server asked the client to wait before retrying (HTTP `Retry-After`).
    public var retryAfter: TimeInterval?
    /// A description of the underlying cause (never a secret), for logs and bug reports.
    public var underlying: String?

    /// Creates an error.
    public init(
        code: ErrorCode,
        message: String,
        recoverySuggestion: String? = nil,
        isRetryable: Bool = false,
        httpStatus: Int? = nil,
        retryAfter: TimeInterval? = nil,
        underlying: String? = nil
    ) {
        self.code = code
        self.message = message
        self.recoverySuggestion = recoverySuggestion
        self.isRetryable = isRetryable
        self.httpStatus = httpStatus
        self.retryAfter = retryAfter
        self.underlying = underlying
    }

    public static func == (lhs: AuthError, rhs: AuthError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }

    /// Whether this error means the server has definitively ended the session, so the app
    /// must sign in again. Network failures, rate limits and server errors never do.
    public var endsSession: Bool { code.endsSession }

    /// What an app should do about this error.
    public var recovery: Recovery { Recovery(code: code, isRetryable: isRetryable) }
}

extension AuthError: LocalizedError {
    public var errorDescription: String? { message }
    public var failureReason: String? { underlying }
}

extension AuthError: CustomStringConvertible {
    public var description: String { "AuthError(\(code.rawValue)): \(message)" }
}
