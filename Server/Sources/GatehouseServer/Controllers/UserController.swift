import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird

/// `POST /logout`, `GET /user`, `PUT /user`, `DELETE /user`.
struct UserController {
    let auth: AuthContext

    func register(on router: Router<AppRequestContext>) {
        router.post("logout") { request, context in try await logout(request, context) }
        router.get("user") { request, _ in
            try JSONBody.response(try await auth.caller(request).user.wire, request: request)
        }
        router.put("user") { request, context in try await update(request, context) }
        router.delete("user") { request, context in try await delete(request, context) }
    }

    func logout(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let scope: LogoutScope
        switch request.uri.queryParameters.get("scope") {
        case nil, "global": scope = .global
        case "local": scope = .local
        case "others": scope = .others
        default: throw APIError.validation("Unsupported logout scope")
        }
        let caller = try await auth.caller(request)
        let ip = context.clientKey
        try await auth.storage.transaction { tx in
            switch scope {
            case .local: try await tx.deleteSession(id: caller.session.id)
            case .global: try await tx.deleteSessions(userID: caller.user.id, except: nil)
            case .others: try await tx.deleteSessions(userID: caller.user.id, except: caller.session.id)
            }
            try await auth.audit("logout", actor: caller.user.id, ip: ip, detail: scope.rawValue, in: tx)
        }
        return Response(status: .noContent)
    }

    func update(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(UpdateUserRequest.self, from: request, context: context)
        let caller = try await auth.caller(request)
        let now = auth.now()
        var newHash: String?
        if let password = body.password {
            try auth.policy.check(password, email: body.email ?? caller.user.email)
            if let current = caller.user.passwordHash, try await auth.passwords.verify(password, hash: current) {
                throw APIError(
                    .unprocessableContent,
                    .samePassword,
                    "New password should be different from the old password."
                )
            }
            if let currentPassword = body.currentPassword {
                guard try await auth.passwords.verify(currentPassword, hash: caller.user.passwordHash) else {
                    throw APIError(.badRequest, .currentPasswordInvalid, "Current password is incorrect")
                }
            } else if !caller.user.isAnonymous, caller.user.passwordHash != nil, body.nonce == nil,
                now.timeIntervalSince(caller.session.createdAt) > 24 * 3600
            {
                throw APIError(.badRequest, .reauthenticationNeeded, "Password update requires reauthentication")
            }
            newHash = try await auth.passwords.hash(password)
        }
        let nonce = body.nonce
        let autoconfirm = auth.configuration.mailerAutoconfirm
        let hash = newHash
        let ip = context.clientKey
        let (updated, mails): (UserRecord, [Mail?]) = try await auth.storage.transaction { tx in
            // Changes apply to the row as it is now, not as the request's session check read it
            // (a password hash above took a while).
            guard var user = try await tx.user(id: caller.user.id) else { throw APIError.userNotFoundForToken }
            var mails: [Mail?] = []
            if let nonce { try await auth.codes.consumeReauthentication(nonce, userID: user.id, in: tx, now: now) }
            if let hash { user.passwordHash = hash }
            if let data = body.data { user.userMetadata.merge(data) { _, new in new } }
            if let raw = body.email {
                let email = try EmailAddress.normalized(raw)
                if email != user.email {
                    if let owner = try await tx.user(email: email), owner.id != user.id {
                        throw APIError(
                            .unprocessableContent,
                            .emailExists,
                            "A user with this email address has already been registered"
                        )
                    }
                    if user.isAnonymous {
                        user.email = email
                        user.appMetadata = ["provider": "email", "providers": ["email"]]
                        if autoconfirm {
                            user.emailConfirmedAt = now
                        } else {
                            mails.append(
                                try await auth.delivery.issue(
                                    .signup,
                                    for: user.id,
                                    to: email,
                                    spacing: .ignore,
                                    in: tx,
                                    now: now
                                )
                            )
                            user.confirmationSentAt = now
                        }
                    } else {
                        mails.append(
                            try await auth.delivery.issue(
                                .emailChange,
                                for: user.id,
                                to: email,
                                spacing: .ignore,
                                in: tx,
                                now: now
                            )
                        )
                    }
                }
            }
            if user.isAnonymous, user.email != nil, user.passwordHash != nil, user.emailConfirmedAt != nil {
                user.isAnonymous = false
            }
            if user.isAnonymous, body.password != nil, user.email == nil {
                throw APIError(
                    .unprocessableContent,
                    .validationFailed,
                    "Updating password of an anonymous user without an email is not allowed"
                )
            }
            user.updatedAt = now
            do {
                try await tx.updateUser(user)
            } catch StorageError.duplicateEmail {
                throw APIError(
                    .unprocessableContent,
                    .emailExists,
                    "A user with this email address has already been registered"
                )
            }
            try await auth.audit("user_modified", actor: user.id, ip: ip, in: tx)
            return (user, mails)
        }
        for mail in mails { auth.delivery.send(mail) }
        return try JSONBody.response(updated.wire, request: request)
    }

    /// Self-service account deletion: needs a sign-in within the last 24 hours.
    /// Self-service deletion: needs a sign-in within the last 24 hours or a reauthentication
    /// nonce (`{"nonce": "123456"}`, from `GET /reauthenticate`). The user, identities,
    /// sessions and codes go in one transaction (by cascade), recorded in the audit log.
    func delete(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(DeleteUserRequest.self, from: request, context: context)
        let caller = try await auth.caller(request)
        let now = auth.now()
        let lastAuthentication = caller.session.amr.map(\.timestamp).max() ?? 0
        let recent = now.timeIntervalSince1970 - Double(lastAuthentication) <= 24 * 3600
        guard recent || body.nonce != nil else {
            throw APIError(
                .badRequest,
                .reauthenticationNeeded,
                "Deleting the account requires a recent sign-in or a reauthentication code"
            )
        }
        let ip = context.clientKey
        try await auth.storage.transaction { tx in
            if let nonce = body.nonce {
                try await auth.codes.consumeReauthentication(nonce, userID: caller.user.id, in: tx, now: now)
            }
            try await tx.deleteUser(id: caller.user.id)
            try await auth.audit("user_deleted", actor: caller.user.id, ip: ip, detail: "self-service", in: tx)
        }
        return try JSONBody.empty(request: request)
    }

    /// The optional body of `DELETE /user`.
    struct DeleteUserRequest: Decodable {
        var nonce: String?
    }
}
