import Foundation
import GatehouseServerSupport
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// A small SMTP server inside the test process, on a loopback port: it speaks real SMTP over
/// TCP (with STARTTLS and AUTH PLAIN when asked) and keeps every message it accepts.
final class SMTPListener: Sendable {
    /// The listening port on 127.0.0.1.
    let port: Int
    /// A PEM file with the listener's certificate, for clients to trust.
    let certificateFile: String

    private let channel: any Channel
    private let inbox = Inbox()
    private let directory: URL
    /// Whether new sessions are turned away (``goDown()``).
    private let refusing = Refusal()

    /// Runs `body` with a fresh listener and always closes it afterwards.
    static func with<Result>(
        tls: Bool,
        auth: (user: String, password: String)? = nil,
        injectAfterStartTLS: String? = nil,
        _ body: (SMTPListener) async throws -> Result
    ) async throws -> Result {
        let listener = try await SMTPListener(tls: tls, auth: auth, inject: injectAfterStartTLS)
        do {
            let result = try await body(listener)
            try await listener.close()
            return result
        } catch {
            try? await listener.close()
            throw error
        }
    }

    /// - Parameter inject: Plaintext to send right after the STARTTLS reply, in the same write
    ///   (a relay, or a man in the middle, pipelining across the handshake).
    private init(tls: Bool, auth: (user: String, password: String)?, inject: String?) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificateFile = directory.appendingPathComponent("listener.pem").path
        try Data(TestCertificate.certificatePEM.utf8).write(to: URL(fileURLWithPath: certificateFile))
        let context = tls ? try Self.tlsContext() : nil
        let inbox = self.inbox
        let refusing = self.refusing
        let credentials = auth
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    let handler = SMTPListenerHandler(
                        tls: context,
                        credentials: credentials,
                        inject: inject,
                        refuse: refusing.isOn
                    ) { mail in
                        inbox.append(mail)
                    }
                    try child.pipeline.syncOperations.addHandler(handler)
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        port = channel.localAddress?.port ?? 0
    }

    /// The relay goes down for mail: every new session is answered `421 4.3.2` (service not
    /// available) and closed, a temporary failure, until ``comeBack()``. The port stays the
    /// listener's (closing and binding it again could hand it to another test meanwhile).
    func goDown() async throws {
        refusing.set(true)
    }

    /// Takes mail again.
    func comeBack() async throws {
        refusing.set(false)
    }

    private static func tlsContext() throws -> NIOSSLContext {
        let certificate = try NIOSSLCertificate(bytes: Array(TestCertificate.certificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(TestCertificate.privateKeyPEM.utf8), format: .pem)
        return try NIOSSLContext(
            configuration: .makeServerConfiguration(
                certificateChain: [.certificate(certificate)],
                privateKey: .privateKey(key)
            )
        )
    }

    /// Every message accepted so far, oldest first.
    func messages() -> [ReceivedMail] {
        inbox.all()
    }

    /// The latest message, waiting up to five seconds for one to arrive.
    func waitForMessage() async throws -> ReceivedMail {
        for _ in 0..<500 {
            if let message = messages().last { return message }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HarnessError.noMail("no SMTP message arrived")
    }

    private func close() async throws {
        try await channel.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Whether a listener turns sessions away, shared with its connections' event loops.
private final class Refusal: Sendable {
    private let value = Mutex(false)
    var isOn: Bool { value.withLock { $0 } }
    func set(_ on: Bool) { value.withLock { $0 = on } }
}

/// The messages a listener accepted, shared with its connections' event loops.
private final class Inbox: Sendable {
    private let mails = Mutex<[ReceivedMail]>([])

    func append(_ mail: ReceivedMail) { mails.withLock { $0.append(mail) } }

    func all() -> [ReceivedMail] { mails.withLock { $0 } }
}
