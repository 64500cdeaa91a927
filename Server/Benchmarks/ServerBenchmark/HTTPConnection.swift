import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One keep-alive HTTP/1.1 connection of the load generator (SwiftNIO), used by one virtual
/// user at a time: a request, then its whole response.
final class HTTPConnection {
    struct Answer {
        var status: Int
        var body: String
    }

    private var inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>

    private init(
        inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
    ) {
        self.inbound = inbound
        self.outbound = outbound
    }

    /// Opens a connection to `127.0.0.1:port`, runs `body` with it, and closes it.
    static func with<Result: Sendable>(
        port: Int,
        _ body: @Sendable (HTTPConnection) async throws -> Result
    ) async throws -> Result {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel
                    )
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(HTTPConnection(inbound: inbound.makeAsyncIterator(), outbound: outbound))
        }
    }

    /// Sends one request and reads its response.
    func send(_ method: HTTPMethod, _ path: String, json: String? = nil, bearer: String? = nil) async throws -> Answer {
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: "127.0.0.1")
        head.headers.add(name: "Content-Type", value: "application/json")
        head.headers.add(name: "Content-Length", value: String(json?.utf8.count ?? 0))
        if let bearer { head.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        var parts: [HTTPClientRequestPart] = [.head(head)]
        if let json { parts.append(.body(.byteBuffer(ByteBuffer(string: json)))) }
        parts.append(.end(nil))
        try await outbound.write(contentsOf: parts)
        var status = 0
        var body = ByteBuffer()
        while let part = try await inbound.next() {
            switch part {
            case .head(let response): status = Int(response.status.code)
            case .body(var buffer): body.writeBuffer(&buffer)
            case .end: return Answer(status: status, body: String(buffer: body))
            }
        }
        throw LoadError.connectionClosed
    }
}

enum LoadError: Error {
    case connectionClosed
    case unexpected(String)
}

extension HTTPConnection.Answer {
    /// A string field of the JSON body (see ``jsonStringField(_:in:)``).
    func field(_ name: String) -> String? { jsonStringField(name, in: body) }
}

/// A string field of a JSON body, found without a full parse (keeps the load generator light).
func jsonStringField(_ name: String, in body: String) -> String? {
    guard let start = body.range(of: "\"\(name)\":\"") else { return nil }
    let rest = body[start.upperBound...]
    guard let end = rest.firstIndex(of: "\"") else { return nil }
    return String(rest[..<end])
}
