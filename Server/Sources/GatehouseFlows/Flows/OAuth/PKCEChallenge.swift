import Crypto
import Foundation
import GatehouseCore
package import GatehouseServerSupport
import GatehouseStorage

/// An app's PKCE challenge (RFC 7636), as GoTrue takes it on `/authorize`, `/signup`, `/otp`,
/// `/recover`, `/resend` and `PUT /user`: 43 to 128 characters of `[A-Za-z0-9._~-]`, with the
/// method `s256` or `plain` (either case). The app that holds the verifier, and only it, turns the
/// flow's `auth_code` into a session (`POST /token?grant_type=pkce`).
struct PKCEChallenge: Sendable, Equatable {
    /// How the challenge was made from the verifier.
    enum Method: String, Sendable {
        /// `BASE64URL(SHA256(verifier))`.
        case s256
        /// The verifier itself.
        case plain
    }

    let challenge: String
    let method: Method

    /// The challenge of a request, `nil` when it sends neither field.
    /// - Throws: 400 `validation_failed` when only one is sent, or either is malformed.
    static func parse(challenge: String?, method: String?) throws -> PKCEChallenge? {
        let challenge = challenge.flatMap { $0.isEmpty ? nil : $0 }
        let method = method.flatMap { $0.isEmpty ? nil : $0 }
        guard challenge != nil || method != nil else { return nil }
        guard let challenge, let method else {
            throw APIError.validation("PKCE flow requires code_challenge_method and code_challenge")
        }
        guard (43...128).contains(challenge.utf8.count) else {
            throw APIError.validation("code challenge has to be between 43 and 128 characters")
        }
        guard challenge.utf8.allSatisfy(Self.isUnreserved) else {
            throw APIError.validation(
                "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes"
            )
        }
        guard let parsed = Method(rawValue: method.lowercased()) else {
            throw APIError.validation("code challenge method must be s256 or plain")
        }
        return PKCEChallenge(challenge: challenge, method: parsed)
    }

    /// Whether `verifier` is the one the challenge was made from (compared in constant time).
    func isMatched(by verifier: String) -> Bool {
        switch method {
        case .plain: ConstantTime.equal(challenge, verifier)
        case .s256: ConstantTime.equal(challenge, Self.s256(verifier))
        }
    }

    /// `BASE64URL(SHA256(verifier))`, the S256 challenge of `verifier`.
    static func s256(_ verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// A fresh verifier: 32 random bytes, base64url (43 characters).
    static func newVerifier() -> String { Base64URL.encode(SecureRandom.bytes(32)) }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

/// The PKCE fields a JSON request sends beside its own (`code_challenge`, `code_challenge_method`),
/// decoded next to it (``JSONBody/decode(_:_:from:context:)``).
package struct PKCEFields: Decodable, Sendable {
    var codeChallenge: String?
    var codeChallengeMethod: String?

    enum CodingKeys: String, CodingKey {
        case codeChallenge = "code_challenge"
        case codeChallengeMethod = "code_challenge_method"
    }

    /// The challenge, validated.
    func challenge() throws -> PKCEChallenge? {
        try PKCEChallenge.parse(challenge: codeChallenge, method: codeChallengeMethod)
    }
}

/// An e-mail request's PKCE binding (GoTrue's PKCE e-mail flows): the link mailed with it
/// (`pkce_…`) opens `GET /verify`, which redirects to ``redirectTo`` with `?code=` instead of
/// the tokens, and only the holder of the verifier exchanges the code for a session.
package struct EmailPKCE: Sendable {
    let challenge: PKCEChallenge
    /// Where `GET /verify` sends the browser with the code (allowed by the redirect policy).
    let redirectTo: String

    /// The binding of a request that sent `fields` and `redirect_to`; `nil` without a challenge.
    package static func from(_ fields: PKCEFields, redirectTo: String?, policy: RedirectPolicy) throws -> EmailPKCE? {
        try fields.challenge().map { EmailPKCE(challenge: $0, redirectTo: policy.target(redirectTo)) }
    }

    /// The prefix of a PKCE link's token, as GoTrue writes it.
    static let linkPrefix = "pkce_"

    /// How long a flow waits for the code's link (as long as the code lives) and, once the link
    /// issued its `auth_code`, for the exchange.
    static let codeLifetime: TimeInterval = 600
}
