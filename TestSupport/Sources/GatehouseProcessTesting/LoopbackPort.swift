import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Ports on 127.0.0.1 for servers a test starts.
public enum LoopbackPort {
    /// A loopback port for a server that must know its address before it starts, below Linux's
    /// ephemeral range (32768–60999): a port the system hands out for `bind(0)` is one it may
    /// also give any outgoing connection of the suite (hundreds of them, to servers and
    /// PostgreSQL) before the server binds it, which failed tests with "Address already in use"
    /// on a loaded machine. Ports are taken in turn from 20000–24999, from a random start, and
    /// skipped while something holds them. 0 when every one of them is held.
    public static func free() -> Int {
        for _ in 0..<5_000 {
            let candidate = 20_000 + nextPort.withLock { next in
                defer { next = (next + 1) % 5_000 }
                return next
            }
            if isFree(candidate) { return candidate }
        }
        return 0
    }

    /// Whether something accepts connections on 127.0.0.1:`port` now.
    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    /// Whether an HTTP server on 127.0.0.1:`port` answers `GET path` (with any status) within
    /// `timeout`: it blocks for up to that long, so call it through ``Blocking``.
    static func answersHTTP(_ port: Int, path: String, timeout: Duration) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let seconds = timeout.components.seconds
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        let size = socklen_t(MemoryLayout<timeval>.size)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, size)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, size)
        var address = loopback(port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return false }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, noSignal) }
        guard sent == request.count else { return false }
        var answer = [UInt8](repeating: 0, count: 5)
        var received = 0
        while received < answer.count {
            let count = answer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + received, $0.count - received, 0) }
            guard count > 0 else { return false }
            received += count
        }
        return answer == Array("HTTP/".utf8)
    }

    /// `send`'s flag that turns SIGPIPE into EPIPE (Linux; elsewhere the caller's setting stands).
    #if canImport(Glibc)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let noSignal: Int32 = 0
    #endif

    private static let nextPort = Locked(Int.random(in: 0..<5_000))

    private static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        } == 0
    }

    private static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }
}
