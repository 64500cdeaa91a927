import Foundation

extension AuthService {
    /// Second factors of the signed-in user: enrol an authenticator app, verify its codes,
    /// remove it, and read the assurance level.
    ///
    /// ```swift
    /// let enrolment = try await auth.mfa.enrollTOTP(friendlyName: "iPhone")
    /// showQRCode(enrolment.qrCodeSVG)
    /// try await auth.mfa.challengeAndVerify(factorID: enrolment.factorID, code: typedCode)
    /// ```
    public var mfa: MultiFactorAuth { MultiFactorAuth(service: self) }

    func enrollTOTP(friendlyName: String?, nonce: String?) async throws -> TOTPEnrollment {
        try await operation {
            let nonce = try Self.reauthenticationCode(nonce)
            let current = try await currentSessionForCall()
            let started = generation
            let enrolment = try await explaining(.enrolFactor) {
                try await backend.enrollTOTP(friendlyName: friendlyName, nonce: nonce, for: current)
            }
            guard started == generation else { throw AuthError.sessionSuperseded() }
            await reloadUser()
            return enrolment
        }
    }

    func challengeFactor(_ factorID: String) async throws -> FactorChallenge {
        try await operation {
            try await backend.challengeFactor(factorID, for: try await currentSessionForCall())
        }
    }

    func verifyFactor(_ factorID: String, challengeID: String, code: String) async throws -> User {
        try await operation {
            let code = code.filter { !$0.isWhitespace }
            guard !code.isEmpty else { throw AuthError.validationFailed("Enter the code from your authenticator app.") }
            let current = try await currentSessionForCall()
            let started = generation
            let raised = try await backend.verifyFactor(factorID, challengeID: challengeID, code: code, for: current)
            // The same sign-in at a higher level: it keeps its Sign in with Apple origin.
            let origin = raised.user.id == current.user.id ? current.appleSignInUserID : nil
            try await establish(raised, startedIn: started, appleSignInUserID: origin)
            return raised.user
        }
    }

    func challengeAndVerifyFactor(_ factorID: String, code: String) async throws -> User {
        let challenge = try await challengeFactor(factorID)
        return try await verifyFactor(factorID, challengeID: challenge.id, code: code)
    }

    func unenrollFactor(_ factorID: String, nonce: String?) async throws {
        try await operation {
            let nonce = try Self.reauthenticationCode(nonce)
            let current = try await currentSessionForCall()
            let started = generation
            try await explaining(.unenrolFactor) {
                try await backend.unenrollFactor(factorID, nonce: nonce, for: current)
            }
            guard started == generation else { throw AuthError.sessionSuperseded() }
            // The session may have relied on it: its next tokens say so.
            _ = try? await refreshedSession()
            await reloadUser()
        }
    }

    /// The signed-in session with an access token that is not about to expire.
    private func currentSessionForCall() async throws -> Session {
        _ = try await accessToken()
        guard let current = tokens else { throw AuthError.notSignedIn() }
        return current
    }

    /// Reads the user again (its factors changed), best-effort.
    private func reloadUser() async {
        guard let current = tokens, let user = try? await backend.user(for: current) else { return }
        await applyUser(user)
    }
}
