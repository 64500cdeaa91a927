import Foundation
import GatehouseStorage
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// One SMTP session: connect, EHLO, STARTTLS (required unless plain was chosen), AUTH PLAIN,
/// MAIL/RCPT/DATA, QUIT. Every reply code is checked; every wait is bounded.
struct SMTPConnection {
    let settings: SMTPSettings
    let logger: Logger

    func send(_ message: SMTPMessage) async throws {
        let text = try message.render()
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(10))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(SMTPReplyHandler())
                    }
                }
                .connect(host: settings.host, port: settings.port)
                .get()
        } catch {
            throw SMTPError(kind: .connectionFailed, detail: "\(settings.host):\(settings.port): \(error)")
        }
        defer { channel.close(promise: nil) }
        // Cancelled (the mail sender's deadline, the end of its drain at shutdown): the closed
        // connection fails the reply awaited, at once.
        try await withTaskCancellationHandler {
            try await converse(on: channel, message: message, text: text)
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    /// The session on an open connection, from the greeting to `QUIT`.
    private func converse(on channel: any Channel, message: SMTPMessage, text: String) async throws {
        let session = Session(channel: channel, timeout: settings.replyTimeout)
        try await session.expect(220)
        let helo = "EHLO \(settings.heloName)"
        let features = try await session.command(helo, expect: [250])
        if settings.security == .startTLS {
            guard features.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) else {
                throw SMTPError(kind: .startTLSUnavailable, detail: "the server does not offer STARTTLS")
            }
            try await session.command("STARTTLS", expect: [220])
            var tls = TLSConfiguration.makeClientConfiguration()
            if let path = settings.trustRootsFile { tls.trustRoots = .file(path) }
            let context = try NIOSSLContext(configuration: tls)
            let hostname = settings.host
            // Whatever the relay sent after its 220 came before TLS and is untrusted: it is
            // dropped, and its presence (a relay pipelining across STARTTLS) ends the session.
            let pipelined = try await channel.eventLoop.submit {
                let replies = try channel.pipeline.syncOperations.handler(type: SMTPReplyHandler.self)
                guard !replies.discardPending() else { return true }
                let handler = try NIOSSLClientHandler(context: context, serverHostname: hostname)
                try channel.pipeline.syncOperations.addHandler(handler, position: .first)
                return false
            }.get()
            if pipelined {
                throw SMTPError(kind: .unexpectedReply, detail: "the server sent data before the TLS handshake")
            }
            try await session.command(helo, expect: [250])
        }
        if let username = settings.username, let password = settings.password {
            let token = Data("\u{0}\(username)\u{0}\(password)".utf8).base64EncodedString()
            do {
                try await session.command("AUTH PLAIN \(token)", expect: [235], redacted: "AUTH PLAIN ***")
            } catch let error as SMTPError where error.kind == .unexpectedReply {
                throw SMTPError(kind: .authenticationFailed, detail: error.detail, replyCode: error.replyCode)
            }
        }
        try await session.command("MAIL FROM:<\(message.from)>", expect: [250])
        try await session.command("RCPT TO:<\(message.to)>", expect: [250, 251])
        try await session.command("DATA", expect: [354])
        try await session.command(text + ".", expect: [250], redacted: "<message>")
        _ = try? await session.command("QUIT", expect: [221])
        logger.debug("Mail delivered over SMTP", metadata: ["smtp.host": .string(settings.host)])
    }

    /// Sends commands and waits for their replies.
    struct Session {
        let channel: any Channel
        let timeout: Duration

        func expect(_ codes: Int...) async throws {
            let reply = try await exchange(nil)
            guard codes.contains(reply.code) else {
                throw SMTPError(
                    kind: .unexpectedReply,
                    detail: "\(reply.code) \(reply.lines.last ?? "")",
                    replyCode: reply.code
                )
            }
        }

        @discardableResult
        func command(_ line: String, expect codes: [Int], redacted: String? = nil) async throws -> [String] {
            let reply = try await exchange(line + "\r\n")
            guard codes.contains(reply.code) else {
                throw SMTPError(
                    kind: .unexpectedReply,
                    detail: "\(redacted ?? String(line.prefix(20))) → \(reply.code) \(reply.lines.last ?? "")",
                    replyCode: reply.code
                )
            }
            return reply.lines
        }

        /// Queues a waiter for the next reply (and writes `payload`, if any) on the event loop.
        /// When the connection is already gone the waiter fails at once.
        private func exchange(_ payload: String?) async throws -> SMTPReply {
            let channel = channel
            let reply = channel.eventLoop.flatSubmit {
                let promise = channel.eventLoop.makePromise(of: SMTPReply.self)
                do {
                    let handler = try channel.pipeline.syncOperations.handler(type: SMTPReplyHandler.self)
                    handler.waiting.append(promise)
                    handler.deliver()
                    if let payload { channel.writeAndFlush(ByteBuffer(string: payload), promise: nil) }
                } catch {
                    promise.fail(SMTPError(kind: .connectionFailed, detail: "the connection is closed"))
                }
                return promise.futureResult
            }
            return try await withTimeout(reply)
        }

        private func withTimeout(_ future: EventLoopFuture<SMTPReply>) async throws -> SMTPReply {
            let timeout = channel.eventLoop.scheduleTask(
                in: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000)
            ) {
                channel.close(promise: nil)
            }
            defer { timeout.cancel() }
            return try await future.get()
        }
    }
}

/// One SMTP reply: its code and text lines.
struct SMTPReply: Sendable {
    var code: Int
    var lines: [String]
}

/// Parses replies (`250-…` continues, `250 …` ends) and hands each to the oldest waiter.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    var waiting: [EventLoopPromise<SMTPReply>] = []
    /// Set once the connection has ended or failed: later waiters fail at once, never hang.
    private var failure: SMTPError?
    private var buffered: [UInt8] = []
    private var lines: [String] = []
    private var ready: [SMTPReply] = []

    func handlerAdded(context: ChannelHandlerContext) {}

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        buffered += buffer.readBytes(length: buffer.readableBytes) ?? []
        while let end = firstLineEnd() {
            let line = String(decoding: buffered[..<end], as: UTF8.self)
            buffered.removeFirst(end + 2)
            guard line.utf8.count >= 3, let code = Int(line.prefix(3)) else {
                fail(SMTPError(kind: .unexpectedReply, detail: "malformed reply"), context: context)
                return
            }
            lines.append(String(line.dropFirst(4)))
            if line.utf8.count == 3 || Array(line.utf8)[3] == UInt8(ascii: " ") {
                ready.append(SMTPReply(code: code, lines: lines))
                lines = []
            }
        }
        if buffered.count > 64 * 1024 {
            fail(SMTPError(kind: .unexpectedReply, detail: "reply too long"), context: context)
        }
        deliver()
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(SMTPError(kind: .unexpectedReply, detail: "connection closed"), context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(SMTPError(kind: .connectionFailed, detail: "\(error)"), context: context)
        context.close(promise: nil)
    }

    /// Drops every byte and reply not yet taken (at STARTTLS, before the handshake).
    /// - Returns: Whether there was any.
    func discardPending() -> Bool {
        let any = !buffered.isEmpty || !lines.isEmpty || !ready.isEmpty
        buffered = []
        lines = []
        ready = []
        return any
    }

    /// Called after a waiter is added: a reply may already be there, or the connection gone.
    func deliver() {
        while !ready.isEmpty, !waiting.isEmpty {
            waiting.removeFirst().succeed(ready.removeFirst())
        }
        if let failure, !waiting.isEmpty {
            let pending = waiting
            waiting = []
            for promise in pending { promise.fail(failure) }
        }
    }

    private func fail(_ error: SMTPError, context: ChannelHandlerContext) {
        if failure == nil { failure = error }
        let pending = waiting
        waiting = []
        for promise in pending { promise.fail(error) }
    }

    private func firstLineEnd() -> Int? {
        guard buffered.count >= 2 else { return nil }
        for index in 0..<(buffered.count - 1) where buffered[index] == 13 && buffered[index + 1] == 10 {
            return index
        }
        return nil
    }
}
