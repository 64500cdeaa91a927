package import Foundation
package import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import JWTKit

/// Signs and verifies access tokens: ES256 with a `kid` by default (keys generated on first
/// start and kept in the database, published at `/.well-known/jwks.json`), or HS256 when a
/// secret is configured. One key collection holds only our own keys, never a provider's.
package struct TokenService: Sendable {
    let keys: JWTKeyCollection
    /// Verifies tokens naming one of `keys` without a hop onto the collection's actor.
    let verifier: AccessTokenVerifier
    /// Signs with the key `signingKid` names, without a hop onto the collection's actor.
    let signer: AccessTokenSigner
    let signingKid: JWKIdentifier
    /// The public JWKs, for `/.well-known/jwks.json` (empty for HS256).
    package let publicJWKs: [[String: JSONValue]]
    let issuer: String
    let audience = "authenticated"
    let lifetime: Int
    let leeway: Int
    /// Tokens of ours that verified, so that one presented again is not checked again.
    let verified = VerifiedTokenCache()

    static func make(
        configuration: ServerConfiguration,
        storage: any AuthStorage,
        vault: SigningKeyVault,
        now: Date
    ) async throws
        -> TokenService
    {
        let keys = JWTKeyCollection()
        if let secret = configuration.jwtSecret {
            await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: "hs256")
            let algorithm = try await keys.getKey(for: "hs256")
            return TokenService(
                keys: keys,
                verifier: AccessTokenVerifier(algorithms: ["hs256": algorithm]),
                signer: try AccessTokenSigner(algorithm: algorithm, kid: "hs256"),
                signingKid: "hs256",
                publicJWKs: [],
                issuer: configuration.issuer,
                lifetime: configuration.jwtExpiry,
                leeway: configuration.jwtLeeway
            )
        }
        let stored = try await loadSealedKeys(storage: storage, vault: vault, now: now)
        var jwks: [[String: JSONValue]] = []
        var algorithms: [String: any JWTAlgorithm] = [:]
        for record in stored {
            let key = try ES256PrivateKey(pem: try vault.open(record.privatePEM, kid: record.kid))
            await keys.add(ecdsa: key, kid: JWKIdentifier(string: record.kid))
            algorithms[record.kid] = try await keys.getKey(for: JWKIdentifier(string: record.kid))
            if let parameters = key.publicKey.parameters {
                jwks.append([
                    "kty": "EC", "crv": "P-256", "x": .string(parameters.x), "y": .string(parameters.y),
                    "kid": .string(record.kid), "alg": "ES256", "use": "sig", "key_ops": ["verify"],
                ])
            }
        }
        let signing = stored.max { $0.createdAt < $1.createdAt }!
        guard let signingAlgorithm = algorithms[signing.kid] else {
            throw JWTError.generic(identifier: "signing-key", reason: "the newest signing key did not load")
        }
        return TokenService(
            keys: keys,
            verifier: AccessTokenVerifier(algorithms: algorithms),
            signer: try AccessTokenSigner(algorithm: signingAlgorithm, kid: signing.kid),
            signingKid: JWKIdentifier(string: signing.kid),
            publicJWKs: jwks,
            issuer: configuration.issuer,
            lifetime: configuration.jwtExpiry,
            leeway: configuration.jwtLeeway
        )
    }

    /// The stored ES256 keys, creating the first one (sealed) on a new database and sealing any
    /// key stored in plaintext by an earlier version (the migration of keys at rest). Under a
    /// lock, so that instances starting together on one database agree on one key.
    private static func loadSealedKeys(
        storage: any AuthStorage,
        vault: SigningKeyVault,
        now: Date
    ) async throws -> [SigningKeyRecord] {
        let (stored, sealedSome) = try await storage.transaction { tx in
            try await tx.lockSigningKeys()
            var existing = try await tx.signingKeys().filter { $0.algorithm == "ES256" }
            var sealedSome = false
            for index in existing.indices where !SigningKeyVault.isSealed(existing[index].privatePEM) {
                existing[index].privatePEM = try vault.seal(existing[index].privatePEM, kid: existing[index].kid)
                try await tx.updateSigningKey(kid: existing[index].kid, privatePEM: existing[index].privatePEM)
                sealedSome = true
            }
            guard existing.isEmpty else { return (existing, sealedSome) }
            let kid = Hex.encode(SecureRandom.bytes(8))
            let record = SigningKeyRecord(
                kid: kid,
                algorithm: "ES256",
                privatePEM: try vault.seal(ES256PrivateKey().pemRepresentation, kid: kid),
                createdAt: now
            )
            try await tx.insertSigningKey(record)
            return ([record], false)
        }
        // The plaintext must not linger in the WAL or in freed pages.
        if sealedSome { try await storage.checkpoint() }
        return stored
    }

    /// An access token for `user` in `session`.
    func accessToken(for user: UserRecord, session: SessionRecord, now: Date) async throws -> String {
        let issuedAt = Int(now.timeIntervalSince1970)
        var claims = AccessClaims(
            aud: audience,
            exp: issuedAt + lifetime,
            iat: issuedAt,
            iss: issuer,
            sub: user.id.key,
            email: user.email ?? "",
            role: user.role,
            amr: session.amr,
            sessionID: session.id.key,
            isAnonymous: user.isAnonymous,
            appMetadata: user.appMetadata,
            userMetadata: user.userMetadata
        )
        claims.aal = session.aal
        return try signer.sign(claims)
    }

    /// A `service_role` token for the admin API (no session), with a `jti` so that it can be
    /// revoked (``ServiceRoleToken/revoke(jti:database:now:)``).
    package func serviceRoleToken(
        now: Date,
        lifetime: Int = 90 * 86_400,
        jti: String = UUID.random().uuidString
    ) async throws
        -> String
    {
        let issuedAt = Int(now.timeIntervalSince1970)
        var claims = AccessClaims(
            aud: audience,
            exp: issuedAt + lifetime,
            iat: issuedAt,
            iss: issuer,
            sub: "service_role",
            email: "",
            role: "service_role",
            amr: [],
            sessionID: nil,
            isAnonymous: false,
            appMetadata: [:],
            userMetadata: [:]
        )
        claims.aal = .aal1
        claims.jti = jti
        return try signer.sign(claims)
    }

    /// Verifies signature and claims; any failure is 403 `bad_jwt`.
    ///
    /// - Parameter allowProjectKey: Accept, besides our own tokens, a Supabase project key
    ///   (``VerifiedAccess/isSupabaseProjectKey``) signed with the configured HS256 secret, as
    ///   the admin API does so that a project's service key keeps working after a move.
    func verify(_ token: String, now: Date, allowProjectKey: Bool = false) async throws -> VerifiedAccess {
        let seconds = Int(now.timeIntervalSince1970)
        let claims: VerifiedAccess
        if let known = verified.claims(for: token, now: seconds) {
            // The same text verified before: the checks below still run on its claims.
            claims = known
        } else {
            claims = try await checkSignature(token, now: seconds)
        }
        guard claims.exp + leeway > seconds else { throw APIError.badJWT("token has expired") }
        if let nbf = claims.nbf, nbf > seconds + leeway { throw APIError.badJWT("token is not valid yet") }
        if allowProjectKey, signingKid == "hs256", claims.isSupabaseProjectKey { return claims }
        guard claims.iss == issuer else { throw APIError.badJWT("issuer is not accepted") }
        guard claims.aud == audience else { throw APIError.badJWT("audience is not accepted") }
        return claims
    }

    /// The claims of `token` once its form and signature are checked (remembered in ``verified``
    /// when one of our keys signed it).
    private func checkSignature(_ token: String, now seconds: Int) async throws -> VerifiedAccess {
        guard token.utf8.count < 16_384, let compact = CompactJWT(token) else {
            throw APIError.badJWT("token is malformed")
        }
        // One spelling per token: a JWT whose segments decode alike but differ in text is refused.
        guard compact.isCanonical else {
            throw APIError.badJWT("token is not canonical base64url")
        }
        do {
            if let checked = try await verifier.verify(compact) {
                verified.remember(token, claims: checked, expires: checked.exp + leeway, now: seconds)
                return checked
            }
            return try await keys.verify(token, as: VerifiedAccess.self)
        } catch {
            throw APIError.badJWT("signature is invalid")
        }
    }
}
