import Crypto
import CryptoExtras
import Foundation
import GatehouseServerSupport
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// A stand-in for Apple or Google in the tests: RSA keys made in the test, a JWKS endpoint on
/// loopback (real HTTP, fetches counted), and ID tokens signed by hand so that every header
/// and claim can be bent.
final class FakeProvider: Sendable {
    /// A signing key and its `kid`.
    struct Key: Sendable {
        var kid: String
        var privateKey: _RSA.Signing.PrivateKey

        /// A new key (one no other key of this test process has) with `kid`.
        static func make(kid: String = "key-\(UUID().uuidString.prefix(8))") async throws -> Key {
            Key(kid: kid, privateKey: try await TestRSAKeys.next())
        }

        /// The public key as PEM text and as DER bytes.
        var publicPEM: Data { Data(privateKey.publicKey.pemRepresentation.utf8) }
        var publicDER: Data { privateKey.publicKey.derRepresentation }

        /// The public key as a JWK.
        var jwk: [String: Any] {
            let primitives = try! privateKey.publicKey.getKeyPrimitives()
            return [
                "kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid,
                "n": FakeProvider.base64URL(primitives.modulus),
                "e": FakeProvider.base64URL(primitives.publicExponent),
            ]
        }
    }

    let issuer: String
    let clientID: String
    /// The JWKS address.
    let url: URL
    private let state: State
    private let server: LoopbackApp

    /// Where the provider listens (`/keys` and `/auth/keys` serve the key set).
    let baseURL: URL

    /// Starts a provider publishing one fresh key; `routes` adds endpoints (``FakeApple``'s).
    static func start(
        issuer: String,
        clientID: String,
        routes: (Router<BasicRequestContext>) -> Void = { _ in }
    ) async throws -> FakeProvider {
        try await FakeProvider(issuer: issuer, clientID: clientID, keys: [try await Key.make()], routes: routes)
    }

    private init(
        issuer: String,
        clientID: String,
        keys: [Key],
        routes: (Router<BasicRequestContext>) -> Void
    ) async throws {
        self.issuer = issuer
        self.clientID = clientID
        let state = State(keys: keys)
        self.state = state
        let router = Router()
        for path in ["keys", "auth/keys"] {
            router.get(RouterPath(path)) { _, _ -> Response in
                let document: [String: Any] = ["keys": state.fetch().map(\.jwk)]
                let body = try JSONSerialization.data(withJSONObject: document)
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
                )
            }
        }
        routes(router)
        server = try await LoopbackApp(router: router, label: "fake-provider")
        let port = server.port
        url = URL(string: "http://127.0.0.1:\(port)/keys")!
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// How many times the key set was downloaded.
    var fetchCount: Int { state.fetchCount }

    /// The key tokens are signed with by default (the first published one).
    var currentKey: Key { state.keys[0] }

    /// Replaces the published keys (a rotation at the provider).
    func publish(_ keys: [Key]) {
        state.publish(keys)
    }

    /// The published keys and the fetch count, shared with the server's event loop.
    private final class State: Sendable {
        private let value: Mutex<(keys: [Key], fetches: Int)>

        init(keys: [Key]) { value = Mutex((keys, 0)) }

        var keys: [Key] { value.withLock { $0.keys } }
        var fetchCount: Int { value.withLock { $0.fetches } }

        func publish(_ keys: [Key]) { value.withLock { $0.keys = keys } }

        func fetch() -> [Key] {
            value.withLock {
                $0.fetches += 1
                return $0.keys
            }
        }
    }

    func stop() async {
        await server.stop()
    }

    /// A signed ID token for `now`. `claims` entries override the defaults (`NSNull()` removes
    /// one); `header` entries override the header.
    func token(
        now: Date,
        subject: String = "provider-user-1",
        rawNonce: String? = "raw-nonce",
        email: String? = "ada@example.com",
        emailVerified: Any = true,
        claims overrides: [String: Any] = [:],
        header headerOverrides: [String: Any] = [:],
        key: Key? = nil
    ) throws -> String {
        let key = key ?? currentKey
        var header: [String: Any] = ["alg": "RS256", "kid": key.kid, "typ": "JWT"]
        header.merge(headerOverrides) { _, new in new }
        let seconds = Int(now.timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": issuer, "aud": clientID, "sub": subject, "iat": seconds, "exp": seconds + 600,
            "email_verified": emailVerified,
        ]
        if let email { claims["email"] = email }
        if let rawNonce { claims["nonce"] = Self.sha256Hex(rawNonce) }
        for (name, value) in overrides {
            if value is NSNull { claims.removeValue(forKey: name) } else { claims[name] = value }
        }
        let input = Self.encode(header) + "." + Self.encode(claims)
        let signature = try key.privateKey.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Self.base64URL(signature.rawRepresentation)
    }

    /// A token signed with HMAC-SHA256 keyed by `secret` (the "HS256 with the public key" attack).
    func hmacToken(now: Date, secret: Data, kid: String) -> String {
        let seconds = Int(now.timeIntervalSince1970)
        let claims: [String: Any] = [
            "iss": issuer, "aud": clientID, "sub": "provider-user-1", "iat": seconds, "exp": seconds + 600,
            "nonce": Self.sha256Hex("raw-nonce"),
        ]
        let input = Self.encode(["alg": "HS256", "kid": kid, "typ": "JWT"]) + "." + Self.encode(claims)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: secret))
        return input + "." + Self.base64URL(Data(mac))
    }

    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func encode(_ object: [String: Any]) -> String {
        base64URL(try! JSONSerialization.data(withJSONObject: object, options: .sortedKeys))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
