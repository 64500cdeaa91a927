import Foundation
import JWTKit
import Logging

/// One provider's published keys, fetched on first use and cached: refetched when the cache
/// age passes (`Cache-Control: max-age`, else one hour) and on an unknown `kid`, at most once
/// a minute. Never mixed with the server's own signing keys.
actor ProviderKeySet {
    /// Why a token could not be checked against the set.
    enum Failure: Error, Equatable {
        /// The keys could not be fetched and none are cached.
        case unavailable
        /// No key in the set has the token's `kid`, even after a refetch.
        case unknownKey
        /// The header's `alg` is not the key's, or not an asymmetric algorithm.
        case wrongAlgorithm
        /// The signature does not verify.
        case badSignature
    }

    static let refetchSpacing: TimeInterval = 60
    static let defaultCacheAge: TimeInterval = 3600
    static let acceptedAlgorithms: Set<String> = ["RS256", "RS384", "RS512", "ES256", "ES384", "PS256"]

    private let url: URL
    private let fetcher: JWKSFetcher
    private let logger: Logger
    private var keys: JWTKeyCollection?
    /// `kid` → the key's `alg` (nil when the JWK does not name one).
    private var algorithms: [String: String?] = [:]
    private var expiresAt = Date.distantPast
    private var lastAttempt: Date?
    private var inFlight: Task<Void, any Error>?

    init(url: URL, fetcher: JWKSFetcher, logger: Logger) {
        self.url = url
        self.fetcher = fetcher
        self.logger = logger
    }

    /// Verifies the token's signature with the key its header names and returns its claims
    /// (not yet checked: see ``IDTokenVerifier``).
    func verify(_ token: String, kid: String, alg: String, now: Date) async throws -> IDTokenClaims {
        try await verify(token, as: IDTokenClaims.self, kid: kid, alg: alg, now: now)
    }

    /// Verifies a token of Apple's or Google's other kinds (Apple's server-to-server
    /// notifications) with the key its header names; its claims are checked by the caller.
    func verify<Claims: JWTPayload>(
        _ token: String,
        as type: Claims.Type,
        kid: String,
        alg: String,
        now: Date
    ) async throws -> Claims {
        if keys == nil || now >= expiresAt {
            do {
                try await refresh(now: now)
            } catch {
                // A stale set still verifies; only no set at all is an outage.
                guard keys != nil else { throw Failure.unavailable }
                logger.warning("Provider keys could not be refreshed", metadata: ["jwks.url": "\(url)"])
            }
        }
        if algorithms[kid] == nil, now.timeIntervalSince(lastAttempt ?? .distantPast) >= Self.refetchSpacing {
            do {
                try await refresh(now: now)
            } catch {
                throw Failure.unavailable
            }
        }
        guard let keyAlgorithm = algorithms[kid], let keys else { throw Failure.unknownKey }
        guard Self.acceptedAlgorithms.contains(alg), keyAlgorithm == nil || keyAlgorithm == alg else {
            throw Failure.wrongAlgorithm
        }
        do {
            return try await keys.verify(token, as: Claims.self)
        } catch {
            throw Failure.badSignature
        }
    }

    /// Fetches the set once for all concurrent callers.
    private func refresh(now: Date) async throws {
        if let inFlight { return try await inFlight.value }
        lastAttempt = now
        // Shared by the requests waiting for the keys (each awaits it), so one fetch serves them
        // all; it ends with its request's timeout.
        let task = Task { try await self.load(now: now) }
        inFlight = task
        defer { inFlight = nil }
        try await task.value
    }

    private func load(now: Date) async throws {
        let document: JWKSFetcher.Document
        do {
            document = try await fetcher.fetch(url)
        } catch {
            logger.error("Provider keys could not be fetched", metadata: ["jwks.url": "\(url)"])
            throw error
        }
        let jwks = try JSONDecoder().decode(JWKS.self, from: document.body)
        let collection = JWTKeyCollection()
        var found: [String: String?] = [:]
        for jwk in jwks.keys {
            guard let kid = jwk.keyIdentifier?.string else { continue }
            do {
                try await collection.add(jwk: jwk, isDefault: false)
                found[kid] = jwk.algorithm?.rawValue
            } catch {
                logger.warning("A provider key was skipped", metadata: ["jwks.kid": "\(kid)"])
            }
        }
        keys = collection
        algorithms = found
        expiresAt = now.addingTimeInterval(document.maxAge ?? Self.defaultCacheAge)
        logger.info("Provider keys loaded", metadata: ["jwks.url": "\(url)", "jwks.count": "\(found.count)"])
    }
}
