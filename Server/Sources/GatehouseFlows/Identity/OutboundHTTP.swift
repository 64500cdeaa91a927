import Foundation
import GatehouseStorage
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One outbound HTTP/1.1 request on SwiftNIO (a `GET`, or a `POST` with a body), over TLS
/// (certificate and host name verified against the system's roots) for `https` URLs: what
/// fetching a provider's key set, posting a form to Apple and talking to a sign-in provider
/// (``ProviderHTTP``) need, without Foundation's URLSession, which on Linux loads libcurl and its
/// TLS, Kerberos and LDAP libraries into the server (about 6 MiB of resident memory). No
/// redirects, no proxies, no compression; the response body is bounded; the whole exchange has
/// one deadline.
///
/// Not async-http-client, measured (27 November 2026): the same server with this type on
/// async-http-client (a client of the process, never used while idle) started with 2.2 MiB
/// more resident memory (debug builds, three starts each on SQLite: 48.6–49.1 MiB against
/// 50.8–51.3 MiB), while the release server's idle memory is already at its 40 MiB bound
/// (40.4–41.6 MiB, `Benchmarks/README.md`). The library's pooling would not pay here either: a
/// key set is fetched once per cache age, a token exchange once per sign-in.
struct OutboundHTTP: Sendable {
    let url: URL
    let accept: String
    let timeout: Duration
    /// `GET` without a body; `POST` with one.
    var body: (contentType: String, data: Data)?
    /// Further request headers (`Authorization`, `User-Agent`).
    var headers: [(name: String, value: String)] = []
    /// The largest body accepted.
    var maximumBytes = 1 << 20

    /// Why a fetch failed.
    enum Failure: Error, Equatable {
        case unsupportedURL
        case timedOut
        case tooLarge
        case status(Int)
        case incomplete
    }

    /// A response: status, headers and body.
    struct Response: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data

        func header(_ name: String) -> String? { headers.first(name: name) }
    }

    func run() async throws -> Response {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = url.host, !host.isEmpty
        else { throw Failure.unsupportedURL }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        var tls: NIOSSLContext?
        if scheme == "https" { tls = try NIOSSLContext(configuration: .makeClientConfiguration()) }
        let context = tls
        return try await withThrowingTaskGroup(of: Response.self) { group in
            group.addTask { try await exchange(host: host, port: port, tls: context) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw Failure.timedOut
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    private func exchange(host: String, port: Int, tls: NIOSSLContext?) async throws -> Response {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout.timeAmount)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: host)
                        )
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel
                    )
                }
            }
        return try await withTaskCancellationHandler {
            try await channel.executeThenClose { inbound, outbound in
                var path = url.path.isEmpty ? "/" : url.path
                if let query = url.query { path += "?" + query }
                var headers = HTTPHeaders()
                headers.add(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
                headers.add(name: "Accept", value: accept)
                headers.add(name: "Connection", value: "close")
                for (name, value) in self.headers { headers.add(name: name, value: value) }
                if let body {
                    headers.add(name: "Content-Type", value: body.contentType)
                    headers.add(name: "Content-Length", value: String(body.data.count))
                }
                let method: HTTPMethod = body == nil ? .GET : .POST
                var parts: [HTTPClientRequestPart] = [
                    .head(HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: headers))
                ]
                if let body { parts.append(.body(.byteBuffer(ByteBuffer(bytes: body.data)))) }
                parts.append(.end(nil))
                // One write, one flush. And a server may answer and close as soon as it has read
                // what it needs (a GET's head): the answer is read even when the last write then
                // fails on the closed channel (written part by part, about 2 % of a fresh
                // server's first Apple sign-ins failed so under load: issue 33).
                var writeFailure: (any Error)?
                do {
                    try await outbound.write(contentsOf: parts)
                } catch {
                    writeFailure = error
                }
                var head: HTTPResponseHead?
                var body = ByteBuffer()
                for try await part in inbound {
                    switch part {
                    case .head(let received):
                        head = received
                    case .body(var chunk):
                        guard body.readableBytes + chunk.readableBytes <= maximumBytes else { throw Failure.tooLarge }
                        body.writeBuffer(&chunk)
                    case .end:
                        guard let head else { throw writeFailure ?? Failure.incomplete }
                        return Response(
                            status: Int(head.status.code),
                            headers: head.headers,
                            body: Data(body.readableBytesView)
                        )
                    }
                }
                throw writeFailure ?? Failure.incomplete
            }
        } onCancel: {
            channel.channel.close(promise: nil)
        }
    }
}

extension Duration {
    /// The same span as NIO's `TimeAmount`.
    fileprivate var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
