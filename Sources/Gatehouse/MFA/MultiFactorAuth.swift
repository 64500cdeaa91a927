/// Second factors (authenticator apps) of the signed-in user, as ``AuthService/mfa`` offers
/// them, after GoTrue's `auth.mfa`.
///
/// After a password or code sign-in of a user with a verified factor, the session is at AAL1
/// and the state is ``AuthState/secondFactorRequired(_:)`` until a code is verified:
///
/// ```swift
/// if case .secondFactorRequired(let user) = auth.state, let factor = user.factors.first(where: \.isVerified) {
///     try await auth.mfa.challengeAndVerify(factorID: factor.id, code: typedCode)
/// }
/// ```
@MainActor
public struct MultiFactorAuth {
    let service: AuthService

    /// Enrols a new authenticator app: show its QR code or secret, then verify its first code
    /// with ``challengeAndVerify(factorID:code:)`` within 5 minutes.
    ///
    /// A sensitive action (``SensitiveAction/enrolFactor``): more than 10 minutes after the
    /// sign-in the server asks for a reauthentication code (``ErrorCode/reauthenticationNeeded``,
    /// see ``AuthService/withReauthentication(_:asking:perform:)``), and a user who has a verified
    /// factor must be at AAL2 to add another (``ErrorCode/insufficientAAL``).
    ///
    /// - Parameters:
    ///   - friendlyName: A name for the app, unique per account.
    ///   - nonce: The code ``AuthService/reauthenticate()`` e-mailed, when the server asks for one.
    public func enrollTOTP(friendlyName: String? = nil, nonce: String? = nil) async throws -> TOTPEnrollment {
        try await service.enrollTOTP(friendlyName: friendlyName, nonce: nonce)
    }

    /// Starts a challenge of a factor (valid for 5 minutes).
    public func challenge(factorID: String) async throws -> FactorChallenge {
        try await service.challengeFactor(factorID)
    }

    /// Verifies an app's code for a challenge: the session rises to AAL2 and the user is signed
    /// in completely (an unverified factor becomes verified).
    @discardableResult
    public func verify(factorID: String, challengeID: String, code: String) async throws -> User {
        try await service.verifyFactor(factorID, challengeID: challengeID, code: code)
    }

    /// ``challenge(factorID:)`` and ``verify(factorID:challengeID:code:)`` in one call.
    @discardableResult
    public func challengeAndVerify(factorID: String, code: String) async throws -> User {
        try await service.challengeAndVerifyFactor(factorID, code: code)
    }

    /// Removes a factor; sessions that relied on it drop to AAL1.
    ///
    /// A sensitive action (``SensitiveAction/unenrolFactor``): more than 10 minutes after the
    /// sign-in the server asks for a reauthentication code (``ErrorCode/reauthenticationNeeded``),
    /// and a user with a verified factor needs an AAL2 session (``ErrorCode/insufficientAAL``).
    ///
    /// - Parameters:
    ///   - factorID: The factor to remove.
    ///   - nonce: The code ``AuthService/reauthenticate()`` e-mailed, when the server asks for one.
    public func unenroll(factorID: String, nonce: String? = nil) async throws {
        try await service.unenrollFactor(factorID, nonce: nonce)
    }

    /// The signed-in user's factors, verified or not.
    public var factors: [Factor] { service.currentUser?.factors ?? [] }

    /// The session's assurance level and the one the user's factors reach; `nil` when signed out.
    public var assuranceLevel: AssuranceLevel? { service.assuranceLevel }
}
