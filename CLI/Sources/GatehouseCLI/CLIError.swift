public import Gatehouse

/// A failure the `gatehouse` command reports, with the exit code scripts rely on:
/// 0 success, 1 failure, 2 usage error, 3 not signed in.
public struct CLIError: Error, Sendable, Equatable {
    /// Exit codes of the `gatehouse` command.
    public enum ExitStatus: Int32, Sendable {
        case success = 0
        case failure = 1
        case usage = 2
        case notSignedIn = 3
    }

    /// What to print.
    public var message: String
    /// What the person can do about it.
    public var hint: String?
    /// The stable code (the server's, or a client code).
    public var code: String
    /// The process exit status.
    public var status: ExitStatus

    /// Creates an error.
    public init(message: String, hint: String? = nil, code: String, status: ExitStatus) {
        self.message = message
        self.hint = hint
        self.code = code
        self.status = status
    }

    /// The error for a command that needs a signed-in user.
    public static func notSignedIn(server: String) -> CLIError {
        CLIError(
            message: "Not signed in to \(server).",
            hint: "Run `gatehouse login` (or `gatehouse login --guest`) first.",
            code: ErrorCode.notSignedIn.rawValue,
            status: .notSignedIn
        )
    }

    /// A usage error (bad input the command itself detected).
    public static func usage(_ message: String, hint: String? = nil) -> CLIError {
        CLIError(message: message, hint: hint, code: ErrorCode.validationFailed.rawValue, status: .usage)
    }

    /// Maps an SDK error to the command's error and exit status.
    public init(_ error: AuthError) {
        let status: ExitStatus
        switch error.code {
        case .notSignedIn: status = .notSignedIn
        case .validationFailed: status = .usage
        default: status = error.endsSession ? .notSignedIn : .failure
        }
        self.init(message: error.message, hint: error.recoverySuggestion, code: error.code.rawValue, status: status)
    }

    /// Maps any error to the command's error.
    public init(_ error: any Error) {
        if let error = error as? CLIError {
            self = error
        } else {
            self.init(AuthError.wrapping(error))
        }
    }
}
