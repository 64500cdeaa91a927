// Apple-only call sites in this file: CryptoKit's SHA256 (every Apple platform); elsewhere
// swift-crypto's Crypto module, which has the same API.
#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation
import GatehouseCore

/// A PKCE verifier and its S256 challenge (RFC 7636), which bind a sign-in's `auth_code` to the
/// app that started it: the challenge goes to `/authorize`, the verifier only to the exchange
/// (`POST /token?grant_type=pkce`), so a code that leaks from the redirect is worth nothing.
///
/// ```swift
/// let pkce = PKCEVerifier()
/// // GET /authorize?…&code_challenge=\(pkce.challenge)&code_challenge_method=s256
/// ```
public struct PKCEVerifier: Sendable, Equatable {
    /// The secret: 32 random bytes from the system's CSPRNG, base64url without padding (43
    /// characters of `[A-Za-z0-9_-]`).
    public let verifier: String
    /// `BASE64URL(SHA256(verifier))`, sent with `code_challenge_method=s256`.
    public let challenge: String

    /// The method name GoTrue takes for ``challenge``.
    public static let method = "s256"

    /// Makes a new verifier.
    public init() {
        var generator = SystemRandomNumberGenerator()
        self.init(verifier: Base64URL.string(Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })))
    }

    /// Wraps an existing verifier (RFC 7636 §4.1: 43 to 128 unreserved characters).
    public init(verifier: String) {
        self.verifier = verifier
        self.challenge = Base64URL.string(Data(SHA256.hash(data: Array(verifier.utf8))))
    }
}
