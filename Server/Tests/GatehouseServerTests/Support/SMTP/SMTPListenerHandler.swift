import Foundation
import NIOCore
import NIOSSL

/// The server side of one SMTP session in the test listener (RFC 5321 subset): EHLO, STARTTLS
/// (required before MAIL when offered), AUTH PLAIN (required when credentials are set), MAIL,
/// RCPT, DATA, RSET, NOOP, QUIT.
final class SMTPListenerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let tls: NIOSSLContext?
    private let credentials: (user: String, password: String)?
    private let deliver: @Sendable (ReceivedMail) -> Void

    private var pending = ""
    private var secured = false
    private var greeted = false
    private var authenticated = false
    private var from: String?
    private var recipients: [String] = []
    private var dataLines: [String]?
    private let inject: String?
    /// Turn the session away at once: `421`, then close (a relay that is down for mail).
    private let refuse: Bool

    init(
        tls: NIOSSLContext?,
        credentials: (user: String, password: String)?,
        inject: String? = nil,
        refuse: Bool = false,
        deliver: @escaping @Sendable (ReceivedMail) -> Void
    ) {
        self.tls = tls
        self.credentials = credentials
        self.deliver = deliver
        self.inject = inject
        self.refuse = refuse
    }

    func channelActive(context: ChannelHandlerContext) {
        if refuse {
            let written = context.eventLoop.makePromise(of: Void.self)
            let line = ByteBuffer(string: "421 4.3.2 Service not available, closing transmission channel\r\n")
            context.writeAndFlush(wrapOutboundOut(line), promise: written)
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            return
        }
        reply(context, "220 localhost ESMTP gatehouse test listener")
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        pending += buffer.readString(length: buffer.readableBytes) ?? ""
        while let end = pending.range(of: "\r\n") {
            let line = String(pending[..<end.lowerBound])
            pending.removeSubrange(..<end.upperBound)
            if handle(line, context: context) == .stop { return }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private enum Next { case proceed, stop }

    private func handle(_ line: String, context: ChannelHandlerContext) -> Next {
        if dataLines != nil { return receiveData(line, context: context) }
        let verb = line.split(separator: " ", maxSplits: 1).first.map { $0.uppercased() } ?? ""
        let argument = line.count > verb.count ? String(line.dropFirst(verb.count + 1)) : ""
        switch verb {
        case "EHLO", "HELO":
            greeted = true
            from = nil
            recipients = []
            var features = ["localhost"]
            if tls != nil && !secured { features.append("STARTTLS") }
            if credentials != nil && (secured || tls == nil) { features.append("AUTH PLAIN") }
            features.append("8BITMIME")
            for (index, feature) in features.enumerated() {
                reply(context, "250\(index == features.count - 1 ? " " : "-")\(feature)")
            }
        case "STARTTLS":
            guard let tls, !secured else { return replying(context, "502 5.5.1 STARTTLS not offered") }
            reply(context, "220 2.0.0 Ready to start TLS" + (inject.map { "\r\n" + $0 } ?? ""))
            // The client starts the handshake only after this reply, so nothing is in flight.
            pending = ""
            secured = true
            greeted = false
            authenticated = false
            let handler = NIOSSLServerHandler(context: tls)
            do {
                try context.pipeline.syncOperations.addHandler(handler, position: .first)
            } catch {
                context.close(promise: nil)
                return .stop
            }
        case "AUTH":
            guard let credentials, secured || tls == nil else {
                return replying(context, "538 5.7.11 Encryption required for requested authentication mechanism")
            }
            let parts = argument.split(separator: " ")
            guard parts.count == 2, parts[0].uppercased() == "PLAIN",
                let decoded = Data(base64Encoded: String(parts[1]))
            else { return replying(context, "501 5.5.4 Syntax: AUTH PLAIN <base64>") }
            let fields = decoded.split(separator: 0, omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
            if fields.count == 3 && fields[1] == credentials.user && fields[2] == credentials.password {
                authenticated = true
                reply(context, "235 2.7.0 Authentication successful")
            } else {
                reply(context, "535 5.7.8 Authentication credentials invalid")
            }
        case "MAIL":
            guard greeted else { return replying(context, "503 5.5.1 Send EHLO first") }
            if tls != nil && !secured { return replying(context, "530 5.7.0 Must issue a STARTTLS command first") }
            if credentials != nil && !authenticated { return replying(context, "530 5.7.0 Authentication required") }
            from = Self.address(in: argument)
            recipients = []
            reply(context, "250 2.1.0 OK")
        case "RCPT":
            guard from != nil else { return replying(context, "503 5.5.1 Need MAIL first") }
            recipients.append(Self.address(in: argument))
            reply(context, "250 2.1.5 OK")
        case "DATA":
            guard from != nil, !recipients.isEmpty else { return replying(context, "503 5.5.1 Need RCPT first") }
            dataLines = []
            reply(context, "354 End data with <CR><LF>.<CR><LF>")
        case "RSET":
            from = nil
            recipients = []
            reply(context, "250 2.0.0 OK")
        case "NOOP":
            reply(context, "250 2.0.0 OK")
        case "QUIT":
            reply(context, "221 2.0.0 Bye")
            context.close(promise: nil)
            return .stop
        default:
            reply(context, "500 5.5.2 Command not recognized")
        }
        return .proceed
    }

    private func receiveData(_ line: String, context: ChannelHandlerContext) -> Next {
        guard line != "." else {
            let text = (dataLines ?? []).map { $0 + "\r\n" }.joined()
            deliver(ReceivedMail(from: from ?? "", to: recipients, data: text))
            dataLines = nil
            from = nil
            recipients = []
            return replying(context, "250 2.0.0 OK: queued")
        }
        dataLines?.append(line.hasPrefix("..") ? String(line.dropFirst()) : line)
        return .proceed
    }

    private func replying(_ context: ChannelHandlerContext, _ line: String) -> Next {
        reply(context, line)
        return .proceed
    }

    private func reply(_ context: ChannelHandlerContext, _ line: String) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: line + "\r\n")), promise: nil)
    }

    /// The address inside `FROM:<a@b>` or `TO:<a@b>`.
    private static func address(in argument: String) -> String {
        guard let open = argument.firstIndex(of: "<"), let close = argument.lastIndex(of: ">"), open < close else {
            return argument
        }
        return String(argument[argument.index(after: open)..<close])
    }
}
