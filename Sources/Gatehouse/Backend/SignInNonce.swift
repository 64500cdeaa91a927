// Apple-only call sites in this file: CryptoKit's SHA256 (every Apple platform); elsewhere
// swift-crypto's Crypto module, which has the same API.
#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import GatehouseCore

/// A one-time nonce for Sign in with Apple or Google.
///
/// Make a new one for every sign-in and always send ``raw`` to Gatehouse; the server checks
/// that the ID token carries it and that it is used once. What goes into the provider's
/// request differs:
///
/// - Apple: ``sha256`` (`ASAuthorizationAppleIDRequest.nonce`); the ID token carries the hash.
///   `request.configure(for: nonce)` sets it (and asks for the name and address).
/// - Google: ``raw``. GoogleSignIn (8.1 and later) puts the nonce it is given into the ID
///   token as is, unhashed; for Google the server accepts a token carrying either the raw
///   nonce or its SHA-256.
///
/// ```swift
/// // Sign in with Apple
/// let nonce = SignInNonce()
/// request.configure(for: nonce)
/// // … after Apple answers, with the whole credential (its code and name too):
/// try await auth.signInWithApple(credential: appleIDCredential, nonce: nonce)
///
/// // Google
/// let nonce = SignInNonce()
/// let result = try await GIDSignIn.sharedInstance.signIn(
///     withPresenting: viewController, hint: nil, additionalScopes: nil, nonce: nonce.raw)
/// try await auth.signInWithGoogle(idToken: result.user.idToken!.tokenString, nonce: nonce.raw)
/// ```
public struct SignInNonce: Sendable, Equatable {
    /// The raw nonce: for Gatehouse, and for GoogleSignIn's request.
    public let raw: String
    /// The lowercase hex SHA-256 of ``raw``, for Apple's request.
    public let sha256: String

    /// Makes a new nonce of 32 random bytes (64 hex characters) from the system's CSPRNG.
    public init() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        self.init(raw: Hex.encode(bytes))
    }

    /// Wraps an existing raw nonce.
    public init(raw: String) {
        self.raw = raw
        self.sha256 = Hex.encode(Array(SHA256.hash(data: Array(raw.utf8))))
    }
}
