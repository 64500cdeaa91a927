import Foundation
import GatehouseCore
import GatehouseServerSupport
package import GatehouseStorage
import HTTPTypes

/// `POST /admin/generate_link`: makes a code and link without sending mail, for admins who
/// deliver it themselves. `signup` and `invite` create the account when needed.
package struct LinkGeneration: Sendable {
    /// The body of `POST /admin/generate_link`.
    package struct Request: Decodable, Sendable {
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

    /// A generated link: the user, the code and link token, and where the link points.
    package struct Link: Sendable {
        package var user: UserRecord
        package var issued: OneTimeCodes.Issued
        package var verificationType: String
        package var actionLink: String
        package var redirectTo: String
    }

    let storage: any AuthStorage
    let policy: PasswordPolicy
    let passwords: PasswordHasher
    let delivery: CodeDelivery
    let audit: AuditLog
    let metadataLimit: MetadataLimit
    /// Where `GET /verify` redirects (`GATEHOUSE_SITE_URL`).
    let siteURL: String
    /// This server's own address, for the action link.
    let externalURL: String
    let now: @Sendable () -> Date

    package func callAsFunction(_ body: Request, ip: String) async throws -> Link {
        let email = try EmailAddress.normalized(body.email)
        let now = now()
        try metadataLimit.check(body.data)
        guard let purpose = CodePurpose(linkType: body.type) else { throw APIError.validation("Invalid link type") }
        var hash: String?
        if let password = body.password {
            try policy.check(password, email: email)
            hash = try await passwords.hash(password)
        }
        let passwordHash = hash
        let newEmail = try body.newEmail.map { try EmailAddress.normalized($0) }
        let (user, issued): (UserRecord, OneTimeCodes.Issued) = try await storage.transaction { tx in
            var user = try await tx.user(email: email)
            if user == nil {
                guard purpose == .signup || purpose == .invite else {
                    throw APIError(.notFound, .userNotFound, "User with this email not found")
                }
                let created = UserRecord.emailAccount(
                    email,
                    passwordHash: passwordHash,
                    confirmationSentAt: now,
                    metadata: body.data,
                    now: now
                )
                try await tx.insertUser(created)
                user = created
            }
            guard var user else { throw APIError.unexpected }
            if purpose == .emailChange || purpose == .emailChangeCurrent {
                guard let newEmail else { throw APIError.validation("email_change links need new_email") }
                if try await tx.user(email: newEmail) != nil {
                    throw APIError(
                        .unprocessableContent,
                        .emailExists,
                        "A user with this email address has already been registered"
                    )
                }
                user.newEmail = newEmail
                user.emailChangeSentAt = now
                try await tx.updateUser(user)
            }
            let target = purpose == .emailChange ? newEmail ?? email : email
            let issued = try await delivery.issueUnmailed(purpose, for: user.id, to: target, in: tx, now: now)
            if purpose == .signup, user.emailConfirmedAt == nil, let passwordHash, user.passwordHash == passwordHash {
                // The admin's sign-up link proves the password it was made with.
                user.passwordCode = issued.record.linkHash
                try await tx.updateUser(user)
            }
            try await audit.record(.adminGenerateLink, actor: user.id, ip: ip, detail: body.type, in: tx)
            return (user, issued)
        }
        let type = purpose.verificationType.rawValue
        return Link(
            user: user,
            issued: issued,
            verificationType: type,
            actionLink: CodeMailTemplate.link(
                externalURL: externalURL,
                token: issued.linkToken,
                type: type,
                redirectTo: siteURL
            ),
            redirectTo: siteURL
        )
    }
}
