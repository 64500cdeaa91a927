import Foundation
import GatehouseServerSupport
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// GitHub Enterprise Server's shape on loopback for the tests (issue 36): the consent page at
/// `/login/oauth/authorize`, the code exchange at `/login/oauth/access_token` (client secret,
/// redirect URI and PKCE verifier checked; refusals answered as GitHub does, 200 with an `error`
/// field), and `/api/v3/user` and `/api/v3/user/emails` for the access token it issued.
final class FakeGitHub: Sendable {
    /// A GitHub account, changeable by a test.
    struct Account: Sendable {
        var id: Int = 4_242
        var login = "ada"
        var name = "Ada Lovelace"
        /// `(address, primary, verified)`.
        var emails: [(String, Bool, Bool)] = [("ada@example.com", true, true)]
    }

    let clientID: String
    let clientSecret: String
    let baseURL: URL
    let consent: FakeConsent
    private let account: Locked<Account>
    private let server: LoopbackApp

    static func start(
        clientID: String = "github-client",
        clientSecret: String = "github-secret"
    ) async throws
        -> FakeGitHub
    {
        try await FakeGitHub(clientID: clientID, clientSecret: clientSecret)
    }

    private init(clientID: String, clientSecret: String) async throws {
        self.clientID = clientID
        self.clientSecret = clientSecret
        let account = Locked(Account())
        self.account = account
        let consent = FakeConsent()
        self.consent = consent
        let tokens = Locked<[String: Account]>([:])
        let router = Router()
        router.get("login/oauth/authorize") { request, _ -> Response in
            let query = FakeConsent.query(request)
            guard query["client_id"] == clientID, let redirectURI = query["redirect_uri"] else {
                return FakeConsent.json(400, ["error": "redirect_uri_mismatch"])
            }
            let authorization = FakeConsent.Authorization(
                clientID: clientID,
                redirectURI: redirectURI,
                state: query["state"],
                challenge: query["code_challenge"],
                challengeMethod: query["code_challenge_method"],
                scope: query["scope"]
            )
            let current = account.withLock { $0 }
            let profile = FakeProfile(subject: String(current.id), email: current.emails.first?.0, name: current.name)
            return consent.page(
                for: authorization,
                provider: "Fake GitHub",
                profile: profile,
                action: "/login/oauth/consent"
            )
        }
        router.post("login/oauth/consent") { request, _ -> Response in
            let form = try await FakeConsent.form(request)
            guard let authorization = consent.take(form["request"]) else {
                return FakeConsent.json(400, ["error": "unknown request"])
            }
            var fields: [(String, String)] = []
            if form["decision"] == "allow" {
                let profile = FakeProfile(subject: String(account.withLock { $0.id }), email: nil)
                fields.append(("code", consent.issue(.init(authorization: authorization, profile: profile))))
            } else {
                fields += [
                    ("error", "access_denied"),
                    ("error_description", "The user has denied your application access."),
                ]
            }
            if let state = authorization.state { fields.append(("state", state)) }
            return FakeConsent.redirect(FakeConsent.url(authorization.redirectURI, adding: fields))
        }
        router.post("login/oauth/access_token") { request, _ -> Response in
            consent.count("token")
            let form = try await FakeConsent.form(request)
            guard form["client_id"] == clientID, form["client_secret"] == clientSecret else {
                return FakeConsent.json(200, ["error": "incorrect_client_credentials"])
            }
            guard let grant = consent.redeem(form["code"]), grant.authorization.redirectURI == form["redirect_uri"],
                FakeConsent.verifies(
                    form["code_verifier"],
                    grant.authorization.challenge,
                    method: grant.authorization.challengeMethod
                )
            else {
                return FakeConsent.json(
                    200,
                    ["error": "bad_verification_code", "error_description": "The code passed is incorrect or expired."]
                )
            }
            let token = "gho_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
            tokens.withLock { $0[token] = account.withLock { $0 } }
            return FakeConsent.json(200, ["access_token": token, "token_type": "bearer", "scope": "user:email"])
        }
        let signedIn = { @Sendable (request: Request) -> Account? in
            let header = request.headers[.authorization] ?? ""
            let token = header.split(separator: " ").last.map(String.init) ?? ""
            return request.headers[.userAgent] == nil ? nil : tokens.withLock { $0[token] }
        }
        router.get("api/v3/user") { request, _ -> Response in
            consent.count("user")
            guard let user = signedIn(request) else { return FakeConsent.json(401, ["message": "Bad credentials"]) }
            return FakeConsent.json(
                200,
                [
                    "id": user.id, "login": user.login, "name": user.name,
                    "avatar_url": "https://avatars.example.com/\(user.id)", "email": NSNull(),
                ]
            )
        }
        router.get("api/v3/user/emails") { request, _ -> Response in
            guard let user = signedIn(request) else { return FakeConsent.json(401, ["message": "Bad credentials"]) }
            return FakeConsent.json(
                200,
                user.emails.map { ["email": $0.0, "primary": $0.1, "verified": $0.2, "visibility": "private"] }
            )
        }
        server = try await LoopbackApp(router: router, label: "fake-github")
        let port = server.port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Changes the GitHub account that signs in.
    func change(_ edit: (inout Account) -> Void) { account.withLock { edit(&$0) } }

    func stop() async {
        await server.stop()
    }
}
