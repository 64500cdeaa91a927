import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import HTTPTypes
import Hummingbird

/// `POST /apple/notifications`: Apple's server-to-server notifications, the address entered
/// in Apple's developer portal (``AppleNotificationHandling``). Body: `{"payload": "<JWT>"}`.
struct AppleNotificationController {
    /// `nil` when Sign in with Apple is off.
    let handling: AppleNotificationHandling?

    /// The largest body read: a notification is a few hundred bytes.
    static let maximumBodyBytes = 16_384

    struct Body: Decodable {
        var payload: String
    }

    func register(on router: some RouterMethods<AppRequestContext>) {
        router.post("apple/notifications") { request, context in
            let body = try await JSONBody.decode(
                Body.self,
                from: request,
                context: context,
                limit: Self.maximumBodyBytes,
                // Apple's documentation does not say it declares the body's type; a browser's
                // cross-site post gains nothing here, where only Apple's signature counts.
                undeclaredIsJSON: true
            )
            guard let handling else {
                throw APIError(
                    .badRequest,
                    .providerDisabled,
                    "Sign in with Apple is not enabled on this server (set GATEHOUSE_APPLE_CLIENT_IDS)."
                )
            }
            try await handling(payload: body.payload)
            return try JSONBody.empty(request: request)
        }
    }
}
