import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird

/// `POST /otp`, `POST /verify`, `GET /verify`, `POST /recover`, `POST /resend`, `GET /reauthenticate`.
struct CodeController {
    let auth: AuthContext

    func register(on router: Router<AppRequestContext>) {
        router.post("otp") { request, context in try await otp(request, context) }
        router.post("verify") { request, context in
            let body = try await JSONBody.decode(VerifyRequest.self, from: request, context: context)
            return try JSONBody.response(try await verify(body, ip: context.clientKey), request: request)
        }
        router.get("verify") { request, context in try await verifyLink(request, context) }
        router.post("recover") { request, context in try await recover(request, context) }
        router.post("resend") { request, context in try await resend(request, context) }
        router.get("reauthenticate") { request, context in try await reauthenticate(request, context) }
    }

    func otp(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(OTPRequest.self, from: request, context: context)
        let now = auth.now()
        try await auth.delivery.spendBudget(client: context.clientKey, now: now)
        let email = try EmailAddress.normalized(body.email)
        let createUser = (body.createUser ?? true) && !auth.configuration.signupDisabled
        let mail: Mail? = try await auth.storage.transaction { tx in
            var user = try await tx.user(email: email)
            if user == nil, createUser {
                let created = UserRecord(
                    email: email,
                    appMetadata: ["provider": "email", "providers": ["email"]],
                    userMetadata: body.data ?? [:],
                    createdAt: now,
                    updatedAt: now
                )
                try await tx.insertUser(created)
                user = created
            }
            guard let user else { return nil }  // unknown and create_user false: same answer, no mail
            return try await auth.delivery.issue(
                .magicLink,
                for: user.id,
                to: email,
                spacing: .refuse,
                in: tx,
                now: now
            )
        }
        auth.delivery.send(mail)
        return try JSONBody.empty(request: request)
    }

    func recover(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(RecoverRequest.self, from: request, context: context)
        let now = auth.now()
        try await auth.delivery.spendBudget(client: context.clientKey, now: now)
        let email = try EmailAddress.normalized(body.email)
        let mail: Mail? = try await auth.storage.transaction { tx in
            guard var user = try await tx.user(email: email) else { return nil }
            let mail = try await auth.delivery.issue(
                .recovery,
                for: user.id,
                to: email,
                spacing: .skip,
                in: tx,
                now: now
            )
            if mail != nil {
                user.recoverySentAt = now
                try await tx.updateUser(user)
            }
            return mail
        }
        auth.delivery.send(mail)
        return try JSONBody.empty(request: request)
    }

    func resend(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(ResendRequest.self, from: request, context: context)
        let now = auth.now()
        try await auth.delivery.spendBudget(client: context.clientKey, now: now)
        let email = try EmailAddress.normalized(body.email)
        guard body.type == .signup || body.type == .emailChange else {
            throw APIError.validation("Only signup and email_change can be resent")
        }
        let mail: Mail? = try await auth.storage.transaction { tx in
            guard let user = try await tx.user(email: email) else { return nil }
            if body.type == .signup {
                guard user.emailConfirmedAt == nil else { return nil }
                return try await auth.delivery.issue(.signup, for: user.id, to: email, spacing: .skip, in: tx, now: now)
            }
            // email_change: `email` is the current address; a fresh code goes to the pending new
            // one. Without a pending change there is nothing to resend (same answer either way).
            guard let pending = try await tx.code(userID: user.id, purpose: .emailChange),
                pending.expiresAt > now
            else { return nil }
            return try await auth.delivery.issue(
                .emailChange,
                for: user.id,
                to: pending.email,
                spacing: .skip,
                in: tx,
                now: now
            )
        }
        auth.delivery.send(mail)
        return try JSONBody.empty(request: request)
    }

    func reauthenticate(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let caller = try await auth.caller(request)
        let now = auth.now()
        guard let email = caller.user.email, caller.user.emailConfirmedAt != nil else {
            throw APIError(.unprocessableContent, .emailNotConfirmed, "Email not confirmed")
        }
        let mail = try await auth.storage.transaction { tx in
            try await auth.delivery.issue(
                .reauthentication,
                for: caller.user.id,
                to: email,
                spacing: .refuse,
                in: tx,
                now: now
            )
        }
        auth.delivery.send(mail)
        return try JSONBody.empty(request: request)
    }

    // MARK: - Verification

    func verify(_ body: VerifyRequest, ip: String) async throws -> WireSession {
        let now = auth.now()
        try await auth.limiter.hit(.verify, key: ip, limit: auth.configuration.rateLimits.verify, window: 300, now: now)
        guard let purposes = CodePurpose.verified(by: body.type) else {
            throw APIError.validation("Unsupported verification type")
        }
        let maximumAttempts = auth.configuration.maximumCodeAttempts

        enum Verdict: Sendable {
            case session(SessionGrant)
            case failure(APIError)
        }
        let verdict: Verdict = try await auth.storage.transaction { tx in
            let record: CodeRecord
            if let hash = body.tokenHash {
                guard let found = try await tx.code(linkHash: Hex.sha256(hash)), purposes.contains(found.purpose) else {
                    return .failure(.otpExpired)
                }
                record = found
            } else {
                guard let token = body.token, !token.isEmpty else {
                    return .failure(.validation("Verify requires a token or a token_hash"))
                }
                let email = try EmailAddress.normalized(body.email)
                guard let user = try await tx.user(email: email) else { return .failure(.otpExpired) }
                var match: CodeRecord?
                for purpose in purposes {
                    guard let candidate = try await tx.code(userID: user.id, purpose: purpose) else { continue }
                    if candidate.expiresAt <= now || candidate.attempts >= maximumAttempts { continue }
                    if auth.codes.matches(token, candidate) {
                        match = candidate
                        break
                    }
                    try await tx.updateCodeAttempts(userID: user.id, purpose: purpose, attempts: candidate.attempts + 1)
                }
                guard let match else { return .failure(.otpExpired) }
                record = match
            }
            guard record.expiresAt > now, record.attempts < maximumAttempts,
                var user = try await tx.user(id: record.userID)
            else {
                return .failure(.otpExpired)
            }
            if user.isBanned(at: now) { return .failure(APIError(.forbidden, .userBanned, "User is banned")) }
            try await tx.deleteCode(userID: record.userID, purpose: record.purpose)
            if record.purpose == .emailChange {
                user.email = record.email
                user.emailConfirmedAt = now
            } else {
                user.emailConfirmedAt = user.emailConfirmedAt ?? now
            }
            if user.isAnonymous, user.email != nil { user.isAnonymous = false }
            user.lastSignInAt = now
            user.updatedAt = now
            try await tx.updateUser(user)
            try await auth.audit("verified", actor: user.id, ip: ip, detail: record.purpose.rawValue, in: tx)
            return .session(
                try await auth.issueSession(for: user, method: record.purpose.signInMethod, in: tx, at: now)
            )
        }
        switch verdict {
        case .session(let grant): return try await auth.wireSession(grant, now: now)
        case .failure(let error): throw error
        }
    }

    /// `GET /verify?token=&type=&redirect_to=`: a 303 to the site with the session in the fragment.
    func verifyLink(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let target = redirectTarget(query.get("redirect_to"))
        var fragment: String
        do {
            guard let token = query.get("token"), let type = query.get("type") else {
                throw APIError.validation("Verify requires a token and a type")
            }
            let session = try await verify(
                VerifyRequest(type: VerificationType(rawValue: type), tokenHash: token),
                ip: context.clientKey
            )
            fragment = [
                "access_token=\(session.accessToken)", "expires_at=\(session.expiresAt)",
                "expires_in=\(session.expiresIn)",
                "refresh_token=\(session.refreshToken)", "token_type=bearer", "type=\(type)", "sb=",
            ].joined(separator: "&")
        } catch let error as APIError {
            let oauth =
                error.status == .forbidden
                ? "access_denied" : error.status.code >= 500 ? "server_error" : "invalid_request"
            let message = error.message.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            fragment = "error=\(oauth)&error_code=\(error.code.rawValue)&error_description=\(message)&sb="
        }
        var headers = HTTPFields()
        headers[.location] = "\(target)#\(fragment)"
        return Response(status: .seeOther, headers: headers)
    }

    /// `redirect_to` only when it is on the site URL's host; otherwise the site URL.
    private func redirectTarget(_ requested: String?) -> String {
        let site = auth.configuration.siteURL
        guard let requested, let url = URL(string: requested), let siteHost = URL(string: site)?.host,
            url.host == siteHost, ["http", "https"].contains(url.scheme ?? "")
        else { return site }
        return requested
    }
}
