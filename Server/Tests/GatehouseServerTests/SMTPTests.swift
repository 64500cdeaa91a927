import Foundation
import GatehouseStorage
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import NIOPosix
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Mail over real SMTP (TCP on loopback, STARTTLS, AUTH PLAIN) to the listener in
/// `Support/SMTP`, which runs inside the test process.
@Suite("SMTP delivery")
struct SMTPTests {
    static let silent: Logger = {
        var logger = Logger(label: "smtp-test")
        logger.logLevel = .critical
        return logger
    }()

    @Test func signUpCodeArrivesOverSTARTTLSWithAuthentication() async throws {
        try await SMTPListener.with(tls: true, auth: ("mailer", "relay secret")) { listener in
            let harness = try await Harness.make()
            defer { harness.removeFiles() }
            var configuration = harness.configuration
            configuration.smtp = SMTPSettings(
                host: "localhost",
                port: listener.port,
                username: "mailer",
                password: "relay secret",
                sender: "auth@gatehouse.test",
                trustRootsFile: listener.certificateFile
            )
            let server = try await buildServer(configuration: configuration, logger: Self.silent)
            try await LiveServer.run(server.application) { raw in
                let client = Client(client: raw, mailer: CapturingMailer(), server: server)
                let signup = try await client.post(
                    "/signup",
                    #"{"email":"ada@example.com","password":"correct horse battery"}"#
                )
                #expect(signup.status == .ok)
                let message = try await listener.waitForMessage()
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
    }

    @Test func plainDeliveryWhenChosen() async throws {
        try await SMTPListener.with(tls: false) { listener in
            let settings = SMTPSettings(
                host: "127.0.0.1",
                port: listener.port,
                sender: "auth@gatehouse.test",
                security: .none
            )
            try await SMTPMailer(settings: settings, logger: Self.silent).send(
                Mail(
                    to: "bob@example.com",
                    subject: "Grüße ✓",
                    body: "Your code is 123456.\n.\nA line with a dot."
                )
            )
            let message = try await listener.waitForMessage()
            #expect(message.subject == "Grüße ✓")
            #expect(message.body.contains("Your code is 123456."))
            #expect(message.body.contains("\n.\n"), "a lone dot line survives")
        }
    }

    @Test func startTLSIsRequiredWhenConfigured() async throws {
        try await SMTPListener.with(tls: false) { listener in
            let settings = SMTPSettings(host: "127.0.0.1", port: listener.port, sender: "auth@gatehouse.test")
            let error = await #expect(throws: SMTPError.self) {
                try await SMTPMailer(settings: settings, logger: Self.silent).send(
                    Mail(to: "bob@example.com", subject: "s", body: "b")
                )
            }
            #expect(error?.kind == .startTLSUnavailable)
            #expect(listener.messages().isEmpty, "nothing was sent in the clear")
        }
    }

    @Test func repliesPipelinedAcrossSTARTTLSAreRefused() async throws {
        // A man in the middle appends a plaintext reply after the 220, hoping the client takes
        // it as the first reply inside TLS.
        try await SMTPListener.with(tls: true, injectAfterStartTLS: "250 injected") { listener in
            let settings = SMTPSettings(
                host: "localhost",
                port: listener.port,
                sender: "auth@gatehouse.test",
                trustRootsFile: listener.certificateFile
            )
            let error = await #expect(throws: SMTPError.self) {
                try await SMTPMailer(settings: settings, logger: Self.silent).send(
                    Mail(to: "bob@example.com", subject: "s", body: "b")
                )
            }
            #expect(error?.detail.contains("before the TLS handshake") == true, "\(String(describing: error))")
            #expect(listener.messages().isEmpty)
        }
    }

    @Test func wrongCredentialsAreAnAuthenticationFailure() async throws {
        try await SMTPListener.with(tls: true, auth: ("mailer", "relay secret")) { listener in
            let settings = SMTPSettings(
                host: "localhost",
                port: listener.port,
                username: "mailer",
                password: "wrong",
                sender: "auth@gatehouse.test",
                trustRootsFile: listener.certificateFile,
                replyTimeout: .seconds(20)
            )
            let error = await #expect(throws: SMTPError.self) {
                try await SMTPMailer(settings: settings, logger: Self.silent).send(
                    Mail(to: "bob@example.com", subject: "s", body: "b")
                )
            }
            #expect(error?.kind == .authenticationFailed, "\(String(describing: error))")
            #expect(error?.description.contains("wrong") == false, "no credentials in the error")
            #expect(listener.messages().isEmpty)
        }
    }

    @Test func anUntrustedCertificateIsRefused() async throws {
        try await SMTPListener.with(tls: true) { listener in
            let settings = SMTPSettings(host: "localhost", port: listener.port, sender: "auth@gatehouse.test")
            await #expect(throws: (any Error).self) {
                try await SMTPMailer(settings: settings, logger: Self.silent).send(
                    Mail(to: "bob@example.com", subject: "s", body: "b")
                )
            }
            #expect(listener.messages().isEmpty)
        }
    }

    @Test func aSilentServerTimesOut() async throws {
        // A TCP listener that accepts and never answers: the reply timeout ends the attempt.
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let settings = SMTPSettings(
            host: "127.0.0.1",
            port: channel.localAddress?.port ?? 0,
            sender: "auth@gatehouse.test",
            replyTimeout: .seconds(1)
        )
        await #expect(throws: SMTPError.self) {
            try await SMTPMailer(settings: settings, logger: Self.silent).send(
                Mail(to: "bob@example.com", subject: "s", body: "b")
            )
        }
        try await channel.close()
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
