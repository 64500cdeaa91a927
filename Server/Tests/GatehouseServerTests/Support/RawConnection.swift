import Foundation
import GatehouseProcessTesting

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to the server driven byte by byte, to send what no HTTP client would: half
/// a request, or a body a byte at a time.
final class RawConnection: @unchecked Sendable {
    private let fd: Int32

    /// Connects to the server on 127.0.0.1, from `source` (another loopback address is another
    /// client to the server).
    init(port: Int, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let local = source.map { Self.apply(bind, fd: fd, address: $0, port: 0) } ?? 0
        guard local == 0, Self.apply(connect, fd: fd, address: "127.0.0.1", port: port) == 0 else {
            close(fd)
            throw RawConnectionError.cannotConnect
        }
    }

    /// Calls `bind` or `connect` on `fd` with an IPv4 `address` and `port`.
    private static func apply(
        _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32,
        fd: Int32,
        address: String,
        port: Int
    ) -> Int32 {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        socketAddress.sin_addr.s_addr = inet_addr(address)
        return withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                call(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    deinit { close(fd) }

    /// Sends `text`; `false` once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// What the server sends within `seconds` (up to the first response's head and a little
    /// more), or "" when nothing comes.
    func receive(within seconds: Double) async -> String {
        await Blocking.run { [fd] in
            let deadline = Date().addingTimeInterval(seconds)
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline, !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let remaining = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
                guard poll(&poller, 1, remaining) > 0 else { continue }
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { break }
                received += buffer[0..<count]
            }
            return String(decoding: received, as: UTF8.self)
        }
    }

    /// Waits up to `seconds` for the server to close the connection (end of stream or reset),
    /// discarding anything it sends; `true` when it did.
    func waitForClose(within seconds: Double) async -> Bool {
        await Blocking.run { [fd] in
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let remaining = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
                guard poll(&poller, 1, remaining) > 0 else { continue }
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { return true }
            }
            return false
        }
    }
}

enum RawConnectionError: Error {
    case cannotConnect
}
