import Foundation
import GatehouseCore
import HTTPTypes

/// `DELETE /user/sessions/{id}`: the caller ends one of its own sessions at once; the next
/// request with one of its access tokens is refused (``Authenticator`` reads the session), and
/// its refresh token is not found.
///
/// Ending the caller's own session needs nothing more (it is a sign-out). Ending another one
/// needs a sign-in within the last 24 hours or a reauthentication `nonce`, and counts against the
/// per-user limit of sensitive changes (``ReauthenticationCheck``), as `DELETE /user` does: a
/// stolen, older access token cannot throw the owner out of their other devices. An id that is
/// not one of the caller's sessions, whether another user's or none at all, answers the same
/// 404 `not_found`.
struct SessionEnding: Sendable {
    let storage: any AuthStorage
    let check: ReauthenticationCheck
    let audit: AuditLog
    let now: @Sendable () -> Date

    /// How long after a sign-in ending another session needs no reauthentication code.
    static let recentSignIn: TimeInterval = 24 * 3600

    /// Ends the session `id` of `caller`'s user.
    ///
    /// - Throws: 404 `not_found`, 400 `reauthentication_needed`, 422 `reauthentication_not_valid`, 429.
    func callAsFunction(_ id: UUID?, caller: Caller, nonce: String?, ip: String) async throws {
        let now = now()
        guard let id else { throw Self.notFound }
        if id != caller.session.id {
            let lastAuthentication = caller.session.amr.map(\.timestamp).max() ?? 0
            let recent = now.timeIntervalSince1970 - Double(lastAuthentication) <= Self.recentSignIn
            guard recent || nonce != nil else {
                throw APIError(
                    .badRequest,
                    .reauthenticationNeeded,
                    "Ending another session requires a recent sign-in or a reauthentication code"
                )
            }
            try await check(nonce, userID: caller.user.id, now: now)
        }
        try await storage.transaction { tx in
            guard try await tx.deleteSession(id: id, userID: caller.user.id) else { throw Self.notFound }
            try await audit.record(
                "session_ended",
                actor: caller.user.id,
                ip: ip,
                detail: id == caller.session.id ? "own" : "other",
                in: tx
            )
        }
    }

    /// The answer for an id that is not one of the user's sessions (never saying whose it is).
    static let notFound = APIError(.notFound, .notFound, "No session with this id")
}
