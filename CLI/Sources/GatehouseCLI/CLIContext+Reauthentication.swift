public import Gatehouse

extension CLIContext {
    /// Runs a sensitive action (``SensitiveAction``), with the proof of a recent sign-in the
    /// server may ask for more than 10 minutes after the sign-in.
    ///
    /// With `nonceFromStdin`, the reauthentication code (from `gatehouse reauthenticate`) is read
    /// from standard input and sent with the action at once: the way for scripts, since a secret
    /// never comes from an argument. Otherwise the action is tried; when the server answers
    /// `reauthentication_needed`, a code is e-mailed, asked for (again after a wrong one) and the
    /// action is retried with it (``AuthService/withReauthentication(_:asking:perform:)``).
    ///
    /// - Parameters:
    ///   - message: What the spinner says while the action runs.
    ///   - body: The action, given the code or `nil`.
    /// - Throws: ``CLIError`` (usage) when no code is given; the action's errors.
    public func reauthenticating<Result: Sendable>(
        _ action: SensitiveAction,
        nonceFromStdin: Bool,
        waiting message: String,
        _ body: @MainActor (_ nonce: String?) async throws -> Result
    ) async throws -> Result {
        if nonceFromStdin {
            let code = try reauthenticationCodeFromStdin()
            return try await waiting(message) { try await body(code) }
        }
        return try await auth.withReauthentication(action) { prompt in
            if let wrong = prompt.previousError { self.console.err(wrong.message) }
            self.console.err(prompt.message)
            guard let answer = self.console.prompt("Code: "), !answer.isEmpty else {
                throw CLIError.usage(
                    "No code given.",
                    hint: "Enter the e-mailed code when asked, or pass it on standard input with --nonce-stdin."
                )
            }
            return answer
        } perform: { nonce in
            try await self.waiting(message) { try await body(nonce) }
        }
    }

    /// A reauthentication code read from standard input (without echo on a terminal).
    private func reauthenticationCodeFromStdin() throws -> String {
        guard let code = console.promptSecret("Reauthentication code: "), !code.isEmpty else {
            throw CLIError.usage(
                "No reauthentication code on standard input.",
                hint: "Get one with `gatehouse reauthenticate`, then pipe it in: echo CODE | gatehouse … --nonce-stdin"
            )
        }
        return code
    }
}
