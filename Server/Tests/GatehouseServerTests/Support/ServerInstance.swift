import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
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
    private let process = Process()
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
        process.standardOutput = log
        process.standardError = log
        try process.run()
        for _ in 0..<500 {
            if (try? await URLSession.shared.data(from: url.appendingPathComponent("health"))) != nil { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, SIGKILL)
        throw ServerInstanceError.didNotStart((try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
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

    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

enum ServerInstanceError: Error {
    case didNotStart(String)
}

/// JSON over URLSession, for talking to server processes.
struct HTTPClient: Sendable {
    struct Answer: @unchecked Sendable {
        var status: Int
        var json: [String: Any]
        func string(_ key: String) -> String? { json[key] as? String }
    }

    let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    /// Sends a request; a connection failure comes back as status 0.
    func send(_ method: String, _ url: URL, json: String? = nil, bearer: String? = nil) async -> Answer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        request.httpBody = json.map { Data($0.utf8) }
        guard let (data, response) = try? await session.data(for: request), let http = response as? HTTPURLResponse
        else { return Answer(status: 0, json: [:]) }
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return Answer(status: http.statusCode, json: object)
    }
}
