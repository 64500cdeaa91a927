public import Foundation
import Gatehouse

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening socket on `127.0.0.1` at a port the system chose, for the browser's redirect back
/// to the terminal (RFC 8252 §7.3: a native app's loopback redirect, on any port). It speaks just
/// enough HTTP/1.1 for one browser request at a time and never leaves the loopback interface.
///
/// ``close()`` (also on deinit) releases the port; every wait is bounded by a deadline and by
/// the task's cancellation.
public final class LoopbackListener: @unchecked Sendable {
    /// The port the system chose.
    public let port: Int
    private let socketFD: Int32
    private let lock = NSLock()
    private var isClosed = false

    /// Opens the socket.
    ///
    /// - Throws: ``CLIError`` when no loopback port can be had.
    public init() throws {
        let fd = socket(AF_INET, Self.streamType, 0)
        guard fd >= 0 else { throw Self.failure("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 16) == 0,
            withUnsafeMutablePointer(to: &address, {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }) == 0
        else {
            _ = closeSocket(fd)
            throw Self.failure("bind")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        socketFD = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close() }

    /// `http://127.0.0.1:<port>/callback`, the redirect URL to give the server.
    public var redirectURL: URL { URL(string: "http://127.0.0.1:\(port)/callback")! }

    /// Releases the port (idempotent).
    public func close() {
        let wasOpen = lock.withLock {
            defer { isClosed = true }
            return !isClosed
        }
        if wasOpen { _ = closeSocket(socketFD) }
    }

    /// Waits for a `GET` whose target (`/path?query`) `accepts` takes, answers it with `page`
    /// (200, HTML) and returns the target; any other request is answered 404 (a favicon) or 400
    /// and the wait goes on.
    ///
    /// - Returns: `nil` when `deadline` passes first.
    /// - Throws: `CancellationError` when the task is cancelled.
    public func nextRequest(
        accepting accepts: @Sendable (String) -> Bool,
        page: String,
        until deadline: ContinuousClock.Instant
    ) async throws -> String? {
        while ContinuousClock.now < deadline {
            try Task.checkCancellation()
            let client = accept(socketFD, nil, nil)
            guard client >= 0 else {
                try await Task.sleep(for: .milliseconds(25))
                continue
            }
            defer { _ = closeSocket(client) }
            guard let target = Self.readRequestTarget(client) else {
                Self.answer(client, status: "400 Bad Request", body: "Bad request")
                continue
            }
            if accepts(target) {
                Self.answer(client, status: "200 OK", body: page)
                return target
            }
            Self.answer(client, status: "404 Not Found", body: "Not found")
        }
        return nil
    }

    /// The target of a `GET` request line, read with a 2-second limit and at most 16 KiB.
    static func readRequestTarget(_ client: Int32) -> String? {
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) & ~O_NONBLOCK)
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count < 16_384, data.range(of: Data("\r\n\r\n".utf8)) == nil {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        guard let line = String(decoding: data, as: UTF8.self).split(separator: "\r\n").first else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/") else { return nil }
        return String(parts[1])
    }

    private static func answer(_ client: Int32, status: String, body: String) {
        let bytes = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(bytes.count)\r\n"
            + "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n"
        let all = Array(head.utf8) + bytes
        _ = all.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Self.sendFlags) }
    }

    private static func failure(_ call: String) -> CLIError {
        CLIError(
            message: "Could not listen on a loopback port for the browser's redirect (\(call): errno \(errno)).",
            code: ErrorCode.unknown.rawValue,
            status: .failure
        )
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif
}

/// `close(2)` (the name is taken by ``LoopbackListener/close()`` inside the class).
private func closeSocket(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #else
    Darwin.close(fd)
    #endif
}
