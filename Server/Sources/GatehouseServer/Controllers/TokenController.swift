import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird

/// `POST /token?grant_type=password|refresh_token|id_token`.
struct TokenController {
    let auth: AuthContext
    let refresh: RefreshRotation

    func register(on router: Router<AppRequestContext>) {
        router.post("token") { request, context in try await token(request, context) }
    }

    func token(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let now = auth.now()
        try await auth.limiter.hit(
            .token,
            key: context.clientKey,
            limit: auth.configuration.rateLimits.token,
            window: 300,
            now: now
        )
        switch request.uri.queryParameters.get("grant_type") {
        case "password":
            let body = try await JSONBody.decode(PasswordGrantRequest.self, from: request, context: context)
            return try JSONBody.response(try await password(body, ip: context.clientKey, now: now), request: request)
        case "refresh_token":
            let body = try await JSONBody.decode(RefreshTokenGrantRequest.self, from: request, context: context)
            return try JSONBody.response(
                try await refresh(body.refreshToken, ip: context.clientKey, now: now),
                request: request
            )
        case "id_token":
            let body = try await JSONBody.decode(IDTokenGrantRequest.self, from: request, context: context)
            // The bearer matters only for linking (clients may send an API key on every call).
            let caller = body.linkIdentity == true ? try await auth.caller(request) : nil
            return try JSONBody.response(
                try await IDTokenSignIn(auth: auth).signIn(body, caller: caller, ip: context.clientKey, now: now),
                request: request
            )
        default:
            throw APIError(.badRequest, .invalidCredentials, "Unsupported grant type")
        }
    }

    func password(_ body: PasswordGrantRequest, ip: String, now: Date) async throws -> WireSession {
        guard let rawEmail = body.email, !body.password.isEmpty else { throw APIError.invalidCredentials }
        let email = rawEmail.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let limits = auth.configuration.rateLimits
        if let retry = try await auth.limiter.isLimited(
            .failedPassword,
            key: email,
            limit: limits.failedPasswordsPerAccount,
            window: 3600,
            now: now
        ) {
            throw APIError.rateLimited(retryAfter: retry)
        }
        let user = try await auth.storage.read { try await $0.user(email: email) }
        // Always one bcrypt verification, against a dummy hash for unknown users.
        let matches = try await auth.passwords.verify(
            body.password,
            hash: body.password.utf8.count > 72 ? nil : user?.passwordHash
        )
        guard let user, matches else {
            try? await auth.limiter.hit(.failedPassword, key: email, limit: Int.max, window: 3600, now: now)
            try await auth.storage.transaction { tx in
                try await auth.audit("login_failed", actor: user?.id, ip: ip, in: tx)
            }
            throw APIError.invalidCredentials
        }
        try Self.checkCanSignIn(user, now: now)
        let verified = user
        // bcrypt ran outside any transaction: read the user again inside this one, so that a
        // password change, ban or deletion that landed meanwhile wins, and nothing else of the
        // user is written back from the older read.
        let grant = try await auth.storage.transaction { tx in
            guard var current = try await tx.user(id: verified.id), current.passwordHash == verified.passwordHash
            else { throw APIError.invalidCredentials }
            try Self.checkCanSignIn(current, now: now)
            current.lastSignInAt = now
            current.updatedAt = now
            try await tx.updateUser(current)
            try await auth.audit("login", actor: current.id, ip: ip, in: tx)
            return try await auth.issueSession(for: current, method: "password", in: tx, at: now)
        }
        return try await auth.wireSession(grant, now: now)
    }

    /// A user whose password matched may still not sign in: unconfirmed e-mail, or banned.
    private static func checkCanSignIn(_ user: UserRecord, now: Date) throws {
        if user.emailConfirmedAt == nil {
            throw APIError(.badRequest, .emailNotConfirmed, "Email not confirmed")
        }
        if user.isBanned(at: now) { throw APIError.userBanned }
    }
}
