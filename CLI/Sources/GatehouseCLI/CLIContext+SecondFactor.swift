import Gatehouse

extension CLIContext {
    /// After a sign-in of a user with an authenticator app, asks for its code (unless given)
    /// and verifies it; nothing happens when no second factor is due.
    public func completeSecondFactor(code given: String?) async throws {
        guard case .secondFactorRequired(let user) = auth.state else { return }
        guard let factor = user.factors.first(where: \.isVerified) else { return }
        let name = factor.friendlyName.isEmpty ? "your authenticator app" : "\"\(factor.friendlyName)\""
        if given == nil { console.err("This account uses two-factor sign-in: enter the code from \(name).") }
        let code = try value(given, prompt: "Authenticator code: ")
        _ = try await waiting("Verifying…") {
            try await self.auth.mfa.challengeAndVerify(factorID: factor.id, code: code)
        }
    }
}
