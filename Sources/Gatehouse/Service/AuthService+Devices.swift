public import Foundation

/// The places the user is signed in: list them, end one.
///
/// ```swift
/// let devices = try await auth.sessions()
/// if let old = devices.first(where: { !$0.isCurrent }) {
///     try await auth.endSession(id: old.id)
/// }
/// ```
extension AuthService {
    /// The signed-in user's sessions, one per device, newest first; ``DeviceSession/isCurrent``
    /// marks this device's own.
    ///
    /// - Throws: ``ErrorCode/notSignedIn``; a definitive answer (this session was ended from
    ///   another device) also signs out here.
    public func sessions() async throws -> [DeviceSession] {
        try await operation {
            let current = try await liveTokens()
            return try await signingOutWhenEnded(current) { try await backend.sessions(for: current) }
        }
    }

    /// Ends one of the user's sessions at once: that device's next request finds it signed out.
    /// Ending this device's own session signs out here too.
    ///
    /// - Parameters:
    ///   - id: The session's ``DeviceSession/id``.
    ///   - nonce: A reauthentication code, which a server asks for
    ///     (``ErrorCode/reauthenticationNeeded``) when ending another device's session long
    ///     after this one signed in.
    /// - Throws: ``ErrorCode/notFound`` when the id is not one of the user's sessions.
    public func endSession(id: UUID, nonce: String? = nil) async throws {
        try await operation {
            let nonce = try Self.reauthenticationCode(nonce)
            let current = try await liveTokens()
            let started = generation
            let ended = try await explaining(.endOtherSession) {
                try await signingOutWhenEnded(current) {
                    try await backend.endSession(id: id, nonce: nonce, for: current)
                }
            }
            guard ended == .current, started == generation else { return }
            if let failure = await endSessionLocally(event: .signedOut) { throw failure }
        }
    }

    /// The current tokens, refreshed first when they are about to expire.
    func liveTokens() async throws -> Session {
        _ = try await accessToken()
        guard let current = tokens else { throw AuthError.notSignedIn() }
        return current
    }

    /// Runs a backend call with `current`; a definitive answer signs out as a refresh would.
    func signingOutWhenEnded<Result>(
        _ current: Session,
        _ call: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await call()
        } catch {
            let authError = AuthError.wrapping(error)
            if authError.endsSession { await handleSessionEnded(by: authError, rejected: current) }
            throw authError
        }
    }
}
