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

    /// Issues a code unless one of the same purpose went to this user less than the send
    /// spacing ago. - Returns: the mail to send, or `nil` when spacing held it back.
    private func issue(
        for user: UserRecord,
        purpose: String,
        email: String,
        in tx: any StorageTransaction,
        now: Date,
        enforceSpacing: Bool
    ) async throws -> Mail? {
        if let previous = try await tx.code(userID: user.id, purpose: purpose) {
            let elapsed = now.timeIntervalSince(previous.createdAt)
            let spacing = TimeInterval(auth.configuration.smtpMaxFrequency)
            if elapsed < spacing {
                if enforceSpacing {
                    let retry = Int((spacing - elapsed).rounded(.up))
                    throw APIError(
                        .tooManyRequests,
                        .overEmailSendRateLimit,
                        "For security purposes, you can only request this after \(retry) seconds.",
                        retryAfter: retry
                    )
                }
                return nil
            }
        }
        let issued = auth.codes.issue(
            userID: user.id,
            purpose: purpose,
            email: email,
            now: now,
            lifetime: auth.configuration.codeLifetime
        )
        try await tx.upsertCode(issued.record)
        return auth.codeMail(to: email, purpose: purpose, code: issued.code, link: issued.linkToken)
    }

    private func limitSends(_ context: AppRequestContext, now: Date) async throws {
        try await auth.limiter.hit(
            .otp,
            key: context.clientKey,
            limit: auth.configuration.rateLimits.otp,
            window: 300,
            now: now
        )
        try await auth.limiter.hit(
            .emailSent,
            key: "server",
            limit: auth.configuration.rateLimits.emailSent,
            window: 3600,
            now: now
        )
    }

    func otp(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(OTPRequest.self, from: request, context: context)
        let now = auth.now()
        try await limitSends(context, now: now)
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
            return try await issue(for: user, purpose: "email", email: email, in: tx, now: now, enforceSpacing: true)
        }
        if let mail { auth.sendLater(mail) }
        return try JSONBody.empty(request: request)
    }

    func recover(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(RecoverRequest.self, from: request, context: context)
        let now = auth.now()
        try await limitSends(context, now: now)
        let email = try EmailAddress.normalized(body.email)
        let mail: Mail? = try await auth.storage.transaction { tx in
            guard var user = try await tx.user(email: email) else { return nil }
            let mail = try await issue(
                for: user,
                purpose: "recovery",
                email: email,
                in: tx,
                now: now,
                enforceSpacing: false
            )
            if mail != nil {
                user.recoverySentAt = now
                try await tx.updateUser(user)
            }
            return mail
        }
        if let mail { auth.sendLater(mail) }
        return try JSONBody.empty(request: request)
    }

    func resend(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(ResendRequest.self, from: request, context: context)
        let now = auth.now()
        try await limitSends(context, now: now)
        let email = try EmailAddress.normalized(body.email)
        guard body.type == .signup || body.type == .emailChange else {
            throw APIError.validation("Only signup and email_change can be resent")
        }
        let mail: Mail? = try await auth.storage.transaction { tx in
            guard let user = try await tx.user(email: email) else { return nil }
            if body.type == .signup {
                guard user.emailConfirmedAt == nil else { return nil }
                return try await issue(
                    for: user,
                    purpose: "signup",
                    email: email,
                    in: tx,
                    now: now,
                    enforceSpacing: false
                )
            }
            // email_change: `email` is the current address; a fresh code goes to the pending new
            // one. Without a pending change there is nothing to resend (same answer either way).
            guard let pending = try await tx.code(userID: user.id, purpose: "email_change"),
                pending.expiresAt > now
            else { return nil }
            return try await issue(
                for: user,
                purpose: "email_change",
                email: pending.email,
                in: tx,
                now: now,
                enforceSpacing: false
            )
        }
        if let mail { auth.sendLater(mail) }
        return try JSONBody.empty(request: request)
    }

    func reauthenticate(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let caller = try await auth.caller(request)
        let now = auth.now()
        guard let email = caller.user.email, caller.user.emailConfirmedAt != nil else {
            throw APIError(.unprocessableContent, .emailNotConfirmed, "Email not confirmed")
        }
        let mail = try await auth.storage.transaction { tx in
            try await issue(
                for: caller.user,
                purpose: "reauthentication",
                email: email,
                in: tx,
                now: now,
                enforceSpacing: true
            )
        }
        if let mail { auth.sendLater(mail) }
        return try JSONBody.empty(request: request)
    }

    // MARK: - Verification

    private static func purposes(for type: VerificationType) throws -> [String] {
        switch type {
        case .signup: return ["signup"]
        case .email, .magiclink: return ["email", "signup"]
        case .recovery: return ["recovery"]
        case .emailChange: return ["email_change"]
        case .invite: return ["invite"]
        default: throw APIError.validation("Unsupported verification type")
        }
    }

    func verify(_ body: VerifyRequest, ip: String) async throws -> WireSession {
        let now = auth.now()
        try await auth.limiter.hit(.verify, key: ip, limit: auth.configuration.rateLimits.verify, window: 300, now: now)
        let purposes = try Self.purposes(for: body.type)
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
                    if ConstantTime.equal(
                        candidate.codeHash,
                        auth.codes.hash(code: token, email: candidate.email, purpose: purpose)
                    ) {
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
            let method: String
            switch record.purpose {
            case "email_change":
                user.email = record.email
                user.emailConfirmedAt = now
                method = "email_change"
            case "recovery":
                user.emailConfirmedAt = user.emailConfirmedAt ?? now
                method = "recovery"
            case "signup", "invite":
                user.emailConfirmedAt = user.emailConfirmedAt ?? now
                method = record.purpose == "invite" ? "invite" : "email/signup"
            default:
                user.emailConfirmedAt = user.emailConfirmedAt ?? now
                method = "otp"
            }
            if user.isAnonymous, user.email != nil { user.isAnonymous = false }
            user.lastSignInAt = now
            user.updatedAt = now
            try await tx.updateUser(user)
            try await auth.audit("verified", actor: user.id, ip: ip, detail: record.purpose, in: tx)
            return .session(try await auth.issueSession(for: user, method: method, in: tx, at: now))
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
