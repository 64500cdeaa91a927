import Foundation
import Gatehouse
import GatehouseGoTrue
import Testing

/// Sign in with Apple through the SDK and the CLI against the real server, which fetches the
/// fake provider's keys over HTTP (issue 5).
@Suite(
    "Sign in with Apple end to end",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct IDTokenEndToEndTests {
    @MainActor
    static func service(_ server: EndToEndServer, store: FileSessionStore) -> AuthService {
        AuthService(
            backend: GoTrueBackend(configuration: .init(url: server.url), transport: HTTPTransport.urlSession()),
            store: store,
            configuration: .init(verificationRetryDelays: [])
        )
    }

    @Test @MainActor func aGuestUpgradedByAppleKeepsItsIDAndDeletionClearsEverything() async throws {
        let apple = try await FakeApple()
        let server = try await EndToEndServer(environment: apple.serverEnvironment)
        let store = FileSessionStore(fileURL: server.directory.appendingPathComponent("client/session.json"))
        let auth = Self.service(server, store: store)
        await auth.restoreSession()
        let guest = try await auth.signInAnonymously()
        #expect(auth.isAnonymous)

        let nonce = SignInNonce()
        let token = try apple.idToken(subject: "apple-e2e", email: "e2e@privaterelay.appleid.com", rawNonce: nonce.raw)
        let outcome = try await auth.upgradeGuest(
            with: IDTokenCredential(provider: .apple, idToken: token, nonce: nonce.raw)
        )
        guard case .upgradedInPlace(let user) = outcome else {
            Issue.record("expected an upgrade in place, got \(outcome)")
            return
        }
        #expect(user.id == guest.id)
        #expect(user.email == "e2e@privaterelay.appleid.com")
        #expect(auth.isAuthenticated && !auth.isAnonymous)
        #expect(try store.load()?.user.id == guest.id, "the upgraded session is stored")

        // The same Apple account on a fresh install signs into that account.
        let again = SignInNonce()
        let otherStore = FileSessionStore(fileURL: server.directory.appendingPathComponent("other/session.json"))
        let second = Self.service(server, store: otherStore)
        await second.restoreSession()
        let signedIn = try await second.signInWithApple(
            idToken: try apple.idToken(subject: "apple-e2e", email: nil, rawNonce: again.raw),
            nonce: again.raw,
            authorizationCode: nil,
            fullName: nil
        )
        #expect(signedIn.id == guest.id)

        try await auth.deleteAccount()
        #expect(auth.state == .unauthenticated)
        #expect(try store.load() == nil, "the store is cleared once the server confirmed")
        // The other device's session ends at once.
        await second.verifySession()
        #expect(second.state == .unauthenticated)
        server.stop()
        await apple.stop()
    }

    @Test func theCLISignsInWithAnIDTokenFile() async throws {
        let apple = try await FakeApple()
        let server = try await EndToEndServer(environment: apple.serverEnvironment)
        let config = server.directory.appendingPathComponent("config")
        let url = server.url.absoluteString
        let tokenFile = server.directory.appendingPathComponent("apple.jwt")
        try apple.idToken(subject: "apple-cli", email: "cli@example.com", rawNonce: "cli-nonce")
            .write(to: tokenFile, atomically: true, encoding: .utf8)

        let missingNonce = try await CLIEndToEndTests.gatehouse(
            ["login", "--id-token", tokenFile.path, "--provider", "apple", "--server", url],
            config: config
        )
        #expect(missingNonce.status != 0)
        #expect(missingNonce.stderr.contains("--nonce"))

        let wrongNonce = try await CLIEndToEndTests.gatehouse(
            ["login", "--id-token", tokenFile.path, "--provider", "apple", "--nonce", "other", "--server", url],
            config: config
        )
        #expect(wrongNonce.status == 1)
        #expect(wrongNonce.stderr.contains("nonce"), "\(wrongNonce.stderr)")

        let login = try await CLIEndToEndTests.gatehouse(
            [
                "login", "--id-token", tokenFile.path, "--provider", "apple", "--nonce", "cli-nonce", "--server", url,
                "--json",
            ],
            config: config
        )
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.json["email"] as? String == "cli@example.com")
        let status = try await CLIEndToEndTests.gatehouse(["status", "--server", url, "--json"], config: config)
        #expect(status.json["signed_in"] as? Bool == true)
        #expect(status.json["user_id"] as? String == login.json["user_id"] as? String)

        let replay = try await CLIEndToEndTests.gatehouse(
            ["login", "--id-token", tokenFile.path, "--provider", "apple", "--nonce", "cli-nonce", "--server", url],
            config: config
        )
        #expect(replay.status == 1, "a nonce works once")
        server.stop()
        await apple.stop()
    }
}
