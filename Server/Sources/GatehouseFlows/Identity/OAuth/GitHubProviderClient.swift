import Foundation
import GatehouseCore
import GatehouseStorage
import HTTPTypes
import Logging

/// GitHub (or GitHub Enterprise Server) as an OAuth 2.0 provider: the authorization page at
/// `<url>/login/oauth/authorize`, the code exchange at `/login/oauth/access_token` (with a PKCE
/// verifier of the server's own), and who signed in from the API's `/user` and `/user/emails`
/// (`api.github.com`, or `<url>/api/v3` for Enterprise). The identity is GitHub's numeric user
/// id; the address is the primary one, and only a verified primary address vouches (links to an
/// account that has it, or confirms a new account's).
struct GitHubProviderClient: OAuthProviderClient {
    let name = "github"
    let displayName = "GitHub"
    let clientID: String
    let secret: String
    /// The operator's scopes besides `user:email`, which reading the addresses needs.
    let scopes: [String]
    let redirectURI: String
    /// `https://github.com`, or a GitHub Enterprise Server's address.
    let webURL: URL
    /// `https://api.github.com`, or `<webURL>/api/v3`.
    let apiURL: URL
    let http: ProviderHTTP
    let logger: Logger

    var usesPKCE: Bool { true }
    var usesNonce: Bool { false }

    init(
        clientID: String,
        secret: String,
        scopes: [String],
        redirectURI: String,
        webURL: URL,
        http: ProviderHTTP,
        logger: Logger
    ) {
        self.clientID = clientID
        self.secret = secret
        self.scopes = scopes
        self.redirectURI = redirectURI
        self.webURL = webURL
        apiURL =
            webURL.host == "github.com"
            ? URL(string: "https://api.github.com")! : webURL.appendingPathComponent("api/v3")
        self.http = http
        self.logger = logger
    }

    func authorizationURL(_ request: OAuthAuthorizationRequest) async throws -> URL {
        var parameters: [(String, String)] = [
            ("client_id", clientID), ("redirect_uri", redirectURI),
            ("scope", OIDCProviderClient.scopeList(["user:email"] + scopes + request.scopes)),
            ("state", request.state), ("response_type", "code"),
        ]
        if let challenge = request.challenge {
            parameters += [("code_challenge", challenge), ("code_challenge_method", "S256")]
        }
        parameters += request.extra
        return Self.url(webURL.appendingPathComponent("login/oauth/authorize"), adding: parameters)
    }

    /// GitHub sends `iss` in its callbacks only for GitHub Apps; nothing to compare with.
    func callbackIssuer() async throws -> (issuer: String, required: Bool)? { nil }

    func signIn(_ callback: OAuthProviderCallback, now: Date) async throws -> OAuthProviderSignIn {
        var form: [(String, String)] = [
            ("client_id", clientID), ("client_secret", secret), ("code", callback.code), ("redirect_uri", redirectURI),
        ]
        if let verifier = callback.verifier { form.append(("code_verifier", verifier)) }
        let tokens = try OAuthTokenReply.decode(
            try await reach { try await http.post(webURL.appendingPathComponent("login/oauth/access_token"), form) },
            provider: displayName,
            logger: logger
        )
        let token = tokens.accessToken ?? ""
        let authorization = [
            (name: "Authorization", value: "Bearer \(token)"), (name: "X-GitHub-Api-Version", value: "2022-11-28"),
        ]
        let user: User = try await read(apiURL.appendingPathComponent("user"), headers: authorization)
        let emails: [Email] = try await read(apiURL.appendingPathComponent("user/emails"), headers: authorization)
        let primary = emails.first { $0.primary == true }
        let email = primary.flatMap { try? EmailAddress.normalized($0.email) }
        var data: [String: JSONValue] = [
            "sub": .string(String(user.id)), "provider_id": .string(String(user.id)),
            "iss": .string(apiURL.absoluteString), "email_verified": .bool(primary?.verified == true),
        ]
        if let email { data["email"] = .string(email) }
        if let login = user.login {
            data["user_name"] = .string(login)
            data["preferred_username"] = .string(login)
        }
        if let name = user.name, !name.isEmpty {
            data["name"] = .string(name)
            data["full_name"] = .string(name)
        }
        if let avatar = user.avatarURL { data["avatar_url"] = .string(avatar) }
        return OAuthProviderSignIn(
            identity: ProviderIdentity(
                provider: AuthProvider(rawValue: name),
                displayName: displayName,
                subject: String(user.id),
                email: email,
                emailIsVouched: email != nil && primary?.verified == true,
                data: data,
                fullName: user.name.flatMap { $0.isEmpty ? nil : $0 }
            ),
            name: nil,
            accessToken: tokens.accessToken,
            refreshToken: tokens.refreshToken,
            appleRevocable: nil
        )
    }

    /// A GitHub user (`GET /user`): the numeric id is the identity's subject.
    private struct User: Decodable {
        var id: Int64
        var login: String?
        var name: String?
        var avatarURL: String?

        enum CodingKeys: String, CodingKey {
            case id, login, name
            case avatarURL = "avatar_url"
        }
    }

    /// One of the user's addresses (`GET /user/emails`).
    private struct Email: Decodable {
        var email: String
        var primary: Bool?
        var verified: Bool?
    }

    private func read<Value: Decodable>(_ url: URL, headers: [(name: String, value: String)]) async throws -> Value {
        let reply = try await reach { try await http.get(url, headers: headers) }
        guard reply.status == 200 else {
            logger.warning(
                "GitHub's API refused a read",
                metadata: ["github.path": "\(url.path)", "github.status": "\(reply.status)"]
            )
            throw reply.status >= 500
                ? ProviderFailure.unavailable(displayName)
                : ProviderFailure.unusableAnswer(displayName, "about the user was refused (\(reply.status))")
        }
        guard let value = try? JSONDecoder().decode(Value.self, from: reply.body) else {
            throw ProviderFailure.unusableAnswer(displayName, "about the user is not readable")
        }
        return value
    }

    private func reach(_ request: () async throws -> ProviderHTTP.Reply) async throws -> ProviderHTTP.Reply {
        do {
            return try await request()
        } catch {
            logger.warning("GitHub could not be reached", metadata: ["error": "\(type(of: error))"])
            throw ProviderFailure.unavailable(displayName)
        }
    }
}
