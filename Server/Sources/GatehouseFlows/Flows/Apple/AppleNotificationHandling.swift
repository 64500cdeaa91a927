import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /apple/notifications`: what Apple tells the server about a user's Apple account
/// (``AppleNotification``), applied to the identity with that Apple `sub`, in one transaction:
/// - `consent-revoked` (the user stopped using Sign in with Apple with the app): the sessions
///   Sign in with Apple opened end, and the stored Apple token is forgotten (Apple revoked it);
/// - `account-delete` (the user deleted their Apple account): the same, and the identity goes;
///   the user goes too only when Apple was the only way in: no confirmed address (e-mailed codes
///   sign in with it) other than Apple's private relay, no password, no other identity, no passkey;
/// - `email-disabled` / `email-enabled`: the identity's `email_disabled` flag (in
///   `identity_data`), unless a later e-mail event was applied already.
///
/// A notification is applied once: its `jti` is kept until a replay could no longer be accepted
/// (``AppleNotification/acceptedUntil``), in the same transaction as its effect, so a captured
/// notification posted again answers 200 and changes nothing (it would otherwise end the
/// sessions the user opened since). An event for an identity that is gone changes nothing and
/// answers 200 too (Apple retries on anything else).
package struct AppleNotificationHandling: Sendable {
    let storage: any AuthStorage
    let keys: ProviderKeySet
    let clientIDs: [String]
    let leeway: TimeInterval
    let audit: AuditLog
    let now: @Sendable () -> Date

    /// The most sessions one event ends (a user has far fewer).
    static let sessionLimit = 10_000

    package func callAsFunction(payload: String) async throws {
        let now = now()
        let notification = try await AppleNotification.verify(
            payload,
            keys: keys,
            clientIDs: clientIDs,
            leeway: leeway,
            now: now
        )
        try await storage.transaction { tx in
            guard
                try await tx.consumeNonce(
                    provider: AppleNotification.replayScope,
                    hash: notification.replayID,
                    expiresAt: notification.acceptedUntil,
                    now: now
                )
            else { return }
            guard
                var identity = try await tx.identity(
                    provider: IdentityProvider.apple.name,
                    subject: notification.subject
                )
            else { return }
            let userID = identity.userID
            switch notification.kind {
            case .emailDisabled, .emailEnabled:
                let time = notification.eventTime ?? now.timeIntervalSince1970
                if case .number(let applied) = identity.data["email_event_time"], applied > time { return }
                identity.data["email_disabled"] = .bool(notification.kind == .emailDisabled)
                identity.data["email_event_time"] = .number(time)
                identity.updatedAt = now
                try await tx.updateIdentity(identity)
            case .consentRevoked:
                try await endAppleSessions(userID: userID, in: tx)
                try await tx.deleteAppleToken(identityID: identity.id)
            case .accountDelete:
                try await endAppleSessions(userID: userID, in: tx)
                guard let user = try await tx.user(id: userID) else { return }
                let others = user.identities.count(where: { $0.id != identity.id })
                let passkeys = try await tx.passkeys(userID: userID).count
                // Apple's private relay stops forwarding with the Apple account: no way in then.
                let relayed = user.email?.hasSuffix("@" + AppleNotification.privateRelayDomain) ?? false
                let signsInByEmail =
                    user.email != nil && !relayed && (user.emailConfirmedAt != nil || user.passwordHash != nil)
                if others == 0, passkeys == 0, !signsInByEmail {
                    try await tx.deleteUser(id: userID)
                    try await audit.record(
                        .userDeleted,
                        actor: userID,
                        ip: nil,
                        detail: "apple account-delete",
                        in: tx
                    )
                } else {
                    _ = try await tx.deleteIdentity(id: identity.id, userID: userID)
                }
            }
            try await audit.record(
                .appleNotification,
                actor: userID,
                ip: nil,
                detail: notification.kind.rawValue,
                in: tx
            )
        }
    }

    /// Deletes the user's sessions opened by Sign in with Apple; sessions from before
    /// providers were recorded (an `oauth` entry without one) end too, erring on the safe side.
    private func endAppleSessions(userID: UUID, in tx: any StorageTransaction) async throws {
        let sessions = try await tx.sessions(
            userID: userID,
            createdAfter: .distantPast,
            refreshedAfter: .distantPast,
            limit: Self.sessionLimit
        )
        for session in sessions
        where session.amr.contains(where: {
            $0.method == .oauth && ($0.provider == nil || $0.provider == IdentityProvider.apple.name)
        }) {
            try await tx.deleteSession(id: session.id)
        }
    }
}
