import Foundation
import Logging

/// An OpenID Connect provider's metadata (OpenID Connect Discovery 1.0, RFC 8414): fetched from
/// `<issuer>/.well-known/openid-configuration` on first use and kept for an hour (or the
/// document's `max-age`), refetched at most once a minute after a failure. The document's `issuer`
/// must be the configured issuer exactly (Discovery §4.3), or it is not used.
actor ProviderMetadata {
    /// What the server reads of the document.
    struct Document: Decodable, Sendable {
        var issuer: String
        var authorizationEndpoint: URL
        var tokenEndpoint: URL
        var jwksURI: URL
        var tokenEndpointAuthMethods: [String]?
        /// RFC 9207: the provider puts `iss` in every authorization response.
        var issParameterSupported: Bool?

        enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case jwksURI = "jwks_uri"
            case tokenEndpointAuthMethods = "token_endpoint_auth_methods_supported"
            case issParameterSupported = "authorization_response_iss_parameter_supported"
        }
    }

    /// The metadata, and the provider's key set at its `jwks_uri`.
    struct Loaded: Sendable {
        var document: Document
        var keys: ProviderKeySet
    }

    static let defaultCacheAge: TimeInterval = 3600
    static let retrySpacing: TimeInterval = 60

    private let issuer: String
    /// A document given in full (Apple's endpoints are fixed), never fetched.
    private let fixed: Document?
    private let http: ProviderHTTP
    private let fetcher: JWKSFetcher
    private let logger: Logger
    private var loaded: Loaded?
    private var expiresAt = Date.distantPast
    private var lastFailure: Date?

    init(issuer: String, fixed: Document? = nil, http: ProviderHTTP, fetcher: JWKSFetcher, logger: Logger) {
        self.issuer = issuer
        self.fixed = fixed
        self.http = http
        self.fetcher = fetcher
        self.logger = logger
    }

    /// The metadata; a stale copy when a refetch fails.
    /// - Throws: ``ProviderFailure/unavailable(_:)`` when there is none.
    func current(now: Date = Date(), displayName: String) async throws -> Loaded {
        if let loaded, now < expiresAt { return loaded }
        if let fixed {
            let loaded =
                self.loaded
                ?? Loaded(document: fixed, keys: ProviderKeySet(url: fixed.jwksURI, fetcher: fetcher, logger: logger))
            self.loaded = loaded
            expiresAt = .distantFuture
            return loaded
        }
        if let lastFailure, now.timeIntervalSince(lastFailure) < Self.retrySpacing {
            if let loaded { return loaded }
            throw ProviderFailure.unavailable(displayName)
        }
        do {
            let (document, maxAge) = try await fetch()
            // The key set stays when the document names the same one (its cache survives).
            let keys =
                loaded.flatMap { $0.document.jwksURI == document.jwksURI ? $0.keys : nil }
                ?? ProviderKeySet(url: document.jwksURI, fetcher: fetcher, logger: logger)
            let fresh = Loaded(document: document, keys: keys)
            loaded = fresh
            expiresAt = now.addingTimeInterval(maxAge ?? Self.defaultCacheAge)
            lastFailure = nil
            return fresh
        } catch {
            lastFailure = now
            logger.error(
                "A provider's OpenID Connect metadata could not be used",
                metadata: ["oidc.issuer": "\(issuer)", "error": "\(error)"]
            )
            if let loaded { return loaded }
            throw ProviderFailure.unavailable(displayName)
        }
    }

    /// Why a document was not used.
    enum Failure: Error, CustomStringConvertible {
        case status(Int)
        case unreadable
        case otherIssuer(String)
        case insecureEndpoint(URL)

        var description: String {
            switch self {
            case .status(let status): "the discovery document answered \(status)"
            case .unreadable: "the discovery document is not the JSON OpenID Connect Discovery describes"
            case .otherIssuer(let issuer): "the discovery document names another issuer (\(issuer))"
            case .insecureEndpoint(let url): "the discovery document names an endpoint without https (\(url))"
            }
        }
    }

    private func fetch() async throws -> (Document, TimeInterval?) {
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        guard let url = URL(string: trimmed + "/.well-known/openid-configuration") else { throw Failure.unreadable }
        let reply = try await http.get(url)
        guard reply.status == 200 else { throw Failure.status(reply.status) }
        guard let document = try? JSONDecoder().decode(Document.self, from: reply.body) else {
            throw Failure.unreadable
        }
        guard document.issuer == issuer else { throw Failure.otherIssuer(document.issuer) }
        for endpoint in [document.authorizationEndpoint, document.tokenEndpoint, document.jwksURI]
        where !Self.isSecure(endpoint) {
            throw Failure.insecureEndpoint(endpoint)
        }
        return (document, JWKSFetcher.maxAge(reply.cacheControl))
    }

    /// HTTPS, or HTTP on a loopback host (tests and a provider on the same machine).
    static func isSecure(_ url: URL) -> Bool {
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host ?? "")
        return url.scheme == "https" || (url.scheme == "http" && loopback)
    }
}
