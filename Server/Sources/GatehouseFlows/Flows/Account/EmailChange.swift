import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// A new e-mail address (`PUT /user` with `email`), as GoTrue's secure e-mail change: the address
/// waits in `new_email` while a code goes to it and, when the current address is confirmed, a
/// second code goes to the current address. `POST /verify type=email_change` accepts either
/// (the new address with its code, the current address with its code); the change completes when
/// both are in, tells the old address, and ends every earlier session (`security.md` OWN-3, OWN-4).
///
/// A guest's address is the same pending `new_email` (`security.md` OWN-2): it confirms the new
/// side only and makes the guest permanent in place.
struct EmailChange: Sendable {
    let delivery: CodeDelivery

    /// What verifying one side's code leads to.
    enum Step: Sendable {
        /// The other side's code is still pending.
        case otherSidePending
        /// The address moved; the notice to the old address is queued in the transaction (the
        /// sender is woken after the commit).
        case completed(notice: Mail?)
        /// The change cannot complete (no pending address, or it was taken meanwhile).
        case refused(APIError)
    }

    /// The admitted mails of a change to a new address (``admit(_:for:client:now:)``).
    struct Mailing: Sendable {
        /// The new address's code.
        let newAddress: MailBudget.Admission
        /// The current, confirmed address's code (secure e-mail change), if it has one.
        let currentAddress: MailBudget.Admission?

        var all: [MailBudget.Admission] { [newAddress] + (currentAddress.map { [$0] } ?? []) }
    }

    /// The mail budgets' decision for a change of `user` to `email`, before anything is issued.
    func admit(_ email: String, for user: UserRecord, client: String, now: Date) async throws -> Mailing {
        let newAddress = try await delivery.admit(email, recipient: .unconfirmed, client: client, now: now)
        guard let current = user.email, user.emailConfirmedAt != nil, !user.isAnonymous else {
            return Mailing(newAddress: newAddress, currentAddress: nil)
        }
        do {
            let currentAddress = try await delivery.admit(current, recipient: .confirmed, client: client, now: now)
            return Mailing(newAddress: newAddress, currentAddress: currentAddress)
        } catch {
            await delivery.send(nil, admitted: newAddress)
            throw error
        }
    }

    /// Puts the new address in `user.newEmail` and issues the code(s) in `tx`.
    ///
    /// - Returns: The codes issued (their mails queued in `tx`), new address first, to pass to
    ///   ``CodeDelivery/send(_:admitted:)`` after the commit.
    func request(
        _ mailing: Mailing,
        for user: inout UserRecord,
        pkce: EmailPKCE? = nil,
        in tx: any StorageTransaction,
        now: Date
    ) async throws
        -> [IssuedCode?]
    {
        user.newEmail = mailing.newAddress.address
        user.emailChangeSentAt = now
        var issued = [
            try await delivery.issue(
                .emailChange,
                for: user.id,
                to: mailing.newAddress,
                spacing: .ignore,
                pkce: pkce,
                in: tx,
                now: now
            )
        ]
        if let current = mailing.currentAddress, user.email == current.address, user.emailConfirmedAt != nil,
            !user.isAnonymous
        {
            issued.append(
                try await delivery.issue(
                    .emailChangeCurrent,
                    for: user.id,
                    to: current,
                    spacing: .ignore,
                    pkce: pkce,
                    in: tx,
                    now: now
                )
            )
        } else {
            try await tx.deleteCode(userID: user.id, purpose: .emailChangeCurrent)
        }
        return issued
    }

    /// Applies a verified (and deleted) code of `.emailChange` or `.emailChangeCurrent` to `user`.
    func confirm(
        _ record: CodeRecord,
        user: inout UserRecord,
        in tx: any StorageTransaction,
        now: Date
    ) async throws -> Step {
        let other: CodePurpose = record.purpose == .emailChange ? .emailChangeCurrent : .emailChange
        if try await tx.code(userID: user.id, purpose: other) != nil { return .otherSidePending }
        guard let newEmail = user.newEmail else { return .refused(.otpExpired) }
        if let holder = try await tx.user(email: newEmail), holder.id != user.id { return .refused(Self.emailExists) }
        let old = user.emailConfirmedAt != nil && !user.isAnonymous ? user.email : nil
        user.email = newEmail
        user.emailConfirmedAt = now
        user.newEmail = nil
        user.emailChangeSentAt = nil
        user.passwordCode = nil
        if user.isAnonymous {
            user.isAnonymous = false
            var providers: [JSONValue] = []
            if case .array(let listed) = user.appMetadata["providers"] { providers = listed }
            if !providers.contains("email") { providers.insert("email", at: 0) }
            user.appMetadata["provider"] = "email"
            user.appMetadata["providers"] = .array(providers)
        }
        try await tx.deleteSessions(userID: user.id, except: nil)
        guard let old, old != newEmail else { return .completed(notice: nil) }
        let notice = AccountNotice.mail(.addressChanged, to: old)
        return .completed(notice: try await delivery.notify(notice, in: tx, now: now))
    }

    /// 422 `email_exists`.
    static let emailExists = APIError(
        .unprocessableContent,
        .emailExists,
        "A user with this email address has already been registered"
    )
}
