import Foundation
import NIOCore

/// One virtual user on one keep-alive connection, driven by a SwiftNIO handler on its event
/// loop: it writes a request, reads the whole response, records the latency, and writes the
/// next request at once, until the deadline.
///
/// The load generator shares the cores with the server it measures, so it is kept lean: request
/// bytes are written directly and responses parsed by hand (status line, `Content-Length`),
/// with no HTTP codec pipeline, no async channel and no task per request.
final class LoadDriver: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What one virtual user measured in the window.
    struct Outcome: Sendable {
        var latencies: [Double] = []
        var failures = 0
    }

    private let workload: Workload
    private var state: String
    private let start: NIODeadline
    private let deadline: NIODeadline
    private let finished: EventLoopPromise<Outcome>
    private var received = ByteBuffer()
    private var began = NIODeadline.now()
    private var outcome = Outcome()

    init(
        workload: Workload,
        state: String,
        start: NIODeadline,
        deadline: NIODeadline,
        finished: EventLoopPromise<Outcome>
    ) {
        self.workload = workload
        self.state = state
        self.start = start
        self.deadline = deadline
        self.finished = finished
    }

    func channelActive(context: ChannelHandlerContext) {
        send(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        guard let response = HTTPResponseParser.next(from: &received) else { return }
        let ended = NIODeadline.now()
        let next = workload.next(state, response.status, response.body)
        state = next ?? state
        // Count what completes inside [start, deadline], whenever it began.
        if ended >= start, ended <= deadline {
            if next != nil {
                outcome.latencies.append(Double((ended - began).nanoseconds) / 1e6)
            } else {
                outcome.failures += 1
            }
        }
        if ended < deadline {
            send(context: context)
        } else {
            finished.succeed(outcome)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finished.fail(LoadError.connectionClosed)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finished.fail(error)
        context.close(promise: nil)
    }

    private func send(context: ChannelHandlerContext) {
        began = .now()
        let request = workload.request(state).encoded(allocator: context.channel.allocator)
        context.writeAndFlush(wrapOutboundOut(request), promise: nil)
    }
}

/// A request of the load generator, written as HTTP/1.1 bytes.
struct LoadRequest: Sendable {
    var method: String
    var path: String
    var json: String?
    var bearer: String?

    func encoded(allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 256 + (json?.utf8.count ?? 0) + (bearer?.utf8.count ?? 0))
        buffer.writeString("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        if let bearer { buffer.writeString("Authorization: Bearer \(bearer)\r\n") }
        if let json {
            buffer.writeString("Content-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n")
            buffer.writeString(json)
        } else {
            buffer.writeString("\r\n")
        }
        return buffer
    }
}

/// Reads whole HTTP/1.1 responses with a `Content-Length` (or none, for 204) off a buffer.
enum HTTPResponseParser {
    struct Response {
        var status: Int
        var body: ByteBuffer
    }

    /// The first complete response in `buffer`, which it consumes; nil until one has arrived.
    static func next(from buffer: inout ByteBuffer) -> Response? {
        let view = buffer.readableBytesView
        guard let headEnd = view.firstRange(of: [13, 10, 13, 10]) else { return nil }
        let head = String(decoding: view[view.startIndex..<headEnd.lowerBound], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, let code = statusLine.split(separator: " ").dropFirst().first,
            let status = Int(code)
        else { return nil }
        var length = 0
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                length = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        let headLength = headEnd.upperBound - view.startIndex
        guard buffer.readableBytes >= headLength + length else { return nil }
        buffer.moveReaderIndex(forwardBy: headLength)
        let body = buffer.readSlice(length: length) ?? ByteBuffer()
        buffer.discardReadBytes()
        return Response(status: status, body: body)
    }
}
