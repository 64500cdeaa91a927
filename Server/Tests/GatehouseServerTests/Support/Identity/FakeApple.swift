import Crypto
import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseServerSupport
import HTTPTypes
import Hummingbird
import NIOCore

/// A stand-in for Apple's Sign in with Apple endpoints on loopback (issue 21): the key set and
/// ID tokens (a ``FakeProvider``), `/auth/token` that checks the client-secret JWT's ES256
/// signature against the developer key the server is configured with and its claims before it
/// exchanges a code it issued, `/auth/revoke` that records calls and can fail a number of
/// times first, and signed server-to-server notifications.
final class FakeApple: Sendable {
    static let teamID = "TEAM123456"
    static let keyID = "KEY9876543"

    /// A revocation Apple was asked for.
    struct Revocation: Sendable, Equatable {
        var token: String
        var clientID: String
        var hint: String?
        /// Whether Apple took it (else it answered 503 on purpose).
        var accepted: Bool
    }

    /// A value shared with the fake's event loop.
    private final class Shared<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value
        init(_ value: Value) { self.value = value }
        func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
            try lock.withLock { try body(&value) }
        }
    }

    /// Who signs in on Apple's web page (``webAuthorize``).
    struct WebAccount: Sendable {
        var subject = "apple-web-user-1"
        var email: String? = "ada@example.com"
        var emailVerified = true
        /// The name Apple posts beside the code on the first authorization.
        var firstName: String? = "Ada"
        var lastName: String? = "Lovelace"
    }

    private struct State: Sendable {
        var codes: [String: (subject: String, clientID: String)] = [:]
        /// Codes of the web page: with the nonce and the address the ID token carries.
        var webCodes: [String: (account: WebAccount, clientID: String, nonce: String?)] = [:]
        var webAccount = WebAccount()
        var refreshTokens: [String] = []
        var revocations: [Revocation] = []
        var failuresLeft = 0
        var exchanges = 0
        var refusedSecrets = 0
    }

    let provider: FakeProvider
    /// The consent page of the web sign-in.
    let webConsent: FakeConsent
    /// The developer key (`.p8`) the server signs its client secrets with.
    let developerKey: P256.Signing.PrivateKey
    private let state: Shared<State>
    private let clock: @Sendable () -> Date

    /// Starts a fake Apple for the app `clientID`, on `clock`'s time.
    init(clientID: String, clock: @escaping @Sendable () -> Date) async throws {
        let developerKey = P256.Signing.PrivateKey()
        let state = Shared(State())
        let box = Shared<FakeProvider?>(nil)
        self.developerKey = developerKey
        self.state = state
        let webConsent = FakeConsent()
        self.webConsent = webConsent
        self.clock = clock
        let publicKey = developerKey.publicKey
        provider = try await FakeProvider.start(issuer: "https://appleid.apple.com", clientID: clientID) { router in
            router.post("auth/token") { request, _ -> Response in
                let form = try await Self.form(request)
                guard
                    Self.secretIsValid(form["client_secret"], clientID: form["client_id"], key: publicKey, now: clock())
                else {
                    state.withLock { $0.refusedSecrets += 1 }
                    return Self.json(400, ["error": "invalid_client"])
                }
                if form["grant_type"] == "authorization_code", let code = form["code"],
                    let web = state.withLock({ $0.webCodes.removeValue(forKey: code) })
                {
                    guard web.clientID == form["client_id"] else { return Self.json(400, ["error": "invalid_grant"]) }
                    var claims: [String: Any] = ["aud": web.clientID]
                    if let nonce = web.nonce { claims["nonce"] = nonce }
                    // Apple writes booleans as strings.
                    claims["email_verified"] = web.account.emailVerified ? "true" : "false"
                    let idToken = try box.withLock { $0 }!.token(
                        now: clock(),
                        subject: web.account.subject,
                        rawNonce: nil,
                        email: web.account.email,
                        claims: claims
                    )
                    let refreshToken = "apple-refresh-\(UUID().uuidString)"
                    state.withLock {
                        $0.refreshTokens.append(refreshToken)
                        $0.exchanges += 1
                    }
                    return Self.json(
                        200,
                        [
                            "access_token": "apple-access", "token_type": "Bearer", "expires_in": 3600,
                            "refresh_token": refreshToken, "id_token": idToken,
                        ]
                    )
                }
                guard form["grant_type"] == "authorization_code", let code = form["code"],
                    let grant = state.withLock({ $0.codes.removeValue(forKey: code) }),
                    grant.clientID == form["client_id"]
                else { return Self.json(400, ["error": "invalid_grant"]) }
                let refreshToken = "apple-refresh-\(UUID().uuidString)"
                state.withLock {
                    $0.refreshTokens.append(refreshToken)
                    $0.exchanges += 1
                }
                let idToken = try box.withLock { $0 }!.token(
                    now: clock(),
                    subject: grant.subject,
                    rawNonce: nil,
                    email: nil,
                    claims: ["aud": grant.clientID]
                )
                return Self.json(
                    200,
                    [
                        "access_token": "apple-access", "token_type": "Bearer", "expires_in": 3600,
                        "refresh_token": refreshToken, "id_token": idToken,
                    ]
                )
            }
            // Sign in with Apple on the web: the consent page, then a page that posts the code
            // (and, the first time, the name) to the redirect URI (`response_mode=form_post`).
            router.get("auth/authorize") { request, _ -> Response in
                let query = FakeConsent.query(request)
                guard let clientID = query["client_id"], let redirectURI = query["redirect_uri"],
                    query["response_mode"] == "form_post"
                else { return Self.json(400, ["error": "invalid_request"]) }
                let authorization = FakeConsent.Authorization(
                    clientID: clientID,
                    redirectURI: redirectURI,
                    state: query["state"],
                    nonce: query["nonce"],
                    scope: query["scope"]
                )
                let account = state.withLock { $0.webAccount }
                return webConsent.page(
                    for: authorization,
                    provider: "Fake Apple",
                    profile: FakeProfile(subject: account.subject, email: account.email),
                    action: "/auth/consent"
                )
            }
            router.post("auth/consent") { request, _ -> Response in
                let form = try await FakeConsent.form(request)
                guard let authorization = webConsent.take(form["request"]) else {
                    return Self.json(400, ["error": "unknown request"])
                }
                var fields: [(String, String)] = []
                if form["decision"] == "allow" {
                    let code = "w" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
                    let account = state.withLock { state in
                        state.webCodes[code] = (state.webAccount, authorization.clientID, authorization.nonce)
                        return state.webAccount
                    }
                    fields.append(("code", code))
                    if account.firstName != nil || account.lastName != nil {
                        let user: [String: Any] = [
                            "name": ["firstName": account.firstName ?? "", "lastName": account.lastName ?? ""],
                            "email": account.email ?? "",
                        ]
                        let json = String(decoding: try JSONSerialization.data(withJSONObject: user), as: UTF8.self)
                        fields.append(("user", json))
                    }
                } else {
                    fields.append(("error", "user_cancelled_authorize"))
                }
                if let state = authorization.state { fields.append(("state", state)) }
                let inputs = fields.map {
                    "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(FakeConsent.escape($0.1))\">"
                }.joined()
                return FakeConsent.html(
                    """
                    <!doctype html><html><body>
                    <form id="post" method="post" action="\(FakeConsent.escape(authorization.redirectURI))">\(inputs)</form>
                    <script>document.getElementById("post").submit()</script>
                    </body></html>
                    """
                )
            }
            router.post("auth/revoke") { request, _ -> Response in
                let form = try await Self.form(request)
                guard
                    Self.secretIsValid(form["client_secret"], clientID: form["client_id"], key: publicKey, now: clock())
                else {
                    state.withLock { $0.refusedSecrets += 1 }
                    return Self.json(400, ["error": "invalid_client"])
                }
                let failing = state.withLock { state in
                    let failing = state.failuresLeft > 0
                    if failing { state.failuresLeft -= 1 }
                    state.revocations.append(
                        Revocation(
                            token: form["token"] ?? "",
                            clientID: form["client_id"] ?? "",
                            hint: form["token_type_hint"],
                            accepted: !failing
                        )
                    )
                    return failing
                }
                return failing ? Self.json(503, ["error": "temporarily_unavailable"]) : Self.json(200, [:])
            }
        }
        box.withLock { $0 = provider }
    }

    /// The settings that point the server at this fake.
    var account: AppleAccountSettings {
        AppleAccountSettings(teamID: Self.teamID, keyID: Self.keyID, privateKeyPEM: developerKey.pemRepresentation)
    }

    /// A one-time authorization code for `subject` at `clientID` (the app's by default).
    func issueCode(subject: String, clientID: String? = nil) -> String {
        let code = "c" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        state.withLock { $0.codes[code] = (subject, clientID ?? provider.clientID) }
        return code
    }

    /// Changes who signs in on the web page.
    func changeWebAccount(_ edit: (inout WebAccount) -> Void) { state.withLock { edit(&$0.webAccount) } }

    /// Answers the next `count` revocations with 503.
    func failRevocations(_ count: Int) { state.withLock { $0.failuresLeft = count } }

    var revocations: [Revocation] { state.withLock { $0.revocations } }
    var refreshTokens: [String] { state.withLock { $0.refreshTokens } }
    var exchanges: Int { state.withLock { $0.exchanges } }
    var refusedSecrets: Int { state.withLock { $0.refusedSecrets } }

    /// A server-to-server notification as Apple sends it (`{"payload": "<JWT>"}`), signed with
    /// Apple's key (or `key`); `claims` entries override the defaults (`NSNull()` removes one).
    func notification(
        _ type: String,
        subject: String,
        now: Date,
        eventTime: Double? = nil,
        claims overrides: [String: Any] = [:],
        key: FakeProvider.Key? = nil
    ) throws -> String {
        var event: [String: Any] = [
            "type": type, "sub": subject, "event_time": Int((eventTime ?? now.timeIntervalSince1970) * 1000),
        ]
        if type.hasPrefix("email") {
            event["email"] = "relay@privaterelay.appleid.com"
            event["is_private_email"] = "true"
        }
        let events = String(decoding: try JSONSerialization.data(withJSONObject: event), as: UTF8.self)
        var claims: [String: Any] = [
            "events": events, "jti": UUID().uuidString, "sub": NSNull(), "exp": NSNull(), "email_verified": NSNull(),
        ]
        claims.merge(overrides) { _, new in new }
        let payload = try provider.token(now: now, rawNonce: nil, email: nil, claims: claims, key: key)
        return String(
            decoding: try JSONSerialization.data(withJSONObject: ["payload": payload]),
            as: UTF8.self
        )
    }

    func stop() async { await provider.stop() }

    // MARK: - Checks Apple makes

    /// Whether `secret` is an ES256 JWT by the developer key with Apple's claims for `clientID`.
    static func secretIsValid(_ secret: String?, clientID: String?, key: P256.Signing.PublicKey, now: Date) -> Bool {
        guard let secret, let clientID else { return false }
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = decode(parts[0]), let claimsData = decode(parts[1]),
            let signatureData = decode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any],
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return false }
        let seconds = now.timeIntervalSince1970
        guard header["alg"] as? String == "ES256", header["kid"] as? String == keyID,
            claims["iss"] as? String == teamID, claims["sub"] as? String == clientID,
            claims["aud"] as? String == "https://appleid.apple.com",
            let iat = (claims["iat"] as? NSNumber)?.doubleValue, let exp = (claims["exp"] as? NSNumber)?.doubleValue,
            iat <= seconds + 60, exp > seconds, exp - iat <= 600
        else { return false }
        return true
    }

    private static func decode(_ part: String) -> Data? {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    private static func form(_ request: Request) async throws -> [String: String] {
        let buffer = try await request.body.collect(upTo: 65_536)
        let text = String(buffer: buffer)
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    private static func json(_ status: Int, _ object: [String: Any]) -> Response {
        let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
