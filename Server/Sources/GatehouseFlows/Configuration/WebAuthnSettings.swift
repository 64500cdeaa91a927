import Foundation
import GatehouseServerSupport

/// The WebAuthn relying party (passkeys): off unless an RP id is set
/// (`GATEHOUSE_WEBAUTHN_RP_ID`, `GATEHOUSE_WEBAUTHN_RP_NAME`, `GATEHOUSE_WEBAUTHN_ORIGINS`).
public struct WebAuthnSettings: Sendable, Equatable {
    /// The RP id: the registrable domain passkeys belong to, such as `example.com` (an iOS
    /// app's associated domain). `nil`: passkeys are off.
    public var rpID: String?
    /// The name authenticators show beside the account.
    public var rpName: String = "Gatehouse"
    /// Origins whose client data is accepted: `https://` web origins (or `http://localhost`),
    /// and `ios:bundle-id:…` / `android:apk-key-hash:…` app origins. Empty: `https://<rp id>`,
    /// the origin Apple's platform authenticator reports for an app with the associated domain.
    public var origins: [String] = []

    public init(rpID: String? = nil, rpName: String = "Gatehouse", origins: [String] = []) {
        self.rpID = rpID
        self.rpName = rpName
        self.origins = origins
    }

    /// Whether passkeys are on.
    public var isEnabled: Bool { rpID != nil }

    /// The origins accepted in client data.
    public var allowedOrigins: [String] {
        guard let rpID else { return [] }
        return origins.isEmpty ? ["https://\(rpID)"] : origins
    }
}

extension EnvironmentReader {
    /// `GATEHOUSE_WEBAUTHN_RP_ID`, `_RP_NAME` and `_ORIGINS` (comma-separated).
    func webAuthn(defaults: WebAuthnSettings) throws -> WebAuthnSettings {
        var settings = defaults
        if let id = string("GATEHOUSE_WEBAUTHN_RP_ID") {
            let valid = !id.contains("/") && !id.contains(":") && !id.contains(" ") && id == id.lowercased()
            guard valid else {
                throw ConfigurationError(
                    variable: "GATEHOUSE_WEBAUTHN_RP_ID",
                    problem: "must be a lowercase domain such as example.com, not “\(id)”"
                )
            }
            settings.rpID = id
        }
        settings.rpName = string("GATEHOUSE_WEBAUTHN_RP_NAME") ?? settings.rpName
        if let list = string("GATEHOUSE_WEBAUTHN_ORIGINS") {
            let origins = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            for origin in origins where !Self.isAcceptableOrigin(origin) {
                throw ConfigurationError(
                    variable: "GATEHOUSE_WEBAUTHN_ORIGINS",
                    problem: "“\(origin)” is not an https:// origin (http only for localhost), "
                        + "ios:bundle-id:… or android:apk-key-hash:…"
                )
            }
            settings.origins = origins
        }
        return settings
    }

    static func isAcceptableOrigin(_ origin: String) -> Bool {
        if origin.hasPrefix("ios:bundle-id:") || origin.hasPrefix("android:apk-key-hash:") { return true }
        guard let url = URL(string: origin), let host = url.host, url.path.isEmpty, url.query == nil else {
            return false
        }
        return url.scheme == "https" || (url.scheme == "http" && ["localhost", "127.0.0.1"].contains(host))
    }
}
