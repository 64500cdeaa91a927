import Foundation
import GatehouseStorage
import Logging

/// The server acting as the app's developer at Apple, when `GATEHOUSE_APPLE_TEAM_ID`,
/// `GATEHOUSE_APPLE_KEY_ID` and `GATEHOUSE_APPLE_PRIVATE_KEY` are set: the code exchange at
/// sign-in, the revocation on deletion, and the sealing of the refresh token in between.
struct AppleAccountClient: Sendable {
    let exchange: AppleTokenExchange
    let revoker: AppleTokenRevoker
    let sealing: AppleTokenSealing
    /// Logs, once per client id, sign-ins that came without the code to exchange.
    let missingCode: MissingCodeNotice

    /// The client over `settings`, Apple at `baseURL`, Apple's keys from `keys` (the ID-token
    /// verifier's set).
    static func make(
        settings: AppleAccountSettings,
        baseURL: URL,
        keys: ProviderKeySet,
        vault: SigningKeyVault,
        leeway: TimeInterval,
        poster: AppleFormPoster = .live,
        logger: Logger
    ) async throws -> AppleAccountClient {
        let secret = try await AppleClientSecret(settings: settings)
        return AppleAccountClient(
            exchange: AppleTokenExchange(
                secret: secret,
                poster: poster,
                tokenURL: baseURL.appendingPathComponent("auth/token"),
                keys: keys,
                leeway: leeway,
                logger: logger
            ),
            revoker: AppleTokenRevoker(
                secret: secret,
                poster: poster,
                revokeURL: baseURL.appendingPathComponent("auth/revoke")
            ),
            sealing: AppleTokenSealing(vault: vault),
            missingCode: MissingCodeNotice(logger: logger)
        )
    }
}
