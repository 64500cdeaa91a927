package import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `DELETE /user/sessions/{id}`: the caller ends one of its own sessions at once; the next
/// request with one of its access tokens is refused (``Authenticator`` reads the session), and
/// its refresh token is not found.
///
/// Ending the caller's own session needs nothing more (it is a sign-out). Ending another one is
/// ``SensitiveAction/endOtherSession``: a sign-in within 10 minutes or a reauthentication
/// `nonce`, and AAL2 from a user with a verified factor (``SensitiveActionPolicy``), so that a
/// stolen, older or password-only access token cannot throw the owner out of their other
/// devices. An id that is not one of the caller's sessions, whether another user's or none at
/// all, answers the same 404 `not_found`.
package struct SessionEnding: Sendable {
    let storage: any AuthStorage
    let sensitive: SensitiveActionGuard
    let audit: AuditLog

    /// Ends the session `id` of `caller`'s user.
    ///
    /// - Throws: 404 `not_found`, 401 `insufficient_aal`, 400 `reauthentication_needed`,
    ///   422 `reauthentication_not_valid`, 429.
    package func callAsFunction(_ id: UUID?, caller: Caller, nonce: String?, ip: String) async throws {
        guard let id else { throw Self.notFound }
        if id != caller.session.id {
            _ = try await sensitive.authorize(.endOtherSession, caller, evidence: .init(nonce: nonce), ip: ip)
        }
        try await storage.transaction { tx in
            guard try await tx.deleteSession(id: id, userID: caller.user.id) else { throw Self.notFound }
            try await audit.record(
                .sessionEnded,
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
