import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

@testable import GatehouseServer

#if canImport(Glibc)
import Glibc
#endif

/// Mail over SMTP to a real SMTP server (Python's aiosmtpd, which `.ci/run` installs).
/// Opt-in (`GATEHOUSE_SMTP_TESTS=1`): in a fresh CI run on 2 cores one of these tests hung in
/// process handling around the sink; until that is understood they run on request only.
@Suite(
    "SMTP delivery",
    .serialized,
    .enabled(
        if: SMTPSink.available && ProcessInfo.processInfo.environment["GATEHOUSE_SMTP_TESTS"] == "1",
        "set GATEHOUSE_SMTP_TESTS=1 (needs aiosmtpd)"
    )
)
struct SMTPTests {
    static let silent: Logger = {
        var logger = Logger(label: "smtp-test")
        logger.logLevel = .critical
        return logger
    }()

    @Test func signUpCodeArrivesOverSTARTTLSWithAuthentication() async throws {
        let sink = try await SMTPSink(tls: true, auth: ("mailer", "relay secret"))
        defer { sink.stop() }
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        var configuration = harness.configuration
        configuration.smtp = SMTPSettings(
            host: "localhost",
            port: sink.port,
            username: "mailer",
            password: "relay secret",
            sender: "auth@gatehouse.test",
            trustRootsFile: sink.certificate
        )
        let server = try await buildServer(configuration: configuration, logger: Self.silent)
        try await server.application.test(.live) { raw in
            let client = Client(client: raw, mailer: MemoryMailer())
            let signup = try await client.post(
                "/signup",
                #"{"email":"ada@example.com","password":"correct horse battery"}"#
            )
            #expect(signup.status == .ok)
            let message = try await sink.waitForMessage()
            #expect(message.to == ["ada@example.com"])
            #expect(message.from == "auth@gatehouse.test")
            let code = try #require(message.code)
            let verified = try await client.post(
                "/verify",
                #"{"type":"signup","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(verified.status == .ok)
        }
        try await server.storage.close()
        try await harness.server.storage.close()
    }

    @Test func plainDeliveryWhenChosen() async throws {
        let sink = try await SMTPSink(tls: false, auth: nil)
        defer { sink.stop() }
        let settings = SMTPSettings(host: "127.0.0.1", port: sink.port, sender: "auth@gatehouse.test", security: .none)
        try await SMTPMailer(settings: settings, logger: Self.silent).send(
            Mail(
                to: "bob@example.com",
                subject: "Grüße ✓",
                body: "Your code is 123456.\n.\nA line with a dot.",
                code: "123456"
            )
        )
        let message = try await sink.waitForMessage()
        #expect(message.subject == "Grüße ✓")
        #expect(message.body.contains("Your code is 123456."))
        #expect(message.body.contains("\n.\n"), "a lone dot line survives")
    }

    @Test func startTLSIsRequiredWhenConfigured() async throws {
        let sink = try await SMTPSink(tls: false, auth: nil)
        defer { sink.stop() }
        let settings = SMTPSettings(host: "127.0.0.1", port: sink.port, sender: "auth@gatehouse.test")
        let error = await #expect(throws: SMTPError.self) {
            try await SMTPMailer(settings: settings, logger: Self.silent).send(
                Mail(to: "bob@example.com", subject: "s", body: "b")
            )
        }
        #expect(error?.kind == .startTLSUnavailable)
        #expect(sink.messages().isEmpty, "nothing was sent in the clear")
    }

    @Test func wrongCredentialsAreAnAuthenticationFailure() async throws {
        let sink = try await SMTPSink(tls: true, auth: ("mailer", "relay secret"))
        defer { sink.stop() }
        let settings = SMTPSettings(
            host: "localhost",
            port: sink.port,
            username: "mailer",
            password: "wrong",
            sender: "auth@gatehouse.test",
            trustRootsFile: sink.certificate,
            replyTimeout: .seconds(3)
        )
        let error = await #expect(throws: SMTPError.self) {
            try await SMTPMailer(settings: settings, logger: Self.silent).send(
                Mail(to: "bob@example.com", subject: "s", body: "b")
            )
        }
        #expect(error?.kind == .authenticationFailed)
        #expect(error?.description.contains("wrong") == false, "no credentials in the error")
    }

    @Test func anUntrustedCertificateIsRefused() async throws {
        let sink = try await SMTPSink(tls: true, auth: nil)
        defer { sink.stop() }
        let settings = SMTPSettings(host: "localhost", port: sink.port, sender: "auth@gatehouse.test")
        await #expect(throws: (any Error).self) {
            try await SMTPMailer(settings: settings, logger: Self.silent).send(
                Mail(to: "bob@example.com", subject: "s", body: "b")
            )
        }
        #expect(sink.messages().isEmpty)
    }

    @Test func headerInjectionIsRefused() throws {
        let message = SMTPMessage(
            from: "a@b.co",
            to: "bob@example.com\r\nBcc: eve@example.com",
            subject: "s",
            body: "b",
            date: Date()
        )
        #expect(throws: SMTPError.self) { try message.render() }
        let subject = SMTPMessage(
            from: "a@b.co",
            to: "bob@example.com",
            subject: "s\nBcc: eve@x.y",
            body: "b",
            date: Date()
        )
        #expect(throws: SMTPError.self) { try subject.render() }
    }
}

/// The aiosmtpd sink as a child process.
final class SMTPSink: @unchecked Sendable {
    struct Message {
        var from: String
        var to: [String]
        var data: String

        var subject: String? {
            guard let line = data.split(separator: "\r\n").first(where: { $0.hasPrefix("Subject: ") }) else {
                return nil
            }
            let encoded = line.dropFirst("Subject: =?UTF-8?B?".count).dropLast(2)
            return Data(base64Encoded: String(encoded)).map { String(decoding: $0, as: UTF8.self) }
        }

        var body: String {
            guard let range = data.range(of: "\r\n\r\n") else { return "" }
            let base64 = data[range.upperBound...].replacingOccurrences(of: "\r\n", with: "").replacingOccurrences(
                of: "\n",
                with: ""
            )
            return Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }

        var code: String? {
            body.split(separator: " ").first {
                $0.count == 7 && $0.hasSuffix(".") && $0.dropLast().allSatisfy(\.isNumber)
            }
            .map { String($0.dropLast()) }
        }
    }

    static var available: Bool {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import aiosmtpd"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }

    let directory: URL
    let port: Int
    let out: URL
    let certificate: String
    private let process = Process()

    init(tls: Bool, auth: (String, String)?) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        out = directory.appendingPathComponent("messages.jsonl")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        if tls {
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            openssl.arguments = [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            ]
            openssl.standardOutput = FileHandle.nullDevice
            openssl.standardError = FileHandle.nullDevice
            try openssl.run()
            await Blocking.waitUntilExit(openssl)
        }
        port = Int.random(in: 20_000..<60_000)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/smtp_sink.py")
        var arguments = ["python3", script.path, String(port), out.path]
        if tls { arguments += ["--tls", certificate, key] }
        if let auth { arguments += ["--auth", auth.0, auth.1] }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let ready = Pipe()
        process.standardOutput = ready
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = await Blocking.run { ready.fileHandleForReading.availableData }
        guard String(decoding: line, as: UTF8.self).contains("ready") else {
            throw HarnessError.noMail("smtp sink did not start")
        }
    }

    func messages() -> [Message] {
        let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return Message(
                from: object["from"] as? String ?? "",
                to: object["to"] as? [String] ?? [],
                data: object["data"] as? String ?? ""
            )
        }
    }

    func waitForMessage() async throws -> Message {
        for _ in 0..<500 {
            if let message = messages().last { return message }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HarnessError.noMail("no SMTP message arrived")
    }

    func stop() {
        // SIGKILL: the child inherits a signal mask in which SIGTERM may be blocked.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
