import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird

/// The admin API for `service_role` tokens: `/admin/users` (list, create, get, update, delete).
struct AdminController {
    let auth: AuthContext

    struct CreateUser: Decodable {
        var email: String?
        var password: String?
        var emailConfirm: Bool?
        var userMetadata: [String: JSONValue]?
        var appMetadata: [String: JSONValue]?
        var banDuration: String?

        enum CodingKeys: String, CodingKey {
            case email, password
            case emailConfirm = "email_confirm"
            case userMetadata = "user_metadata"
            case appMetadata = "app_metadata"
            case banDuration = "ban_duration"
        }
    }

    func register(on router: Router<AppRequestContext>) {
        router.get("admin/users") { request, _ in try await list(request) }
        router.post("admin/users") { request, context in try await create(request, context) }
        router.get("admin/users/:id") { request, context in
            _ = try await auth.requireAdmin(request)
            return try JSONBody.response(try await user(context).wire, request: request)
        }
        router.put("admin/users/:id") { request, context in try await update(request, context) }
        router.delete("admin/users/:id") { request, context in
            _ = try await auth.requireAdmin(request)
            let target = try await user(context)
            try await auth.storage.transaction { tx in
                try await tx.deleteUser(id: target.id)
                try await auth.audit("admin_user_deleted", actor: target.id, ip: context.clientKey, in: tx)
            }
            return try JSONBody.empty(request: request)
        }
    }

    private func user(_ context: AppRequestContext) async throws -> UserRecord {
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text),
            let user = try await auth.storage.read({ try await $0.user(id: id) })
        else { throw APIError(.notFound, .userNotFound, "User not found") }
        return user
    }

    private func list(_ request: Request) async throws -> Response {
        _ = try await auth.requireAdmin(request)
        let page = max(1, request.uri.queryParameters.get("page").flatMap(Int.init) ?? 1)
        let perPage = min(1000, max(1, request.uri.queryParameters.get("per_page").flatMap(Int.init) ?? 50))
        let (users, total) = try await auth.storage.transaction { tx in
            try await tx.listUsers(offset: (page - 1) * perPage, limit: perPage)
        }
        var response = try JSONBody.response(
            AdminUserList(users: users.map(\.wire), aud: "authenticated"),
            request: request
        )
        response.headers[HTTPField.Name("X-Total-Count")!] = String(total)
        let last = max(1, (total + perPage - 1) / perPage)
        var links = ["</admin/users?page=\(last)&per_page=\(perPage)>; rel=\"last\""]
        if page < last { links.insert("</admin/users?page=\(page + 1)&per_page=\(perPage)>; rel=\"next\"", at: 0) }
        response.headers[HTTPField.Name("Link")!] = links.joined(separator: ", ")
        return response
    }

    private func create(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        _ = try await auth.requireAdmin(request)
        let body = try await JSONBody.decode(CreateUser.self, from: request, context: context)
        let now = auth.now()
        let email = try body.email.map { try EmailAddress.normalized($0) }
        var hash: String?
        if let password = body.password {
            try auth.policy.check(password, email: email)
            hash = try await auth.passwords.hash(password)
        }
        var user = UserRecord(
            email: email,
            passwordHash: hash,
            emailConfirmedAt: body.emailConfirm == true ? now : nil,
            appMetadata: (body.appMetadata ?? [:]).merging(["provider": "email", "providers": ["email"]]) { old, _ in
                old
            },
            userMetadata: body.userMetadata ?? [:],
            createdAt: now,
            updatedAt: now
        )
        user.bannedUntil = try Self.banUntil(body.banDuration, now: now)
        let created = user
        do {
            try await auth.storage.transaction { tx in
                try await tx.insertUser(created)
                try await auth.audit("admin_user_created", actor: created.id, ip: context.clientKey, in: tx)
            }
        } catch StorageError.duplicateEmail {
            throw APIError(
                .unprocessableContent,
                .emailExists,
                "A user with this email address has already been registered"
            )
        }
        return try JSONBody.response(created.wire, request: request)
    }

    private func update(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        _ = try await auth.requireAdmin(request)
        let body = try await JSONBody.decode(CreateUser.self, from: request, context: context)
        let existing = try await user(context)
        let now = auth.now()
        let email = try body.email.map(EmailAddress.normalized)
        var newHash: String?
        if let password = body.password {
            try auth.policy.check(password, email: email ?? existing.email)
            newHash = try await auth.passwords.hash(password)
        }
        let bannedUntil = body.banDuration != nil ? try Self.banUntil(body.banDuration, now: now) : nil
        let hash = newHash
        let updated: UserRecord
        do {
            // The changes apply to the row as it is inside the transaction, not as read before
            // the password hash (another request may have changed it meanwhile).
            updated = try await auth.storage.transaction { tx in
                guard var target = try await tx.user(id: existing.id) else {
                    throw APIError(.notFound, .userNotFound, "User not found")
                }
                if let email { target.email = email }
                if let hash { target.passwordHash = hash }
                if body.emailConfirm == true { target.emailConfirmedAt = target.emailConfirmedAt ?? now }
                if let data = body.userMetadata { target.userMetadata.merge(data) { _, new in new } }
                if let data = body.appMetadata { target.appMetadata.merge(data) { _, new in new } }
                if body.banDuration != nil { target.bannedUntil = bannedUntil }
                target.updatedAt = now
                try await tx.updateUser(target)
                if target.isBanned(at: now) { try await tx.deleteSessions(userID: target.id, except: nil) }
                try await auth.audit("admin_user_modified", actor: target.id, ip: context.clientKey, in: tx)
                return target
            }
        } catch StorageError.duplicateEmail {
            throw APIError(
                .unprocessableContent,
                .emailExists,
                "A user with this email address has already been registered"
            )
        }
        return try JSONBody.response(updated.wire, request: request)
    }

    /// `"none"` clears a ban; `"24h"`, `"30m"`, `"90s"` set one.
    static func banUntil(_ duration: String?, now: Date) throws -> Date? {
        guard let duration, duration != "none" else { return nil }
        guard let unit = duration.last, let amount = Double(duration.dropLast()), amount > 0 else {
            throw APIError.validation("ban_duration must look like 24h, 30m or none")
        }
        switch unit {
        case "h": return now.addingTimeInterval(amount * 3600)
        case "m": return now.addingTimeInterval(amount * 60)
        case "s": return now.addingTimeInterval(amount)
        default: throw APIError.validation("ban_duration must look like 24h, 30m or none")
        }
    }
}

struct AdminUserList: Encodable {
    var users: [WireUser]
    var aud: String
}
