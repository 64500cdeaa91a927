import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird

/// `POST /signup`: e-mail and password, or anonymous with no credentials.
struct SignUpController {
    let auth: AuthContext

    func register(on router: Router<AppRequestContext>) {
        router.post("signup") { request, context in try await signUp(request, context) }
    }

    func signUp(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(SignUpRequest.self, from: request, context: context)
        let now = auth.now()
        if auth.configuration.signupDisabled {
            throw APIError(.unprocessableContent, .signupDisabled, "Signups not allowed for this instance")
        }
        guard body.email != nil || body.password != nil else {
            return try await anonymous(body, request: request, context: context, now: now)
        }
        try await auth.limiter.hit(
            .otp,
            key: context.clientKey,
            limit: auth.configuration.rateLimits.otp,
            window: 300,
            now: now
        )
        let email = try EmailAddress.normalized(body.email)
        guard let password = body.password else { throw APIError.validation("Signup requires a valid password") }
        try auth.policy.check(password, email: email)
        let hash = try await auth.passwords.hash(password)
        let autoconfirm = auth.configuration.mailerAutoconfirm
        let ip = context.clientKey

        enum Outcome {
            case session(SessionGrant)
            case user(WireUser)
            case mailThenUser(WireUser, Mail?)
        }
        let outcome: Outcome = try await auth.storage.transaction { tx in
            if let existing = try await tx.user(email: email) {
                if existing.emailConfirmedAt != nil {
                    if autoconfirm {
                        throw APIError(.unprocessableContent, .userAlreadyExists, "User already registered")
                    }
                    // Answer as for a new address, so sign-up does not reveal who is registered.
                    return .user(Self.fabricated(email: email, now: now))
                }
                return .user(Self.fabricated(email: email, now: now))
            }
            var user = UserRecord(
                email: email,
                passwordHash: hash,
                appMetadata: ["provider": "email", "providers": ["email"]],
                userMetadata: body.data ?? [:],
                createdAt: now,
                updatedAt: now
            )
            if autoconfirm {
                user.emailConfirmedAt = now
                user.lastSignInAt = now
                try await tx.insertUser(user)
                try await auth.audit("user_signedup", actor: user.id, ip: ip, in: tx)
                return .session(try await auth.issueSession(for: user, method: "password", in: tx, at: now))
            }
            user.confirmationSentAt = now
            try await tx.insertUser(user)
            let mail = try await auth.delivery.issue(
                .signup,
                for: user.id,
                to: email,
                spacing: .ignore,
                in: tx,
                now: now
            )
            try await auth.audit("user_signedup", actor: user.id, ip: ip, in: tx)
            return .mailThenUser(user.wire, mail)
        }
        switch outcome {
        case .session(let grant):
            return try JSONBody.response(try await auth.wireSession(grant, now: now), request: request)
        case .user(let user):
            return try JSONBody.response(user, request: request)
        case .mailThenUser(let user, let mail):
            auth.delivery.send(mail)
            return try JSONBody.response(user, request: request)
        }
    }

    private func anonymous(
        _ body: SignUpRequest,
        request: Request,
        context: AppRequestContext,
        now: Date
    )
        async throws -> Response
    {
        guard auth.configuration.anonymousUsers else {
            throw APIError(.unprocessableContent, .anonymousProviderDisabled, "Anonymous sign-ins are disabled")
        }
        try await auth.limiter.hit(
            .anonymous,
            key: context.clientKey,
            limit: auth.configuration.rateLimits.anonymous,
            window: 3600,
            now: now
        )
        let ip = context.clientKey
        let grant = try await auth.storage.transaction { tx in
            let user = UserRecord(
                userMetadata: body.data ?? [:],
                isAnonymous: true,
                lastSignInAt: now,
                createdAt: now,
                updatedAt: now
            )
            try await tx.insertUser(user)
            try await auth.audit("anonymous_signin", actor: user.id, ip: ip, in: tx)
            return try await auth.issueSession(for: user, method: "anonymous", in: tx, at: now)
        }
        return try JSONBody.response(try await auth.wireSession(grant, now: now), request: request)
    }

    /// A user-shaped answer for an address that is already registered: a random id, no identities.
    static func fabricated(email: String, now: Date) -> WireUser {
        WireUser(
            id: UUID(),
            email: email,
            confirmationSentAt: now,
            appMetadata: ["provider": "email", "providers": ["email"]],
            identities: [],
            createdAt: now,
            updatedAt: now
        )
    }
}

extension UserRecord {
    init(
        id: UUID = UUID(),
        userMetadata: [String: JSONValue],
        isAnonymous: Bool,
        lastSignInAt: Date?,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.init(
            id: id,
            lastSignInAt: lastSignInAt,
            userMetadata: userMetadata,
            isAnonymous: isAnonymous,
            createdAt: createdAt,
            updatedAt: updatedAt
        )
    }
}
