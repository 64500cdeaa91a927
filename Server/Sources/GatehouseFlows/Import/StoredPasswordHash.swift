import Foundation
import GatehouseStorage

/// What the `encrypted_password` column holds: the server's own bcrypt, or a hash brought by
/// `gatehouse-server import` and verified with its own scheme until the user's next password
/// sign-in rehashes it (``PasswordHasher/needsRehash(_:)``).
///
/// | Stored form | Scheme |
/// |---|---|
/// | `$2a$…`, `$2b$…` | bcrypt (ours, Supabase's, Auth0's; `$2y$` is stored as `$2b$`) |
/// | `$firebase-scrypt$<salt>$<hash>` | Firebase's scrypt variant, base64 as Firebase exports them |
enum StoredPasswordHash: Equatable, Sendable {
    case bcrypt(String)
    /// Firebase's scrypt variant with the user's own salt; the project's parameters are kept
    /// apart, sealed (``FirebaseHashKeyStore``).
    case firebaseScrypt(salt: Data, hash: Data)

    static let firebasePrefix = "$firebase-scrypt$"

    /// Reads a stored value; `nil` for a form no scheme knows.
    init?(stored: String) {
        if stored.hasPrefix(Self.firebasePrefix) {
            let parts = stored.dropFirst(Self.firebasePrefix.count).split(
                separator: "$",
                omittingEmptySubsequences: false
            )
            guard parts.count == 2, let salt = Data(base64Encoded: String(parts[0])),
                let hash = Data(base64Encoded: String(parts[1])), !hash.isEmpty
            else { return nil }
            self = .firebaseScrypt(salt: salt, hash: hash)
        } else if let bcrypt = Self.bcrypt(stored) {
            self = .bcrypt(bcrypt)
        } else {
            return nil
        }
    }

    /// The column's text.
    var stored: String {
        switch self {
        case .bcrypt(let hash): hash
        case .firebaseScrypt(let salt, let hash):
            Self.firebasePrefix + salt.base64EncodedString() + "$" + hash.base64EncodedString()
        }
    }

    /// A bcrypt hash in a form hummingbird-auth's bcrypt verifies: `$2a$` and `$2b$` as they are,
    /// `$2y$` (PHP's name for the same algorithm) as `$2b$`; `nil` for anything else (`$2x$`,
    /// the broken variant, included).
    static func bcrypt(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 60, text.hasPrefix("$2"), bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"),
            let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self)), (4...31).contains(cost)
        else { return nil }
        switch bytes[2] {
        case UInt8(ascii: "a"), UInt8(ascii: "b"): return text
        case UInt8(ascii: "y"): return "$2b$" + text.dropFirst(4)
        default: return nil
        }
    }
}
