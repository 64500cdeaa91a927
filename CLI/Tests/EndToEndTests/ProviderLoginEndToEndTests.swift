import Foundation
import GatehouseProcessTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `gatehouse login --provider github` against the real server and a fake GitHub
/// (`Providers/fake_github.py`), with Debian's headless Chromium clicking through the consent page
/// (`Providers/click_through.py`, Playwright) as the browser the CLI opens
/// (`$GATEHOUSE_BROWSER`): the redirect comes back to the loopback port the CLI chose, the code is
/// exchanged with PKCE and the session saved. Declining, a timeout and Ctrl-C save nothing and
/// release the port.
@Suite(
    "gatehouse login --provider: the browser sign-in",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct ProviderLoginEndToEndTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Providers")

    /// The browser `Providers/click_through.py` drives, handed to it as `GATEHOUSE_CHROMIUM`:
    /// Debian's chromium-headless-shell, else its full Chromium, unless `GATEHOUSE_CHROMIUM`
    /// names another.
    static let chromium =
        ProcessInfo.processInfo.environment["GATEHOUSE_CHROMIUM"]
        ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "/usr/bin/chromium-headless-shell"

    /// Whether Chromium and Playwright for Python are here (scripts/ci-setup installs both; CI requires them).
    static var browserInstalled: Bool {
        let process = ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import playwright.sync_api"])
        guard (try? process.run()) != nil, process.waitUntilExitBlocking(timeout: .seconds(60)) else { return false }
        return process.terminationStatus == 0 && FileManager.default.isExecutableFile(atPath: chromium)
    }

    static var browserRequired: Bool { browserInstalled || ProcessInfo.processInfo.environment["CI"] != nil }

    /// The server with GitHub (the fake, as GitHub Enterprise) and loopback redirects allowed on any port.
    struct Scene {
        let github: FakeGitHub
        let server: EndToEndServer
        var url: String { server.url.absoluteString }
        var config: URL { server.directory.appendingPathComponent("config") }
        var sessionFile: URL {
            config.appendingPathComponent("gatehouse").appendingPathComponent("session-127.0.0.1_\(server.port).json")
        }

        static func start() async throws -> Scene {
            let github = try await FakeGitHub.start()
            do {
                let server = try await EndToEndServer(environment: [
                    "GATEHOUSE_EXTERNAL_GITHUB_CLIENT_ID": FakeGitHub.clientID,
                    "GATEHOUSE_EXTERNAL_GITHUB_SECRET": FakeGitHub.clientSecret,
                    "GATEHOUSE_EXTERNAL_GITHUB_URL": github.url,
                    "GATEHOUSE_URI_ALLOW_LIST": "http://127.0.0.1/callback",
                ])
                return Scene(github: github, server: server)
            } catch {
                await github.stop()
                throw error
            }
        }

        func stop() async {
            server.stop()
            await github.stop()
        }
    }

    @Test(.enabled(if: browserRequired, "Chromium and Playwright for Python are not installed (scripts/ci-setup installs them)"))
    func theBrowserClicksThroughGitHubAndTheSessionIsSaved() async throws {
        let scene = try await Scene.start()
        let browser = "python3 \(Self.folder.appendingPathComponent("click_through.py").path) allow"
        let login = try await CLIEndToEndTests.gatehouse(
            ["login", "--server", scene.url, "--provider", "github", "--scope", "read:org"],
            config: scene.config,
            environment: ["GATEHOUSE_BROWSER": browser, "GATEHOUSE_CHROMIUM": Self.chromium]
        )
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Signed in as ada@example.com"), "\(login.stdout)")
        #expect(login.stderr.contains("/authorize?provider=github"), "the address is printed too")
        #expect(FileManager.default.fileExists(atPath: scene.sessionFile.path))

        let status = try await CLIEndToEndTests.gatehouse(["status", "--server", scene.url, "--json"], config: scene.config)
        #expect(status.json["signed_in"] as? Bool == true && status.json["verified"] as? Bool == true)
        #expect(status.json["email"] as? String == "ada@example.com")

        // Declining on GitHub's page saves nothing and says so.
        _ = try await CLIEndToEndTests.gatehouse(["logout", "--server", scene.url], config: scene.config)
        let declined = try await CLIEndToEndTests.gatehouse(
            ["login", "--server", scene.url, "--provider", "github"],
            config: scene.config,
            environment: [
                "GATEHOUSE_BROWSER": browser.replacingOccurrences(of: " allow", with: " deny"),
                "GATEHOUSE_CHROMIUM": Self.chromium,
            ]
        )
        #expect(declined.status == 1 && declined.stderr.contains("cancelled"), "\(declined.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scene.sessionFile.path))
        await scene.stop()
    }

    @Test func withoutABrowserTheAddressIsPrintedAndATimeoutLeavesNothingBehind() async throws {
        let scene = try await Scene.start()
        // No display and --no-browser: the address is printed; nobody opens it.
        let login = try await CLIEndToEndTests.gatehouse(
            ["login", "--server", scene.url, "--provider", "github", "--no-browser", "--timeout", "2"],
            config: scene.config,
            environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""]
        )
        #expect(login.status == 1, "\(login.stderr)")
        #expect(login.stderr.contains("No answer from the browser within 2 seconds"), "\(login.stderr)")
        let port = try #require(Self.loopbackPort(in: login.stderr))
        #expect(!LoopbackPort.accepts(port), "the port was released")
        #expect(!FileManager.default.fileExists(atPath: scene.sessionFile.path))
        await scene.stop()
    }

    @Test func ctrlCReleasesThePortAndSavesNothing() async throws {
        let scene = try await Scene.start()
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gatehouse")
        let process = ChildProcess(binary, ["login", "--server", scene.url, "--provider", "github", "--no-browser"])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = scene.config.path
        process.environment = environment
        let errors = Pipe()
        process.standardError = .pipe(errors)
        try process.run(killingAfter: .seconds(60))
        // Read until the CLI waits, then press Ctrl-C.
        let printed = await Blocking.run { () -> String in
            var text = ""
            while !text.contains("Ctrl-C cancels") {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        let port = try #require(Self.loopbackPort(in: printed), "\(printed)")
        #expect(LoopbackPort.accepts(port), "the CLI listens while it waits")
        try #require(process.isRunning, "a signal goes to the CLI only")
        process.signal(SIGINT)
        let rest = await Blocking.run { errors.fileHandleForReading.readDataToEndOfFile() }
        let exited = await process.waitUntilExit(timeout: .seconds(300))
        #expect(exited && process.terminationStatus == 1, "\(printed)\(String(decoding: rest, as: UTF8.self))")
        #expect(String(decoding: rest, as: UTF8.self).contains("cancelled"))
        #expect(!LoopbackPort.accepts(port), "the port was released")
        #expect(!FileManager.default.fileExists(atPath: scene.sessionFile.path))
        await scene.stop()
    }

    /// The loopback port in the printed address's `redirect_to`.
    static func loopbackPort(in text: String) -> Int? {
        guard let range = text.range(of: #"redirect_to=http%3A%2F%2F127\.0\.0\.1%3A[0-9]+"#, options: .regularExpression)
        else { return nil }
        return Int(text[range].split(separator: "A").last ?? "")
    }
}

/// `Providers/fake_github.py` on a loopback port.
final class FakeGitHub: @unchecked Sendable {
    static let clientID = "fake-github-client"
    static let clientSecret = "fake-github-secret"

    let url: String
    private let process: ChildProcess
    private let portFile: URL

    private init(url: String, process: ChildProcess, portFile: URL) {
        self.url = url
        self.process = process
        self.portFile = portFile
    }

    static func start() async throws -> FakeGitHub {
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("fake-github-\(UUID().uuidString)")
        let process = ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", ProviderLoginEndToEndTests.folder.appendingPathComponent("fake_github.py").path, portFile.path,
                clientID, clientSecret,
            ]
        )
        // Neither output is the test's own (both are /dev/null): a fake left running must not
        // hold the runner's pipes.
        try process.run()
        for _ in 0..<250 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
                return FakeGitHub(url: "http://127.0.0.1:\(port)", process: process, portFile: portFile)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        await process.kill()
        throw ServerProcessError.didNotStart("fake_github.py")
    }

    /// Sets the person who consents next.
    func person(id: Int, login: String, email: String?, verified: Bool) async throws {
        var request = URLRequest(url: URL(string: url + "/control")!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: [
            "id": id, "login": login, "email": email as Any? ?? NSNull(), "verified": verified,
        ])
        _ = try await URLSession.shared.data(for: request)
    }

    func stop() async {
        await process.kill()
        try? FileManager.default.removeItem(at: portFile)
    }
}
