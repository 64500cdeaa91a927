import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server the real-path restore talks to: one given by URL, or a `gatehouse-server`
/// started from `GATEHOUSE_SERVER_BIN` on a free loopback port with a fresh SQLite file.
struct BenchmarkServer {
    let url: URL
    private let process: Process?
    private let directory: URL?

    static func start(url given: String?) async throws -> BenchmarkServer? {
        if let given, let url = URL(string: given) {
            return BenchmarkServer(url: url, process: nil, directory: nil)
        }
        guard let binary = ProcessInfo.processInfo.environment["GATEHOUSE_SERVER_BIN"] else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-bench-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let port = try freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        var environment = ProcessInfo.processInfo.environment
        environment["GATEHOUSE_HOST"] = "127.0.0.1"
        environment["GATEHOUSE_PORT"] = String(port)
        environment["GATEHOUSE_DATABASE_URL"] = directory.appendingPathComponent("gatehouse.sqlite").path
        environment["GATEHOUSE_ANONYMOUS_USERS"] = "true"
        environment["GATEHOUSE_LOG_LEVEL"] = "error"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let (_, response) = try? await URLSession.shared.data(from: url.appendingPathComponent("health")),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return BenchmarkServer(url: url, process: process, directory: directory)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the server did not answer /health within 30 s"])
    }

    func stop() {
        process?.terminate()
        process?.waitUntilExit()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private static func freePort() throws -> Int {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
