import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /invite`: creates an account for an address and mails it an invitation code, which
/// signs the user in (`type=invite`).
package struct Invitation: Sendable {
    /// The body of `POST /invite`.
    package struct Request: Decodable, Sendable {
        var email: String
        var data: [String: JSONValue]?
    }

    let storage: any AuthStorage
    let delivery: CodeDelivery
    let audit: AuditLog
    let metadataLimit: MetadataLimit
    let now: @Sendable () -> Date

    /// Invites `body.email`, or throws 422 `email_exists`.
    package func callAsFunction(_ body: Request, ip: String) async throws -> WireUser {
        let user = try await invite(body, ip: ip)
        AuthMetrics.signUp(.invite)
        return user
    }

    private func invite(_ body: Request, ip: String) async throws -> WireUser {
        let email = try EmailAddress.normalized(body.email)
        let now = now()
        try metadataLimit.check(body.data)
        let admitted = try await delivery.admit(email, recipient: .unconfirmed, client: ip, now: now)
        let (user, issued): (UserRecord, IssuedCode?) = try await storage.transaction { tx in
            if try await tx.user(email: email) != nil {
                throw APIError(
                    .unprocessableContent,
                    .emailExists,
                    "A user with this email address has already been registered"
                )
            }
            let user = UserRecord.emailAccount(email, confirmationSentAt: now, metadata: body.data, now: now)
            try await tx.insertUser(user)
            let issued = try await delivery.issue(
                .invite,
                for: user.id,
                to: admitted,
                spacing: .ignore,
                in: tx,
                now: now
            )
            try await audit.record(.userInvited, actor: user.id, ip: ip, in: tx)
            return (user, issued)
        }
        await delivery.send(issued, admitted: admitted)
        var wire = user.wire
        wire.invitedAt = now
        return wire
    }
}
