import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `GET /reauthenticate`: mails the signed-in caller a code that `PUT /user` and
/// `DELETE /user` accept as `nonce` in place of a recent sign-in.
package struct Reauthentication: Sendable {
    let storage: any AuthStorage
    let delivery: CodeDelivery
    let now: @Sendable () -> Date

    package func callAsFunction(_ caller: Caller, ip: String) async throws {
        let now = now()
        guard let email = caller.user.email, caller.user.emailConfirmedAt != nil else {
            throw APIError(.unprocessableContent, .emailNotConfirmed, "Email not confirmed")
        }
        let admitted = try await delivery.admit(email, recipient: .confirmed, client: ip, now: now)
        do {
            let issued = try await storage.transaction { tx in
                try await delivery.issue(
                    .reauthentication,
                    for: caller.user.id,
                    to: admitted,
                    spacing: .refuse,
                    in: tx,
                    now: now
                )
            }
            await delivery.send(issued, admitted: admitted)
        } catch {
            await delivery.send(nil, admitted: admitted)
            throw error
        }
    }
}
