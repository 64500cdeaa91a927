public import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// A provider whose page signs people in through the browser (`GET /authorize`), named by the
/// operator: `GATEHOUSE_EXTERNAL_<NAME>_CLIENT_ID`, `_SECRET`, `_SCOPES`, `_REDIRECT_URI`, and
/// `_ISSUER` for an OpenID Connect provider, `_URL` for GitHub Enterprise. GoTrue's
/// `GOTRUE_EXTERNAL_<NAME>_…` spellings are read too (`_ENABLED=false` turns one off).
public struct ExternalProviderSettings: Sendable, Equatable {
    /// What the provider speaks.
    public enum Kind: Sendable, Equatable {
        /// OpenID Connect, from the issuer's discovery document (Google's issuer by default
        /// for `google`).
        case openIDConnect(issuer: String)
        /// GitHub or GitHub Enterprise Server at `url` (`https://github.com` by default).
        case github(url: URL)
        /// Sign in with Apple on the web (`response_mode=form_post`), Apple at
        /// ``ServerConfiguration/appleBaseURL``; the client id is a Services ID.
        case apple
    }

    /// The name apps ask for (`provider=<name>`), lowercased; the identities' provider.
    public var name: String
    public var kind: Kind
    public var clientID: String
    /// The client secret; for Apple, `nil` when the server signs one with the developer key
    /// (`GATEHOUSE_APPLE_TEAM_ID`, `_KEY_ID`, `_PRIVATE_KEY`), or a JWT made beforehand.
    public var secret: String?
    /// Scopes asked for besides the provider's own.
    public var scopes: [String]
    /// The `/callback` address registered with the provider; `nil`: `<API external URL>/callback`.
    public var redirectURI: String?

    public init(
        name: String,
        kind: Kind,
        clientID: String,
        secret: String?,
        scopes: [String] = [],
        redirectURI: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.clientID = clientID
        self.secret = secret
        self.scopes = scopes
        self.redirectURI = redirectURI
    }

    /// The name people know ("GitHub", "Keycloak").
    public var displayName: String {
        switch name {
        case "github": "GitHub"
        case "google": "Google"
        case "apple": "Apple"
        default: name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        }
    }

    /// Google's issuer, the default of `GATEHOUSE_EXTERNAL_GOOGLE_ISSUER`.
    public static let googleIssuer = "https://accounts.google.com"
    /// Names that are keys of `/settings`' `external` already.
    static let reservedNames: Set<String> = ["email", "phone", "anonymous_users", "saml", "sso", "web3"]
}

extension ServerConfiguration {
    /// The enabled providers' settings, in name order.
    mutating func readExternalProviders(_ reader: EnvironmentReader) throws {
        var names: Set<String> = []
        for key in reader.environment.keys {
            for prefix in ["GATEHOUSE_EXTERNAL_", "GOTRUE_EXTERNAL_"]
            where key.hasPrefix(prefix) && key.hasSuffix("_CLIENT_ID") {
                let name = key.dropFirst(prefix.count).dropLast("_CLIENT_ID".count)
                if !name.isEmpty { names.insert(String(name)) }
            }
        }
        externalProviders = try names.sorted().compactMap { try Self.provider(named: $0, reader) }
    }

    private static func provider(
        named variableName: String,
        _ reader: EnvironmentReader
    ) throws
        -> ExternalProviderSettings?
    {
        func value(_ suffix: String) -> String? {
            reader.string("GATEHOUSE_EXTERNAL_\(variableName)_\(suffix)")
                ?? reader.string("GOTRUE_EXTERNAL_\(variableName)_\(suffix)")
        }
        func variable(_ suffix: String) -> String { "GATEHOUSE_EXTERNAL_\(variableName)_\(suffix)" }
        if let enabled = value("ENABLED"), ["false", "0", "no", "off"].contains(enabled.lowercased()) { return nil }
        let name = variableName.lowercased()
        guard !name.isEmpty, name.utf8.count <= 40,
            name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }),
            !ExternalProviderSettings.reservedNames.contains(name)
        else {
            throw ConfigurationError(
                variable: variable("CLIENT_ID"),
                problem: "names a provider “\(name)”: use letters, digits and _ (not email, phone or anonymous_users)"
            )
        }
        // GoTrue allows a list for its ID-token grant; the page's sign-in uses the first.
        guard
            let clientID = value("CLIENT_ID")?.split(separator: ",").first.map({
                $0.trimmingCharacters(in: .whitespaces)
            }),
            !clientID.isEmpty
        else { return nil }
        let scopes = (value("SCOPES") ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        var redirectURI: String?
        if let text = value("REDIRECT_URI") {
            guard let parts = RedirectPolicy.parse(text), ["http", "https"].contains(parts.scheme) else {
                throw ConfigurationError(
                    variable: variable("REDIRECT_URI"),
                    problem: "must be this server's /callback address, such as https://auth.example.com/callback"
                )
            }
            redirectURI = text
        }
        let secret = value("SECRET")
        let kind: ExternalProviderSettings.Kind
        switch name {
        case "github":
            let url =
                try reader.secureURL(variable("URL")) ?? reader.secureURL("GOTRUE_EXTERNAL_GITHUB_URL")
                ?? URL(string: "https://github.com")!
            kind = .github(url: url)
        case "apple":
            kind = .apple
        default:
            let issuerVariable = value("ISSUER") != nil ? variable("ISSUER") : variable("URL")
            guard
                let issuer = value("ISSUER") ?? value("URL")
                    ?? (name == "google" ? ExternalProviderSettings.googleIssuer : nil)
            else {
                throw ConfigurationError(
                    variable: variable("ISSUER"),
                    problem: "must name the OpenID Connect issuer of provider “\(name)” (its discovery document is "
                        + "<issuer>/.well-known/openid-configuration)"
                )
            }
            guard let url = URL(string: issuer), ProviderMetadata.isSecure(url) else {
                throw ConfigurationError(
                    variable: issuerVariable,
                    problem: "must use https (http only on a loopback host)"
                )
            }
            kind = .openIDConnect(issuer: issuer)
        }
        if kind != .apple, secret == nil {
            throw ConfigurationError(variable: variable("SECRET"), problem: "must be set: the provider's client secret")
        }
        return ExternalProviderSettings(
            name: name,
            kind: kind,
            clientID: clientID,
            secret: secret,
            scopes: scopes,
            redirectURI: redirectURI
        )
    }
}

extension ExternalProviderSettings: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The settings without the client secret.
    public var description: String {
        "ExternalProviderSettings(name: \(name), kind: \(kind), clientID: \(clientID), secret: "
            + "\(secret == nil ? "nil" : "<redacted>"), scopes: \(scopes), redirectURI: \(redirectURI ?? "nil"))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The settings without the client secret.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "name": name, "kind": kind, "clientID": clientID, "secret": secret == nil ? "nil" : "<redacted>",
                "scopes": scopes, "redirectURI": redirectURI ?? "nil",
            ],
            displayStyle: .struct
        )
    }
}
