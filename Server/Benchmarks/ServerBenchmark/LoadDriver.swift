import Foundation
import NIOCore

/// One virtual user on one keep-alive connection, driven by a SwiftNIO handler on its event
/// loop: it writes a request, reads the whole response, records the latency, and writes the
/// next request at once (or, with a pace, once the pace has passed since the last one began),
/// until the deadline.
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
    /// The least time from one request's start to the next one's; nil to send at once.
    private let pace: TimeAmount?
    private var received = ByteBuffer()
    private var began = NIODeadline.now()
    private var outcome = Outcome()

    init(
        workload: Workload,
        state: String,
        start: NIODeadline,
        deadline: NIODeadline,
        pace: TimeAmount? = nil,
        finished: EventLoopPromise<Outcome>
    ) {
        self.workload = workload
        self.state = state
        self.start = start
        self.deadline = deadline
        self.pace = pace
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
            if let pace, began + pace > ended {
                context.eventLoop.assumeIsolated().scheduleTask(deadline: began + pace) {
                    self.send(context: context)
                }
            } else {
                send(context: context)
            }
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
    ///
    /// Reads the bytes in place: the load generator shares the two cores with the server, and a
    /// parser through `String` and Foundation's `firstRange(of:)` cost it 47 % of its own CPU, some
    /// 35 µs a request taken from the server (issue 35).
    static func next(from buffer: inout ByteBuffer) -> Response? {
        let head: (status: Int, length: Int, headLength: Int)? = buffer.withUnsafeReadableBytes { bytes in
            guard let headLength = headEnd(bytes) else { return nil }
            // "HTTP/1.1 200 …": the three digits after the first space.
            guard let space = bytes.firstIndex(of: UInt8(ascii: " ")), space + 3 < headLength else { return nil }
            var status = 0
            for index in space + 1...space + 3 {
                let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit) else { return nil }
                status = status * 10 + digit
            }
            return (status, contentLength(bytes, headLength: headLength), headLength)
        }
        guard let head, buffer.readableBytes >= head.headLength + head.length else { return nil }
        buffer.moveReaderIndex(forwardBy: head.headLength)
        let body = buffer.readSlice(length: head.length) ?? ByteBuffer()
        buffer.discardReadBytes()
        return Response(status: head.status, body: body)
    }

    /// The length of the head up to and including its blank line, when it has arrived.
    private static func headEnd(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// The `Content-Length` of a head (any case), 0 without one.
    private static func contentLength(_ bytes: UnsafeRawBufferPointer, headLength: Int) -> Int {
        let name = Array("\r\ncontent-length:".utf8)
        var index = 0
        while index + name.count <= headLength {
            var matches = true
            for offset in 0..<name.count where lowercased(bytes[index + offset]) != name[offset] {
                matches = false
                break
            }
            if matches {
                var cursor = index + name.count
                while cursor < headLength, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
                var length = 0
                while cursor < headLength, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]) {
                    length = length * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                    cursor += 1
                }
                return length
            }
            index += 1
        }
        return 0
    }
}
