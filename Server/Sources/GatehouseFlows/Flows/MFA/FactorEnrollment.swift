import Foundation
package import GatehouseCore
import GatehouseQR
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// `POST /factors`: a new, unverified authenticator-app factor with a fresh secret, its
/// `otpauth://` URI and that URI's QR code (SVG). It lapses unless a code verifies it within
/// 300 s, and only the session that enrolled it may verify it. At most 10 factors per user,
/// friendly names unique per user; guests cannot enrol. What the caller must prove
/// (``SensitiveAction/enrolFactor``) is ``SensitiveActionPolicy``'s: a recent sign-in or a
/// reauthentication `nonce`, and AAL2 from a user who has a verified factor (checked again in the
/// transaction).
package struct FactorEnrollment: Sendable {
    static let maximumFactors = 10

    let storage: any AuthStorage
    let sealing: FactorSecretSealing
    let sensitive: SensitiveActionGuard
    let audit: AuditLog
    /// The issuer apps show when the request names none (the site's host).
    let defaultIssuer: String
    let now: @Sendable () -> Date

    package func callAsFunction(
        _ body: EnrollFactorRequest,
        caller: Caller,
        nonce: String?,
        ip: String
    ) async throws -> WireFactorEnrollment {
        try MFAAccess.requirePermanentUser(caller)
        guard body.factorType == "totp" else {
            throw APIError.validation("factor_type must be totp: only authenticator-app factors are supported")
        }
        let friendlyName = try ChosenName.validated(
            body.friendlyName ?? "",
            field: "friendly_name",
            maximumCharacters: 100
        )
        let issuer = try ChosenName.validated(body.issuer ?? defaultIssuer, field: "issuer", maximumCharacters: 64)
        guard !issuer.isEmpty, !issuer.contains(":") else {
            throw APIError.validation("issuer must be a non-empty name without ':'")
        }
        _ = try await sensitive.authorize(.enrolFactor, caller, evidence: .init(nonce: nonce), ip: ip)
        let now = now()
        let secret = TOTPSecret.random()
        var factor = FactorRecord(
            userID: caller.user.id,
            friendlyName: friendlyName,
            sealedSecret: nil,
            createdAt: now,
            updatedAt: now,
            enrolledSessionID: caller.session.id
        )
        factor.sealedSecret = try sealing.seal(secret, factorID: factor.id)
        let account = caller.user.email ?? caller.user.id.key
        // The full URI when it fits the largest QR code, else the compact one.
        let candidates = [false, true].map { secret.uri(issuer: issuer, account: account, compact: $0) }
        guard let (uri, qr) = candidates.lazy.compactMap({ uri in (try? QRCode(text: uri)).map { (uri, $0) } }).first
        else {
            throw APIError(
                .unprocessableContent,
                .mfaEnrollmentLinkTooLong,
                "issuer and e-mail address are too long for a QR code; choose a shorter issuer"
            )
        }
        let stored = factor
        try await storage.transaction { tx in
            try await tx.lockFactors(userID: caller.user.id)
            try await tx.deleteUnverifiedFactors(
                userID: caller.user.id,
                createdBefore: now.addingTimeInterval(-FactorRecord.enrolmentLifetime)
            )
            guard let user = try await tx.user(id: caller.user.id) else { throw APIError.userNotFoundForToken }
            var current = caller
            current.user = user
            try SensitiveActionGuard.requireAssurance(for: .enrolFactor, current)
            guard user.factors.count < Self.maximumFactors else {
                throw APIError(
                    .unprocessableContent,
                    .tooManyEnrolledMFAFactors,
                    "At most \(Self.maximumFactors) factors per user: remove one before adding another"
                )
            }
            if !friendlyName.isEmpty, user.factors.contains(where: { $0.friendlyName == friendlyName }) {
                throw Self.nameConflict(friendlyName)
            }
            do {
                try await tx.insertFactor(stored)
            } catch StorageError.duplicateFactorName {
                throw Self.nameConflict(friendlyName)
            }
            try await audit.record(.factorEnrolled, actor: user.id, ip: ip, detail: stored.id.key, in: tx)
        }
        return WireFactorEnrollment(
            id: factor.id.key,
            friendlyName: friendlyName,
            totp: .init(qrCode: qr.svg(), secret: secret.base32, uri: uri)
        )
    }

    static func nameConflict(_ name: String) -> APIError {
        APIError(
            .unprocessableContent,
            .mfaFactorNameConflict,
            "A factor with the friendly name \"\(name)\" already exists; choose another name"
        )
    }
}
