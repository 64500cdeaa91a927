import Foundation
import GatehouseStorage

/// Seals the body of a queued mail under the server secret, as factor secrets and Apple tokens
/// are (``SigningKeyVault``: AES-256-GCM under an HKDF-derived key), with the recipient as
/// authenticated data: a mail may carry a one-time code, and the database alone must yield no
/// code (`security.md` OTP-4), nor let a body be moved to another address.
struct MailSealing: Sendable {
    let vault: SigningKeyVault

    /// The stored form of `body`, for a mail to `recipient`.
    func seal(_ body: String, to recipient: String) throws -> String {
        try vault.seal(body, kid: Self.label(recipient))
    }

    /// The body of a stored mail.
    /// - Throws: When it is not sealed, or sealed under another secret or for another address.
    func open(_ stored: String, to recipient: String) throws -> String {
        guard SigningKeyVault.isSealed(stored) else { throw SigningKeyVault.SealingError.cannotSeal }
        return try vault.open(stored, kid: Self.label(recipient))
    }

    private static func label(_ recipient: String) -> String { "mail:\(recipient.lowercased())" }
}
