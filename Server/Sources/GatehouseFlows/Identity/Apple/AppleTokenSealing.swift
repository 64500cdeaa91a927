import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// Seals Apple refresh tokens under the server secret, as factor secrets are
/// (``SigningKeyVault``: AES-256-GCM under an HKDF-derived key), with the identity's id as
/// authenticated data so that a sealed token cannot be moved to another identity. The database
/// alone revokes nothing and reads nothing of the user's Apple account.
struct AppleTokenSealing: Sendable {
    let vault: SigningKeyVault

    /// The stored form of `token` for the identity `id`.
    func seal(_ token: String, identityID id: UUID) throws -> String {
        try vault.seal(token, kid: Self.label(id))
    }

    /// The token of a stored value.
    /// - Throws: When the value is not sealed, or sealed under another secret or identity.
    func open(_ stored: String, identityID id: UUID) throws -> String {
        guard SigningKeyVault.isSealed(stored) else { throw SigningKeyVault.SealingError.cannotSeal }
        return try vault.open(stored, kid: Self.label(id))
    }

    private static func label(_ id: UUID) -> String { "apple-refresh-token:\(id.key)" }
}
