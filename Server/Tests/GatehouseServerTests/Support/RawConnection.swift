import Foundation

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
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                throw RawConnectionError.cannotConnect
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close(fd)
            throw RawConnectionError.cannotConnect
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
