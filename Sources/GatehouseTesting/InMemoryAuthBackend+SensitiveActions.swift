import Foundation
import Gatehouse

/// The server's table of sensitive actions (`SensitiveActionPolicy`), as this backend keeps it:
/// AAL2 whenever the user has a verified factor (answered with the status the server gives the
/// action), and for most actions a sign-in or second-factor verification within 10 minutes. This
/// backend sends no reauthentication codes, so a `nonce` is never valid. A guest with no way in
/// besides its session (no provider, no passkey) has nothing to protect and needs no proof.
extension InMemoryAuthBackend {
    /// How recent a session's authentication must be (seconds), as on the server.
    static let recentAuthentication: TimeInterval = 600

    /// Throws unless the caller of `access` may `purpose` ("delete the account") now.
    ///
    /// - Parameters:
    ///   - needsRecentSignIn: `false` for the actions that need only AAL2 (listing sessions).
    ///   - aalStatus: The status of the `insufficient_aal` answer (401, 403 enrolment, 422 removal).
    func authorizeSensitive(
        _ purpose: String,
        _ access: AccessRecord,
        nonce: String? = nil,
        needsRecentSignIn: Bool = true,
        aalStatus: Int = 401
    ) throws {
        try requireAAL2(access, for: purpose, status: aalStatus)
        guard needsRecentSignIn else { return }
        if let nonce, !nonce.isEmpty { throw Self.reauthenticationNotValid() }
        guard let record = sessions[access.sessionID],
            now.timeIntervalSince(record.authenticatedAt) > Self.recentAuthentication, !hasNoWayIn(access.userID)
        else { return }
        throw AuthError(
            code: .reauthenticationNeeded,
            message: "To \(purpose) you need a sign-in within the last 10 minutes or a reauthentication code.",
            recoverySuggestion: "Sign in again, then try again.",
            httpStatus: 400
        )
    }

    /// A guest with no provider identity and no passkey.
    private func hasNoWayIn(_ userID: String) -> Bool {
        guard let account = accounts[userID] else { return false }
        return account.user.isAnonymous && account.identities.isEmpty && (passkeyEntries[userID] ?? []).isEmpty
    }
}
