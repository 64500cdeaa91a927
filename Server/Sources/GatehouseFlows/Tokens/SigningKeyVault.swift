import Crypto
import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// Seals private signing keys before they reach the database, so that the database alone (a
/// dump, a backup, a stolen `-wal`) signs nothing.
///
/// The sealing key is derived from the server secret with HKDF-SHA-256 (its own `info`, so it
/// is never the key of the refresh-token or code HMACs); each private key is sealed with
/// AES-256-GCM under a fresh random nonce, with its `kid` as authenticated data so that a
/// sealed key cannot be moved to another row. Stored form: `sealed:v1:<base64 of nonce,
/// ciphertext and tag>`. Anything else in the column is a plaintext PEM from before sealing,
/// which ``TokenService`` seals at start.
package struct SigningKeyVault: Sendable {
    static let prefix = "sealed:v1:"

    private let key: SymmetricKey

    init(secret: ServerSecret) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret.key,
            salt: Data("gatehouse".utf8),
            info: Data("gatehouse signing-key sealing v1".utf8),
            outputByteCount: 32
        )
    }

    /// Whether a stored value is sealed (else: a plaintext PEM awaiting its migration).
    static func isSealed(_ stored: String) -> Bool {
        stored.hasPrefix(prefix)
    }

    /// The stored form of `pem` for the key `kid`.
    func seal(_ pem: String, kid: String) throws -> String {
        let box = try AES.GCM.seal(Data(pem.utf8), using: key, nonce: AES.GCM.Nonce(), authenticating: Data(kid.utf8))
        guard let combined = box.combined else { throw SealingError.cannotSeal }
        return Self.prefix + combined.base64EncodedString()
    }

    /// The PEM of a stored key; a plaintext PEM (not yet sealed) is returned as it is.
    ///
    /// - Throws: ``SealingError/wrongSecret`` when the value was sealed under another secret or
    ///   altered.
    func open(_ stored: String, kid: String) throws -> String {
        guard Self.isSealed(stored) else { return stored }
        guard let combined = Data(base64Encoded: String(stored.dropFirst(Self.prefix.count))),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Data(kid.utf8))
        else { throw SealingError.wrongSecret(kid: kid) }
        return String(decoding: plain, as: UTF8.self)
    }

    /// Why a key could not be sealed or opened.
    enum SealingError: Error, CustomStringConvertible {
        case cannotSeal
        case wrongSecret(kid: String)

        var description: String {
            switch self {
            case .cannotSeal: "the signing key could not be sealed"
            case .wrongSecret(let kid):
                "signing key \(kid) cannot be opened with this server secret (GATEHOUSE_SERVER_SECRET or the .secret file)"
            }
        }
    }
}
