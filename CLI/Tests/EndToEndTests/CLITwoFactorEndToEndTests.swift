import Foundation
import GatehouseProcessTesting
import GatehouseTesting
import Testing

/// `gatehouse mfa enroll`, `gatehouse login` asking for the authenticator code or taking
/// `--code`, `gatehouse mfa verify`, `gatehouse status` showing the level, against the real server
/// (the terminal's QR code is read back in ``CLITwoFactorTerminalTests``).
@Suite(
    "gatehouse two-factor sign-in against the real server",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct CLITwoFactorEndToEndTests {
    /// Collects a pipe's bytes as they come.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    @Test func enrolWithTheTerminalQRCodeThenLogInWithTheCode() async throws {
        let server = try await EndToEndServer(environment: ["GATEHOUSE_MAILER_AUTOCONFIRM": "true"])
        defer { server.stop() }
        let config = server.directory.appendingPathComponent("config")
        let url = server.url.absoluteString
        let signup = try await CLIEndToEndTests.gatehouse(
            ["signup", "--server", url, "--email", "ada@example.com"],
            config: config,
            answers: [("correct horse battery", nil)]
        )
        #expect(signup.status == 0, "\(signup.stderr)")

        // Enrol: the QR code and URI go to the terminal, then the first code is asked for.
        let (status, stdout, stderr) = try await enrolAnsweringWithTheShownSecret(url: url, config: config)
        #expect(status == 0, "\(stderr)")
        #expect(stdout.contains("Two-factor sign-in is on"))
        let uri = try #require(stderr.split(separator: "\n").first { $0.hasPrefix("URI: ") }).dropFirst(5)
        let secret = try #require(URLComponents(string: String(uri))?.queryItems?.first { $0.name == "secret" }?.value)
        let app = AuthenticatorApp(base32: secret)

        let afterEnrol = try await CLIEndToEndTests.gatehouse(["status", "--server", url, "--json"], config: config)
        #expect(afterEnrol.json["aal"] as? String == "aal2")

        _ = try await CLIEndToEndTests.gatehouse(["logout", "--server", url], config: config)
        // Login asks for the code after the password; the code used at enrolment is refused.
        let asked = try await CLIEndToEndTests.gatehouse(
            ["login", "--server", url, "--email", "ada@example.com"],
            config: config,
            answers: [("correct horse battery", nil), (app.code(at: Date(), steps: 1), nil)]
        )
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stderr.contains("enter the code from \"laptop\""))
        let level = try await CLIEndToEndTests.gatehouse(["status", "--server", url], config: config)
        #expect(level.stdout.contains("level:    aal2 (two-factor)"), "\(level.stdout)")

        // A wrong --code leaves the second factor due; status says so; mfa verify completes it.
        _ = try await CLIEndToEndTests.gatehouse(["logout", "--server", url], config: config)
        let wrongCode = try await CLIEndToEndTests.gatehouse(
            ["login", "--server", url, "--email", "ada@example.com", "--code", "000000x"],
            config: config,
            answers: [("correct horse battery", nil)]
        )
        #expect(wrongCode.status == 1)
        let due = try await CLIEndToEndTests.gatehouse(["status", "--server", url, "--json"], config: config)
        #expect(due.json["second_factor_required"] as? Bool == true)
        // Codes of a later step than any used: one step ahead was used above, so two steps would be
        // out of the window; wait for the next step when needed.
        let next = try await nextUnusedCode(app)
        let verified = try await CLIEndToEndTests.gatehouse(
            ["mfa", "verify", "--server", url, "--code", next],
            config: config
        )
        #expect(verified.status == 0, "\(verified.stderr)")
        let list = try await CLIEndToEndTests.gatehouse(["mfa", "list", "--server", url], config: config)
        #expect(list.stdout.contains("verified") && list.stdout.contains("laptop"))
    }

    /// The code of the step after the one used at login (`steps: 1` then): waits until it is
    /// within the server's window.
    private func nextUnusedCode(_ app: AuthenticatorApp) async throws -> String {
        // The login used the code of step s+1 at time t (step s); step s+2 is accepted once the
        // clock is in step s+1.
        let used = Int64(Date().timeIntervalSince1970 / 30)
        while Int64(Date().timeIntervalSince1970 / 30) < used + 1 {
            try await Task.sleep(for: .milliseconds(250))
        }
        return app.code(at: Date(), steps: 1)
    }

    /// Runs `gatehouse mfa enroll`, reads the secret from its terminal output and answers with
    /// the app's code.
    private func enrolAnsweringWithTheShownSecret(url: String, config: URL) async throws -> (Int32, String, String) {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("gatehouse")
        let process = ChildProcess(binary, ["mfa", "enroll", "--server", url, "--name", "laptop"])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = .pipe(input)
        process.standardOutput = .pipe(output)
        process.standardError = .pipe(errors)
        let out = Collected()
        let err = Collected()
        output.fileHandleForReading.readabilityHandler = { out.append($0.availableData) }
        errors.fileHandleForReading.readabilityHandler = { err.append($0.availableData) }
        try process.run(killingAfter: .seconds(60))
        var secret: String?
        for _ in 0..<400 where secret == nil {
            if let line = err.text.split(separator: "\n").first(where: { $0.hasPrefix("Or enter the secret: ") }) {
                secret = String(line.dropFirst("Or enter the secret: ".count))
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        let code = AuthenticatorApp(base32: secret ?? "").code(at: Date())
        process.send(code)
        process.closeInput()
        await process.waitUntilExit(timeout: .seconds(300))
        try await Task.sleep(for: .milliseconds(100))
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        return (process.terminationStatus, out.text, err.text)
    }
}

/// Whether python3 has what the pseudo-terminal test needs: pyzbar (with zbar) and pyotp.
enum TerminalDriver {
    static var available: Bool {
        let probe = ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import pyzbar.pyzbar, pyotp"])
        do {
            try probe.run()
            return probe.waitUntilExitBlocking(timeout: .seconds(60)) && probe.terminationStatus == 0
        } catch {
            return false
        }
    }
}

/// The same in a pseudo-terminal (Python's `pty`, driving the binary as a person would: the
/// password prompt without echo, the spinner, the QR code as the terminal shows it).
@Suite(
    "gatehouse two-factor sign-in in a pseudo-terminal",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)"),
    .enabled(
        if: TerminalDriver.available || ProcessInfo.processInfo.environment["CI"] != nil,
        "needs python3 with pyzbar and pyotp (scripts/ci-setup installs them)"
    )
)
struct CLITwoFactorTerminalTests {
    @Test func enrolAndLogInAtATerminal() async throws {
        let server = try await EndToEndServer(environment: ["GATEHOUSE_MAILER_AUTOCONFIRM": "true"])
        defer { server.stop() }
        let config = server.directory.appendingPathComponent("config")
        let url = server.url.absoluteString
        let signup = try await CLIEndToEndTests.gatehouse(
            ["signup", "--server", url, "--email", "grace@example.com"],
            config: config,
            answers: [("correct horse battery", nil)]
        )
        #expect(signup.status == 0, "\(signup.stderr)")

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Terminal/mfa_in_a_terminal.py")
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("gatehouse")
        let process = ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, binary.path, url, config.path, "grace@example.com", "correct horse battery"]
        )
        let output = Pipe()
        process.standardOutput = .pipe(output)
        process.standardError = .pipe(output)
        try process.run()
        // Read while waiting: a script that outlives its time is killed, which ends the read.
        async let data = Blocking.run { output.fileHandleForReading.readDataToEndOfFile() }
        let exited = await process.waitUntilExit(timeout: .seconds(300))
        let text = String(decoding: await data, as: UTF8.self)
        print(text)
        #expect(exited && process.terminationStatus == 0, "\(text)")
        #expect(text.contains("terminal: all passed"))
    }
}
