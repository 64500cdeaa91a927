import Foundation
import GatehouseCore
import GatehouseFlows
import HTTPTypes
import Hummingbird

/// `GET /health`, `GET /settings`, `GET /.well-known/jwks.json`.
struct MetadataController {
    let configuration: ServerConfiguration
    /// The public signing keys (empty for HS256).
    let publicJWKs: [[String: JSONValue]]

    func register(on router: some RouterMethods<AppRequestContext>) {
        router.get("health") { request, _ in
            try JSONBody.response(
                [
                    "version": "0.1.0", "name": "Gatehouse",
                    "description": "Gatehouse is a GoTrue-compatible auth server in Swift.",
                ],
                request: request
            )
        }
        router.get("settings") { request, _ in
            let settings: [String: JSONValue] = [
                "external": .object(Self.external(configuration)),
                "disable_signup": .bool(configuration.signupDisabled),
                "mailer_autoconfirm": .bool(configuration.mailerAutoconfirm),
                "phone_autoconfirm": false,
                "sms_provider": "",
                "saml_enabled": false,
                "passkeys_enabled": .bool(configuration.webAuthn.isEnabled),
            ]
            return try JSONBody.response(settings, request: request)
        }
        router.get(".well-known/jwks.json") { request, _ in
            var response = try JSONBody.response(["keys": publicJWKs], request: request)
            response.headers[.cacheControl] = "public, max-age=600"
            return response
        }
    }

    /// `/settings`' `external`, as GoTrue lists it: each way in and whether it is on. A provider
    /// is on for its ID tokens (`GATEHOUSE_APPLE_CLIENT_IDS`) or its page
    /// (`GATEHOUSE_EXTERNAL_<NAME>_CLIENT_ID`); every provider named by the operator is listed.
    static func external(_ configuration: ServerConfiguration) -> [String: JSONValue] {
        let web = Set(configuration.externalProviders.map(\.name))
        var external: [String: JSONValue] = [
            "anonymous_users": .bool(configuration.anonymousUsers), "email": true, "phone": false,
            "apple": .bool(configuration.apple.isEnabled || web.contains("apple")),
            "google": .bool(configuration.google.isEnabled || web.contains("google")),
            "github": .bool(web.contains("github")),
        ]
        for name in web where external[name] == nil { external[name] = true }
        return external
    }
}
