import Foundation
import Gatehouse
import GatehouseGoTrue
import GatehouseProcessTesting
import GatehouseTesting

/// A real `gatehouse-server` process reached through `GoTrueBackend`; codes come from its log,
/// Apple ID tokens from a fake Apple whose keys the server fetches.
struct ServerWorld: ContractWorld {
    let server: EndToEndServer
    let apple: FakeApple?
    let github: FakeGitHub?
    let backend: any AuthBackend

    static func start(_ settings: ContractSettings) async throws -> ServerWorld {
        let apple = settings.apple ? try await FakeApple() : nil
        var environment = apple?.serverEnvironment ?? [:]
        environment["GATEHOUSE_MAILER_AUTOCONFIRM"] = settings.autoconfirm ? "true" : "false"
        environment["GATEHOUSE_ANONYMOUS_USERS"] = settings.guests ? "true" : "false"
        if settings.passkeys {
            environment["GATEHOUSE_WEBAUTHN_RP_ID"] = "example.com"
            // The contract's ceremonies come from one address faster than people's would.
            environment["GATEHOUSE_RATE_LIMIT_PASSKEY"] = "1000"
        }
        let github = settings.github ? try await FakeGitHub.start() : nil
        if let github {
            environment["GATEHOUSE_EXTERNAL_GITHUB_CLIENT_ID"] = FakeGitHub.clientID
            environment["GATEHOUSE_EXTERNAL_GITHUB_SECRET"] = FakeGitHub.clientSecret
            environment["GATEHOUSE_EXTERNAL_GITHUB_URL"] = github.url
            environment["GATEHOUSE_URI_ALLOW_LIST"] = "http://127.0.0.1/callback"
        }
        let server: EndToEndServer
        do {
            server = try await Self.startServer(environment)
        } catch {
            await github?.stop()
            await apple?.stop()
            throw error
        }
        let backend = GoTrueBackend(configuration: .init(url: server.url), transport: HTTPTransport.urlSession())
        return ServerWorld(server: server, apple: apple, github: github, backend: backend)
    }

    /// Starts a server, on another free port when a parallel test took the one picked first.
    private static func startServer(_ environment: [String: String]) async throws -> EndToEndServer {
        for _ in 0..<4 {
            do {
                return try await EndToEndServer(environment: environment)
            } catch ServerProcessError.didNotStart(let log) where log.contains("Address already in use") {
                continue
            }
        }
        return try await EndToEndServer(environment: environment)
    }

    func codeCount(to email: String, settled: Bool) async throws -> Int {
        // The server mails after it answers.
        if settled { try await Task.sleep(for: .milliseconds(300)) }
        return server.codes(for: email).count
    }

    func code(to email: String, after count: Int) async throws -> String {
        try await server.code(for: email, after: count)
    }

    func appleIDToken(subject: String, email: String?, emailVerified: Bool, nonce: String?) throws -> String {
        guard let apple else { throw ServerProcessError.didNotStart("no fake Apple: set ContractSettings.apple") }
        return try apple.idToken(subject: subject, email: email, emailVerified: emailVerified, rawNonce: nonce)
    }

    func googleIDToken(subject: String, email: String, nonce: String, unhashed: Bool) throws -> String {
        guard let apple else { throw ServerProcessError.didNotStart("no fake Apple: set ContractSettings.apple") }
        return try apple.googleIDToken(subject: subject, email: email, rawNonce: nonce, unhashed: unhashed)
    }

    /// The browser's part over HTTP, each redirect taken by hand: the server's `/authorize`, the
    /// fake GitHub's page (its "Allow" or "Cancel" link), the server's `/callback`.
    func providerConsent(at url: URL, as account: InMemoryAuthBackend.ProviderAccount?) async throws -> URL {
        guard let github else { throw ServerProcessError.didNotStart("no fake GitHub: set ContractSettings.github") }
        if let account {
            guard let id = Int(account.subject) else { throw ContractFailure.unexpected("GitHub ids are numbers") }
            try await github.person(id: id, login: "user\(id)", email: account.email, verified: account.emailVerified)
        }
        let page = try await PageFetcher.fetch(url).location
        let consent = try await PageFetcher.fetch(page).link(id: account == nil ? "deny" : "allow")
        return try await PageFetcher.fetch(consent).location
    }

    func now() -> Date { Date() }

    func passReuseInterval() async throws { try await Task.sleep(for: .seconds(11)) }

    func ageSignIns() async throws { try await server.backdateSignIns(by: 660) }

    func close() async {
        server.stop()
        await apple?.stop()
        await github?.stop()
    }
}
