import Foundation
import JWTKit

/// The client secret Apple's token and revoke endpoints take: a JWT the developer signs with
/// their Sign in with Apple key (ES256, `kid` the key id), issued by the team (`iss`) for the
/// app (`sub` the client id), addressed to `https://appleid.apple.com`, living five minutes.
/// Made fresh for every call, so no secret outlives its use.
struct AppleClientSecret: Sendable {
    /// Apple's required audience.
    static let audience = "https://appleid.apple.com"
    /// How long one secret is valid (Apple allows up to six months; a call needs seconds).
    static let lifetime: TimeInterval = 300

    private let settings: AppleAccountSettings
    private let keys: JWTKeyCollection

    /// - Throws: When the key is not a P-256 key (checked at configuration already).
    init(settings: AppleAccountSettings) async throws {
        self.settings = settings
        let key = try ES256PrivateKey(pem: settings.privateKeyPEM)
        keys = await JWTKeyCollection().add(ecdsa: key, kid: JWKIdentifier(string: settings.keyID))
    }

    /// A signed secret for `clientID`, issued at `now`.
    func make(clientID: String, now: Date) async throws -> String {
        let seconds = Int(now.timeIntervalSince1970)
        let claims = Claims(
            issuer: settings.teamID,
            subject: clientID,
            audience: Self.audience,
            issuedAt: seconds,
            expires: seconds + Int(Self.lifetime)
        )
        return try await keys.sign(claims, kid: JWKIdentifier(string: settings.keyID))
    }

    /// The secret's claims.
    struct Claims: JWTPayload {
        var issuer: String
        var subject: String
        var audience: String
        var issuedAt: Int
        var expires: Int

        enum CodingKeys: String, CodingKey {
            case issuer = "iss"
            case subject = "sub"
            case audience = "aud"
            case issuedAt = "iat"
            case expires = "exp"
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
