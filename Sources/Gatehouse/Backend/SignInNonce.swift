// Apple-only call sites in this file: CryptoKit's SHA256 (every Apple platform); elsewhere
// swift-crypto's Crypto module, which has the same API.
#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// A one-time nonce for Sign in with Apple or Google.
///
/// Send ``sha256`` in the provider's request (Apple's `ASAuthorizationAppleIDRequest.nonce`,
/// Google's `nonce`), then pass ``raw`` to ``AuthService/signInWithApple(idToken:nonce:authorizationCode:fullName:)``:
/// the ID token carries the hash, and the server checks that it matches the raw value and
/// that the nonce is used once.
///
/// ```swift
/// let nonce = SignInNonce()
/// request.nonce = nonce.sha256
/// // … after Apple answers:
/// try await auth.signInWithApple(idToken: idToken, nonce: nonce.raw)
/// ```
public struct SignInNonce: Sendable, Equatable {
    /// The raw nonce, for Gatehouse.
    public let raw: String
    /// The lowercase hex SHA-256 of ``raw``, for the provider.
    public let sha256: String

    /// Makes a new nonce of 32 random bytes (64 hex characters) from the system's CSPRNG.
    public init() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        self.init(raw: Self.hex(bytes))
    }

    /// Wraps an existing raw nonce.
    public init(raw: String) {
        self.raw = raw
        self.sha256 = Self.hex(Array(SHA256.hash(data: Array(raw.utf8))))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}
