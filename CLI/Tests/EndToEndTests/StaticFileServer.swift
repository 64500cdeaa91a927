import Foundation
import GatehouseProcessTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Python's `http.server` serving a folder on a loopback port: a fake provider's key set, or
/// something on the server's port that is not a Gatehouse server.
final class StaticFileServer: @unchecked Sendable {
    let port: Int
    private let process: ChildProcess

    /// Serves `directory` on `port` and returns once it answers.
    init(directory: URL, port: Int) async throws {
        self.port = port
        process = ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", directory.path]
        )
        try process.run()
        let root = URL(string: "http://127.0.0.1:\(port)/")!
        for _ in 0..<250 {
            if (try? await URLSession.shared.data(from: root)) != nil { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.killBlocking()
        throw ServerProcessError.didNotStart("python3 -m http.server")
    }

    /// Kills the server (SIGKILL: a child may inherit a mask that blocks SIGTERM) and waits
    /// for it to exit.
    func stop() async {
        await process.kill()
    }

    deinit { process.killBlocking() }
}
