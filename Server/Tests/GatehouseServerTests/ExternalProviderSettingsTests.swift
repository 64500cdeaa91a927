import Foundation
import GatehouseServerSupport
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The providers an operator names (issue 36): `GATEHOUSE_EXTERNAL_<NAME>_…`, with GoTrue's
/// `GOTRUE_EXTERNAL_<NAME>_…` spellings read too.
@Suite("Provider settings from the environment")
struct ExternalProviderSettingsTests {
    @Test func anOpenIDConnectProviderIsNamedByTheOperator() throws {
        let configuration = try ServerConfiguration(environment: [
            "GATEHOUSE_EXTERNAL_KEYCLOAK_ISSUER": "https://sso.example.com/realms/staff",
            "GATEHOUSE_EXTERNAL_KEYCLOAK_CLIENT_ID": "gatehouse",
            "GATEHOUSE_EXTERNAL_KEYCLOAK_SECRET": "s3cret",
            "GATEHOUSE_EXTERNAL_KEYCLOAK_SCOPES": "groups, offline_access",
            "GATEHOUSE_EXTERNAL_KEYCLOAK_REDIRECT_URI": "https://auth.example.com/auth/v1/callback",
        ])
        let provider = try #require(configuration.externalProviders.first)
        #expect(provider.name == "keycloak" && provider.displayName == "Keycloak")
        #expect(provider.kind == .openIDConnect(issuer: "https://sso.example.com/realms/staff"))
        #expect(provider.scopes == ["groups", "offline_access"])
        #expect(provider.redirectURI == "https://auth.example.com/auth/v1/callback")
        #expect(!"\(configuration)".contains("s3cret") && !"\(provider)".contains("s3cret"))
        #expect("\(configuration)".contains("keycloak"))
    }

    @Test func goTrueSpellingsConfigureGitHubGoogleAndApple() throws {
        let configuration = try ServerConfiguration(environment: [
            "GOTRUE_EXTERNAL_GITHUB_ENABLED": "true",
            "GOTRUE_EXTERNAL_GITHUB_CLIENT_ID": "Iv1.abc",
            "GOTRUE_EXTERNAL_GITHUB_SECRET": "gh-secret",
            "GOTRUE_EXTERNAL_GITHUB_URL": "https://github.example.com",
            "GATEHOUSE_EXTERNAL_GOOGLE_CLIENT_ID": "web.apps.googleusercontent.com,ios.apps.googleusercontent.com",
            "GATEHOUSE_EXTERNAL_GOOGLE_SECRET": "g-secret",
            "GOTRUE_EXTERNAL_APPLE_CLIENT_ID": "com.example.web",
            "GOTRUE_EXTERNAL_APPLE_SECRET": "eyJ.pre.made",
            "GOTRUE_EXTERNAL_GITLAB_ENABLED": "false",
            "GOTRUE_EXTERNAL_GITLAB_CLIENT_ID": "off",
        ])
        let byName = Dictionary(uniqueKeysWithValues: configuration.externalProviders.map { ($0.name, $0) })
        #expect(Set(byName.keys) == ["github", "google", "apple"])
        #expect(byName["github"]?.kind == .github(url: URL(string: "https://github.example.com")!))
        #expect(byName["google"]?.kind == .openIDConnect(issuer: "https://accounts.google.com"))
        #expect(byName["google"]?.clientID == "web.apps.googleusercontent.com", "the first of GoTrue's list")
        #expect(byName["apple"]?.kind == .apple && byName["apple"]?.secret == "eyJ.pre.made")
    }

    @Test func aProviderThatCannotWorkIsRefusedAtStart() {
        let refused: [[String: String]] = [
            ["GATEHOUSE_EXTERNAL_KEYCLOAK_CLIENT_ID": "id", "GATEHOUSE_EXTERNAL_KEYCLOAK_SECRET": "s"],
            [
                "GATEHOUSE_EXTERNAL_KEYCLOAK_CLIENT_ID": "id", "GATEHOUSE_EXTERNAL_KEYCLOAK_SECRET": "s",
                "GATEHOUSE_EXTERNAL_KEYCLOAK_ISSUER": "http://sso.example.com",
            ],
            ["GATEHOUSE_EXTERNAL_GITHUB_CLIENT_ID": "id"],
            ["GATEHOUSE_EXTERNAL_EMAIL_CLIENT_ID": "id", "GATEHOUSE_EXTERNAL_EMAIL_SECRET": "s"],
            ["GATEHOUSE_EXTERNAL_APPLE_CLIENT_ID": "com.example.web"],
            [
                "GATEHOUSE_EXTERNAL_GITHUB_CLIENT_ID": "id", "GATEHOUSE_EXTERNAL_GITHUB_SECRET": "s",
                "GATEHOUSE_EXTERNAL_GITHUB_REDIRECT_URI": "not a url",
            ],
        ]
        for environment in refused {
            #expect(throws: ConfigurationError.self, "\(environment)") {
                try ServerConfiguration(environment: environment)
            }
        }
    }
}
