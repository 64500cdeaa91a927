import Crypto
import Foundation
import GatehouseProcessTesting

/// A stand-in for Sign in with Apple: a P-256 key made in the test, its JWKS served over HTTP
/// on loopback (Python's `http.server` from a folder), and ID tokens signed with it. The server
/// trusts the same key set for Google, whose tokens it signs too (``googleIDToken(subject:email:rawNonce:unhashed:)``).
final class FakeApple: @unchecked Sendable {
    static let clientID = "com.example.gatehouse"
    static let googleClientID = "1234-gatehouse.apps.googleusercontent.com"

    let directory: URL
    let port: Int
    private let key = P256.Signing.PrivateKey()
    private let kid = "fake-\(UUID().uuidString.prefix(8))"
    private let files: StaticFileServer

    /// The JWKS address for `GATEHOUSE_APPLE_JWKS_URL`.
    var jwksURL: String { "http://127.0.0.1:\(port)/keys" }

    /// The server settings that trust this provider, for Apple and for Google.
    var serverEnvironment: [String: String] {
        [
            "GATEHOUSE_APPLE_CLIENT_IDS": Self.clientID, "GATEHOUSE_APPLE_JWKS_URL": jwksURL,
            "GATEHOUSE_GOOGLE_CLIENT_IDS": Self.googleClientID, "GATEHOUSE_GOOGLE_JWKS_URL": jwksURL,
        ]
    }

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-apple-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = LoopbackPort.free()
        let raw = key.publicKey.rawRepresentation
        let jwks: [String: Any] = [
            "keys": [
                [
                    "kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": kid,
                    "x": Self.base64URL(raw.prefix(32)), "y": Self.base64URL(raw.suffix(32)),
                ]
            ]
        ]
        try JSONSerialization.data(withJSONObject: jwks).write(to: directory.appendingPathComponent("keys"))
        files = try await StaticFileServer(directory: directory, port: port)
    }

    /// An ID token for `subject` carrying SHA-256 hex of `rawNonce` (no nonce claim when it is
    /// `nil`), valid for ten minutes; Apple vouches for `email` when `emailVerified`.
    func idToken(subject: String, email: String?, emailVerified: Bool = true, rawNonce: String?) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": "https://appleid.apple.com", "aud": Self.clientID, "sub": subject, "iat": now, "exp": now + 600,
            "email_verified": emailVerified ? "true" : "false",
        ]
        if let rawNonce {
            claims["nonce"] = SHA256.hash(data: Data(rawNonce.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        if let email { claims["email"] = email }
        return try signed(claims)
    }

    /// A Google ID token for `subject` and the Gmail address `email` (verified), valid for ten
    /// minutes, carrying `rawNonce` as GoogleSignIn does (unhashed) or, when not `unhashed`, its
    /// SHA-256 hex.
    func googleIDToken(subject: String, email: String, rawNonce: String, unhashed: Bool) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        return try signed([
            "iss": "https://accounts.google.com", "aud": Self.googleClientID, "azp": Self.googleClientID,
            "sub": subject, "iat": now, "exp": now + 600, "email": email, "email_verified": true,
            "nonce": unhashed
                ? rawNonce : SHA256.hash(data: Data(rawNonce.utf8)).map { String(format: "%02x", $0) }.joined(),
        ])
    }

    private func signed(_ claims: [String: Any]) throws -> String {
        let header: [String: Any] = ["alg": "ES256", "kid": kid, "typ": "JWT"]
        let input = try Self.encode(header) + "." + Self.encode(claims)
        let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + Self.base64URL(signature)
    }

    /// Stops the HTTP server and removes the key set.
    func stop() async {
        await files.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func encode(_ object: [String: Any]) throws -> String {
        base64URL(try JSONSerialization.data(withJSONObject: object, options: .sortedKeys))
    }

    static func base64URL(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
