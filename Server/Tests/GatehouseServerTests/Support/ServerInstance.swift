import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `gatehouse-server` process (built beside the test bundle) on a free loopback port, for
/// tests that need several instances or a hard kill.
final class ServerInstance: @unchecked Sendable {
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("gatehouse-server")
    }

    let port: Int
    let logURL: URL
    private let process = ChildProcess()
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init(environment extra: [String: String], logDirectory: URL) async throws {
        port = Self.freePort()
        logURL = logDirectory.appendingPathComponent("server-\(port).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.executableURL = Self.binary
        var environment = ProcessInfo.processInfo.environment
        environment["GATEHOUSE_PORT"] = String(port)
        environment["GATEHOUSE_LOG_LEVEL"] = "warning"
        environment.merge(extra) { $1 }
        process.environment = environment
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = .file(log)
        process.standardError = .file(log)
        try process.run()
        for _ in 0..<500 {
            let health = await HTTPClient(timeout: .seconds(2)).send("GET", url.appendingPathComponent("health"))
            if health.status != 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, SIGKILL)
        throw ServerInstanceError.didNotStart((try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
    }

    /// The server's process id.
    var processIdentifier: pid_t { process.processIdentifier }

    /// The server's log so far.
    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// SIGTERM, the graceful shutdown; past `timeout`, SIGKILL. Returns whether it stopped by itself.
    @discardableResult
    func stop(timeout: Duration = .seconds(30)) async -> Bool {
        guard process.isRunning else { return true }
        kill(process.processIdentifier, SIGTERM)
        return await process.waitUntilExit(timeout: timeout)
    }

    /// Waits up to `timeout` for `text` to appear in the server's log.
    func waitForLog(_ text: String, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !log.contains(text) {
            guard ContinuousClock.now < deadline else { throw ServerInstanceError.noLogLine(text, log) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// SIGKILL: no shutdown, no flush; what was committed must survive.
    func kill9() async {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        await Blocking.waitUntilExit(process)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// A loopback port for a server that must know its address before it starts, below Linux's
    /// ephemeral range (32768–60999): a port the system hands out for `bind(0)` is one it may
    /// also give any outgoing connection of the suite (hundreds of them, to servers and
    /// PostgreSQL) before the server binds it, which failed tests with "Address already in use"
    /// on a loaded machine. Ports are taken in turn from 20000–24999, from a random start, and
    /// skipped while something holds them.
    static func freePort() -> Int {
        for _ in 0..<5_000 {
            let candidate = 20_000 + Int(nextPort.add(1, ordering: .relaxed).oldValue % 5_000)
            if isFree(candidate) { return candidate }
        }
        return 0
    }

    private static let nextPort = Atomic<UInt32>(UInt32.random(in: 0..<5_000))

    private static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        } == 0
    }
}

enum ServerInstanceError: Error {
    case didNotStart(String)
    case noLogLine(String, String)
}

/// JSON over HTTP/1.1 to server processes, on SwiftNIO (HummingbirdTesting's `TestClient`): one
/// connection per request and a read timeout that always fires. Not URLSession: on Linux a
/// request to a server killed mid-answer can wait forever there (no timeout, no error).
struct HTTPClient: Sendable {
    struct Answer: @unchecked Sendable {
        var status: Int
        var json: [String: Any]
        func string(_ key: String) -> String? { json[key] as? String }
    }

    /// Long: tests check what comes back, and on two cores running the whole suite sixty
    /// racing requests that one code's lock serializes have taken longer than 30 seconds.
    var timeout: Duration = .seconds(120)

    /// Sends a request; a connection failure or a timeout comes back as status 0.
    func send(_ method: String, _ url: URL, json: String? = nil, bearer: String? = nil) async -> Answer {
        guard let host = url.host, let port = url.port else { return Answer(status: 0, json: [:]) }
        var headers: HTTPFields = [.contentType: "application/json"]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        let request = TestClient.Request(
            target,
            method: HTTPRequest.Method(method) ?? .get,
            authority: "\(host):\(port)",
            headers: headers,
            body: json.map { ByteBuffer(string: $0) }
        )
        let client = TestClient(host: host, port: port, configuration: .init(timeout: timeout))
        client.connect()
        let response = try? await Deadline.answer(of: client, within: timeout) { try await $0.execute(request) }
        try? await client.shutdown()
        guard let response else { return Answer(status: 0, json: [:]) }
        let data = response.body.map { Data($0.readableBytesView) } ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return Answer(status: Int(response.status.code), json: object)
    }
}
