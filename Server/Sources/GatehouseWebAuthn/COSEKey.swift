package import Crypto
package import CryptoExtras
import Foundation
package import GatehouseCore

/// A credential public key in COSE form (RFC 9052/9053, WebAuthn §5.8.5) of the three
/// algorithms the server offers: ES256 (P-256, required), RS256 (RSA PKCS#1 v1.5 with
/// SHA-256, Windows Hello) and EdDSA (Ed25519).
package enum COSEKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case rs256(_RSA.Signing.PublicKey)
    case edDSA(Curve25519.Signing.PublicKey)

    /// The COSE algorithm identifiers offered in `pubKeyCredParams`, in order of preference.
    package static let offeredAlgorithms: [Int64] = [Algorithm.es256, Algorithm.edDSA, Algorithm.rs256]

    package enum Algorithm {
        static let es256: Int64 = -7
        static let edDSA: Int64 = -8
        static let rs256: Int64 = -257
    }

    /// The largest RSA modulus accepted, in bytes (4096 bits): bigger keys only cost time.
    static let maximumRSAModulusBytes = 512
    /// The smallest RSA modulus accepted, in bits.
    static let minimumRSAModulusBits = 2048

    /// The bits of a big-endian unsigned integer, leading zeros not counted.
    package static func bitCount(of bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
    }

    /// The COSE `alg` of this key.
    package var algorithm: Int64 {
        switch self {
        case .es256: Algorithm.es256
        case .rs256: Algorithm.rs256
        case .edDSA: Algorithm.edDSA
        }
    }

    /// Reads a COSE key map; an unknown algorithm or a malformed key is an error.
    package init(_ map: CBORValue) throws(WebAuthnFailure) {
        guard map.mapEntries != nil, let kty = map[label: 1]?.integer, let alg = map[label: 3]?.integer else {
            throw .malformed("the credential public key lacks its key type or algorithm")
        }
        switch (kty, alg) {
        case (2, Algorithm.es256):
            guard map[label: -1]?.integer == 1, let x = map[label: -2]?.bytes, let y = map[label: -3]?.bytes,
                x.count == 32, y.count == 32
            else { throw .malformed("the ES256 key is not a P-256 point") }
            do {
                self = .es256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
            } catch {
                throw .malformed("the ES256 key is not a point on P-256")
            }
        case (3, Algorithm.rs256):
            guard let n = map[label: -1]?.bytes, let e = map[label: -2]?.bytes, !n.isEmpty,
                n.count <= Self.maximumRSAModulusBytes,
                !e.isEmpty, e.count <= 4
            else { throw .malformed("the RS256 key's modulus or exponent is missing or too large") }
            // WebAuthn authenticators use 65537 (FIDO's requirement); a small exponent or a short
            // modulus is a weak key, refused here rather than left to the library's choices.
            guard e.drop(while: { $0 == 0 }).elementsEqual([0x01, 0x00, 0x01]) else {
                throw .malformed("the RS256 key's exponent must be 65537")
            }
            guard Self.bitCount(of: n) >= Self.minimumRSAModulusBits else {
                throw .malformed("the RS256 key's modulus must have at least 2048 bits")
            }
            do {
                self = .rs256(try _RSA.Signing.PublicKey(n: n, e: e))
            } catch {
                throw .malformed("the RS256 key is not a usable RSA key (2048 to 4096 bits)")
            }
        case (1, Algorithm.edDSA):
            guard map[label: -1]?.integer == 6, let x = map[label: -2]?.bytes, x.count == 32 else {
                throw .malformed("the EdDSA key is not an Ed25519 key")
            }
            do {
                self = .edDSA(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            } catch {
                throw .malformed("the EdDSA key is not an Ed25519 key")
            }
        default:
            throw .malformed("unsupported credential key (kty \(kty), alg \(alg)): use ES256, EdDSA or RS256")
        }
    }

    /// Whether `signature` signs `message` under this key: DER ECDSA for ES256, PKCS#1 v1.5
    /// over SHA-256 for RS256, raw Ed25519 for EdDSA.
    package func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case .rs256(let key):
            guard signature.count == key.keySizeInBits / 8 else { return false }
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature),
                for: message,
                padding: .insecurePKCS1v1_5
            )
        case .edDSA(let key):
            return key.isValidSignature(signature, for: message)
        }
    }
}
