import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// The forms of a user's console page, each a POST behind ``ConsoleSessionMiddleware`` (a live
/// operator session and the page's CSRF token), each calling the admin API's own flow with
/// the operator as the audit line's actor and the user as its subject: no second
/// implementation. A factor or passkey is looked up among the route's user's only, so another
/// user's id is 404 and touches nothing. A refusal (a wrong typed confirmation, a confirmed
/// address, a send within the spacing) shows the user's page again with what went wrong.
struct ConsoleUserActions: Sendable {
    let lookup: AdminUserLookup
    let update: AdminUserUpdate
    let ending: AdminSessionEnding
    let unenrollment: FactorUnenrollment
    let passkeys: PasskeyManagement
    let recovery: PasswordRecovery
    let resend: CodeResend
    let deletion: AdminUserDeletion
    let page: ConsoleUserPage
    let storage: any AuthStorage
    let audit: AuditLog

    func register(on router: RouterGroup<ConsoleRequestContext>) {
        router.post("users/:id/ban") { _, context in
            let form = context.form
            guard let period = form[.duration].flatMap(ConsoleBanPeriod.init(rawValue:)) else {
                throw APIError.validation("Choose one of the offered ban periods.")
            }
            return try await act(on: context, done: .banned) { user, signedIn in
                _ = try await update(
                    AdminUserRequest(banDuration: period.rawValue),
                    of: user,
                    ip: context.clientKey,
                    operator: signedIn.user.id
                )
            }
        }
        router.post("users/:id/unban") { _, context in
            try await act(on: context, done: .unbanned) { user, signedIn in
                _ = try await update(
                    AdminUserRequest(banDuration: "none"),
                    of: user,
                    ip: context.clientKey,
                    operator: signedIn.user.id
                )
            }
        }
        router.post("users/:id/sessions/:sid/end") { _, context in
            try await act(on: context, done: .sessionEnded) { user, signedIn in
                try await ending(
                    ConsoleController.uuid(context, "sid"),
                    of: user,
                    ip: context.clientKey,
                    operator: signedIn.user.id
                )
            }
        }
        router.post("users/:id/sessions/end") { _, context in
            try await act(on: context, done: .sessionsEnded) { user, signedIn in
                try await ending.all(of: user, ip: context.clientKey, operator: signedIn.user.id)
            }
        }
        router.post("users/:id/factors/:fid/remove") { _, context in
            try await act(on: context, done: .factorRemoved) { user, signedIn in
                guard let factorID = ConsoleController.uuid(context, "fid") else { throw MFAAccess.factorNotFound }
                _ = try await unenrollment.admin(
                    factorID: factorID,
                    userID: user.id,
                    ip: context.clientKey,
                    operator: signedIn.user.id
                )
            }
        }
        router.post("users/:id/passkeys/:pid/remove") { _, context in
            try await act(on: context, done: .passkeyRemoved) { user, signedIn in
                try await passkeys.adminRemove(
                    userID: user.id,
                    passkeyID: ConsoleController.uuid(context, "pid"),
                    ip: context.clientKey,
                    operator: signedIn.user.id
                )
            }
        }
        router.post("users/:id/recovery") { _, context in
            try await act(on: context, done: .recoverySent) { user, signedIn in
                try await recovery.send(to: user, ip: context.clientKey, operator: signedIn.user.id)
            }
        }
        router.post("users/:id/confirmation") { _, context in
            try await act(on: context, done: .confirmationResent) { user, signedIn in
                try await resend.resendConfirmation(to: user, ip: context.clientKey, operator: signedIn.user.id)
            }
        }
        router.post("users/:id/delete") { _, context in
            let typed = context.form[.confirm]
            return try await act(on: context, done: .userDeleted, returnTo: .users) { user, signedIn in
                let confirmation = ConsoleDeletionConfirmation(for: user)
                guard confirmation.isConfirmed(by: typed) else {
                    try await storage.transaction { tx in
                        try await audit.record(
                            .consoleDeletionRefused,
                            actor: signedIn.user.id,
                            ip: context.clientKey,
                            detail: String((typed ?? "").prefix(64)),
                            subject: user.id,
                            in: tx
                        )
                    }
                    throw confirmation.refusal
                }
                try await deletion(user, ip: context.clientKey, operator: signedIn.user.id)
            }
        }
    }

    /// Where the browser goes after an action that worked.
    private enum Destination {
        /// The user's page.
        case user
        /// The users page (the user is gone).
        case users
    }

    /// Runs `action` on the user of the route's `:id` and sends the browser back to their page
    /// (or to the users page); a refusal shows their page with its message, at its status.
    private func act(
        on context: ConsoleRequestContext,
        done: ConsoleNotice,
        returnTo destination: Destination = .user,
        _ action: (UserRecord, ConsoleOperator) async throws -> Void
    ) async throws -> Response {
        let signedIn = context.signedIn
        let user = try await lookup.user(ConsoleController.uuid(context, "id"))
        do {
            try await action(user, signedIn)
        } catch let refusal as APIError where refusal.status != .internalServerError {
            let current = try await lookup.user(user.id)
            let notice = ConsoleLayout.notice(refusal.message, isError: true)
            return ConsoleResponse.html(
                try await page.render(current, notice: notice, operator: signedIn),
                status: refusal.status
            )
        }
        let path =
            switch destination {
            case .user: "/console/users/\(user.id.key)?done=\(done.rawValue)"
            case .users: "/console/users?done=\(done.rawValue)"
            }
        return ConsoleResponse.redirect(ConsoleReturnPath(trusted: path))
    }
}
