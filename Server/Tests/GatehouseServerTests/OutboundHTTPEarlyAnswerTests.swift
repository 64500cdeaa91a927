import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 33: under load, about 2 % of a fresh server's first Apple sign-ins failed with
/// `provider_unavailable` and a `ChannelError` although the stand-in Apple had answered 200. A
/// server may answer and close as soon as it has read what it needs; a request written part by
/// part then failed on its last write, the answer unread. Here the server answers on the first
/// bytes of a request, whatever follows, and closes: every answer must still be read.
@Suite("Outbound HTTP: a server that answers early")
struct OutboundHTTPEarlyAnswerTests {
    /// Writes a complete answer on the first bytes it reads, then closes the connection.
    private final class AnswerAtOnce: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private var answered = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return }
            answered = true
            let body = #"{"keys":[]}"#
            let answer =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n\(body)"
            let channel = context.channel
            context.writeAndFlush(NIOAny(ByteBuffer(string: answer))).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
    }

    @Test func anAnswerWrittenBeforeTheRequestEndsIsRead() async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(AnswerAtOnce()) }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let port = try #require(server.localAddress?.port)
        var failures: [String] = []
        for index in 0..<60 {
            var request = OutboundHTTP(
                url: try #require(URL(string: "http://127.0.0.1:\(port)/keys")),
                accept: "application/json",
                timeout: .seconds(30)
            )
            // Half of them post a form, as the Apple token exchange does.
            if index % 2 == 1 {
                request.body = ("application/x-www-form-urlencoded", Data("code=abc&client_id=x".utf8))
            }
            do {
                let response = try await request.run()
                if response.status != 200 || response.body != Data(#"{"keys":[]}"#.utf8) {
                    failures.append("\(index): \(response.status)")
                }
            } catch {
                failures.append("\(index): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 60 answers lost: \(failures.prefix(5))")
        try await server.close()
    }
}
