/// What ``AuthService/withReauthentication(_:asking:perform:)`` asks the person: the code that
/// ``AuthService/reauthenticate()`` e-mailed, to go on with ``action``.
public struct ReauthenticationPrompt: Sendable, Equatable {
    /// What the person is doing.
    public var action: SensitiveAction
    /// Where the code went (the account's confirmed address), if known.
    public var email: String?
    /// Whether a code was e-mailed just now; `false` when the server sent one a moment ago and
    /// would not send another yet (that code still works).
    public var codeWasSent: Bool
    /// Why the code is asked for again: the last one was wrong or had expired
    /// (``ErrorCode/reauthenticationNotValid``); `nil` the first time.
    public var previousError: AuthError?

    /// Creates a prompt.
    public init(action: SensitiveAction, email: String?, codeWasSent: Bool = true, previousError: AuthError? = nil) {
        self.action = action
        self.email = email
        self.codeWasSent = codeWasSent
        self.previousError = previousError
    }

    /// The words to show: "Enter the code we sent to ada@example.com to remove an authenticator
    /// app.", after a wrong code "That code did not work. Enter …".
    public var message: String {
        let address = email.map { $0.isEmpty ? "your e-mail address" : $0 } ?? "your e-mail address"
        let sent = codeWasSent ? "we sent" : "we sent a moment ago"
        let ask = "Enter the code \(sent) to \(address) to \(action.purpose)."
        return previousError == nil ? ask : "That code is wrong or has expired. \(ask)"
    }
}
