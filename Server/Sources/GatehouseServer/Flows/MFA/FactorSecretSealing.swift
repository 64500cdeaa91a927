import Foundation

/// Seals factor secrets under the server secret, as signing keys are (``SigningKeyVault``:
/// AES-256-GCM under an HKDF-derived key), with the factor's id as authenticated data so that a
/// sealed secret cannot be moved to another factor. The database alone yields no codes.
struct FactorSecretSealing: Sendable {
    let vault: SigningKeyVault

    /// The stored form of `secret` for the factor `id`.
    func seal(_ secret: TOTPSecret, factorID id: UUID) throws -> String {
        try vault.seal(secret.text, kid: Self.label(id))
    }

    /// The secret of a stored factor.
    ///
    /// - Throws: 500 when the value is not sealed, or sealed under another secret or factor.
    func open(_ factor: FactorRecord) throws -> TOTPSecret {
        guard let stored = factor.sealedSecret, SigningKeyVault.isSealed(stored),
            let secret = TOTPSecret(text: try vault.open(stored, kid: Self.label(factor.id)))
        else { throw APIError.unexpected }
        return secret
    }

    private static func label(_ id: UUID) -> String { "mfa-factor:\(id.key)" }
}
