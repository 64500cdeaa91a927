import Crypto
import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage

/// The console's secrets: a session cookie's token (256 random bits; only its SHA-256 is
/// stored), the CSRF token of a signed-in page (an HMAC of the cookie's token under the server
/// secret: nothing to store, and no other session's token matches), and the sign-in form's CSRF
/// token (the same HMAC of a random value the sign-in page sets as a cookie of its own).
struct ConsoleSecrets: Sendable {
    let secret: ServerSecret

    /// A new random token for a cookie.
    static func newToken() -> String {
        Base64URL.encode(SecureRandom.bytes(32))
    }

    /// What is stored for `token`: its SHA-256, hex.
    static func hash(_ token: String) -> String {
        Hex.encode(Array(SHA256.hash(data: Data(token.utf8))))
    }

    /// The CSRF token bound to the cookie token `token`.
    func csrf(for token: String) -> String {
        Base64URL.encode(secret.macBytes(Array("gatehouse-console-csrf:\(token)".utf8)))
    }

    /// Whether `submitted` is the CSRF token of `token` (compared in constant time).
    func isCSRF(_ submitted: String?, for token: String?) -> Bool {
        guard let submitted, let token, !token.isEmpty else { return false }
        return ConstantTime.equal(submitted, csrf(for: token))
    }
}
