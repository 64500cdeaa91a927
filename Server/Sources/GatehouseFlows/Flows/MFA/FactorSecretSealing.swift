import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// Seals factor secrets under the server secret, as signing keys are (``SigningKeyVault``:
/// AES-256-GCM under an HKDF-derived key), with the factor's id as authenticated data so that a
/// sealed secret cannot be moved to another factor. The database alone yields no codes.
///
/// Two stored forms, told apart by the authenticated label rather than by their text, so that no
/// secret can pass for the other form:
///
/// | Label | Sealed text | Written by |
/// |---|---|---|
/// | `mfa-factor-key:<id>` | the key bytes in base64 | this version (any bytes) |
/// | `mfa-factor:<id>` | the key bytes as text, each below 0x80 | factors enrolled before it |
struct FactorSecretSealing: Sendable {
    let vault: SigningKeyVault

    /// The stored form of `secret` for the factor `id`.
    func seal(_ secret: TOTPSecret, factorID id: UUID) throws -> String {
        try vault.seal(Data(secret.bytes).base64EncodedString(), kid: Self.label(id))
    }

    /// The secret of a stored factor, in either form.
    ///
    /// - Throws: 500 when the value is not sealed, or sealed under another secret or factor.
    func open(_ factor: FactorRecord) throws -> TOTPSecret {
        guard let stored = factor.sealedSecret, SigningKeyVault.isSealed(stored) else { throw APIError.unexpected }
        if let text = try? vault.open(stored, kid: Self.label(factor.id)) {
            guard let bytes = Data(base64Encoded: text), !bytes.isEmpty else { throw APIError.unexpected }
            return TOTPSecret(bytes: Array(bytes))
        }
        guard let text = try? vault.open(stored, kid: Self.legacyLabel(factor.id)) else { throw APIError.unexpected }
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 < 0x80 }) else { throw APIError.unexpected }
        return TOTPSecret(bytes: bytes)
    }

    private static func label(_ id: UUID) -> String { "mfa-factor-key:\(id.key)" }
    private static func legacyLabel(_ id: UUID) -> String { "mfa-factor:\(id.key)" }
}
