public import Foundation

/// Sign in with Apple or Google: which apps' ID tokens are accepted and where the provider's
/// keys are published. A provider with no client ids is disabled.
public struct IdentityProviderSettings: Sendable, Equatable {
    /// Accepted `aud` values (and, for Google, `azp` values): bundle ids, Services ids or
    /// OAuth client ids.
    public var clientIDs: [String]
    /// The provider's JWKS address: HTTPS, or HTTP on a loopback host (tests).
    public var jwksURL: URL

    public init(clientIDs: [String] = [], jwksURL: URL) {
        self.clientIDs = clientIDs
        self.jwksURL = jwksURL
    }

    /// Whether ID tokens of this provider are accepted.
    public var isEnabled: Bool { !clientIDs.isEmpty }

    /// Apple's defaults (disabled until client ids are set).
    public static let apple = IdentityProviderSettings(jwksURL: URL(string: "https://appleid.apple.com/auth/keys")!)
    /// Google's defaults (disabled until client ids are set).
    public static let google = IdentityProviderSettings(
        jwksURL: URL(string: "https://www.googleapis.com/oauth2/v3/certs")!
    )
}
