import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird

/// `POST /invite` and `POST /admin/generate_link` for `service_role` tokens.
struct AdminLinkController {
    let auth: AuthContext

    struct InviteRequest: Decodable {
        var email: String
        var data: [String: JSONValue]?
    }

    struct LinkRequest: Decodable {
        var type: String
        var email: String
        var newEmail: String?
        var password: String?
        var data: [String: JSONValue]?

        enum CodingKeys: String, CodingKey {
            case type, email, password, data
            case newEmail = "new_email"
        }
    }

    func register(on router: Router<AppRequestContext>) {
        router.post("invite") { request, context in try await invite(request, context) }
        router.post("admin/generate_link") { request, context in try await generateLink(request, context) }
    }

    func invite(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        _ = try await auth.requireAdmin(request)
        let body = try await JSONBody.decode(InviteRequest.self, from: request, context: context)
        let email = try EmailAddress.normalized(body.email)
        let now = auth.now()
        let (user, mail): (UserRecord, Mail?) = try await auth.storage.transaction { tx in
            if try await tx.user(email: email) != nil {
                throw APIError(
                    .unprocessableContent,
                    .emailExists,
                    "A user with this email address has already been registered"
                )
            }
            let user = UserRecord(
                email: email,
                confirmationSentAt: now,
                appMetadata: ["provider": "email", "providers": ["email"]],
                userMetadata: body.data ?? [:],
                createdAt: now,
                updatedAt: now
            )
            try await tx.insertUser(user)
            let mail = try await auth.delivery.issue(
                .invite,
                for: user.id,
                to: email,
                spacing: .ignore,
                in: tx,
                now: now
            )
            try await auth.audit("user_invited", actor: user.id, ip: context.clientKey, in: tx)
            return (user, mail)
        }
        auth.delivery.send(mail)
        var wire = user.wire
        wire.invitedAt = now
        return try JSONBody.response(wire, request: request)
    }

    /// Makes a link and code without sending mail, for admins who deliver it themselves.
    func generateLink(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        _ = try await auth.requireAdmin(request)
        let body = try await JSONBody.decode(LinkRequest.self, from: request, context: context)
        let email = try EmailAddress.normalized(body.email)
        let now = auth.now()
        guard let purpose = CodePurpose(linkType: body.type) else { throw APIError.validation("Invalid link type") }
        let verificationType = purpose.verificationType.rawValue
        var hash: String?
        if let password = body.password {
            try auth.policy.check(password, email: email)
            hash = try await auth.passwords.hash(password)
        }
        let passwordHash = hash
        let newEmail = try body.newEmail.map { try EmailAddress.normalized($0) }
        let (user, issued): (UserRecord, OneTimeCodes.Issued) = try await auth.storage.transaction { tx in
            var user = try await tx.user(email: email)
            if user == nil {
                guard purpose == .signup || purpose == .invite else {
                    throw APIError(.notFound, .userNotFound, "User with this email not found")
                }
                let created = UserRecord(
                    email: email,
                    passwordHash: passwordHash,
                    confirmationSentAt: now,
                    appMetadata: ["provider": "email", "providers": ["email"]],
                    userMetadata: body.data ?? [:],
                    createdAt: now,
                    updatedAt: now
                )
                try await tx.insertUser(created)
                user = created
            }
            guard let user else { throw APIError.unexpected }
            if purpose == .emailChange {
                guard let newEmail else { throw APIError.validation("email_change links need new_email") }
                if try await tx.user(email: newEmail) != nil {
                    throw APIError(
                        .unprocessableContent,
                        .emailExists,
                        "A user with this email address has already been registered"
                    )
                }
            }
            let target = purpose == .emailChange ? newEmail ?? email : email
            let issued = try await auth.delivery.issueUnmailed(purpose, for: user.id, to: target, in: tx, now: now)
            try await auth.audit(
                "admin_generate_link",
                actor: user.id,
                ip: context.clientKey,
                detail: body.type,
                in: tx
            )
            return (user, issued)
        }
        let redirect = auth.configuration.siteURL
        let query =
            "token=\(issued.linkToken)&type=\(verificationType)&redirect_to=\(redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        let externalURL = "http://\(auth.configuration.host):\(auth.configuration.port)"
        var fields = try WireCoding.makeDecoder().decode(
            [String: JSONValue].self,
            from: WireCoding.makeEncoder().encode(user.wire)
        )
        fields["action_link"] = .string("\(externalURL)/verify?\(query)")
        fields["email_otp"] = .string(issued.code)
        fields["hashed_token"] = .string(issued.linkToken)
        fields["verification_type"] = .string(verificationType)
        fields["redirect_to"] = .string(redirect)
        return try JSONBody.response(fields, request: request)
    }
}
