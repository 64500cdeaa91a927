import Foundation
import Logging
import PostgresNIO

/// Issue 35: runs ``BareRefreshServer`` as a child, right after the refresh row and its pgbench
/// run, at the same concurrency and for as long, on sessions the refresh row made.
struct BareRefreshBound {
    let client: PostgresClient
    let postmaster: Int32
    let directory: URL
    let logger: Logger

    /// The bare server's refresh row at `concurrency`; its answers are `answerLength` bytes long,
    /// as the server's are, and each signs `signedLength` bytes, as the server's access token
    /// does. Fails when any refresh failed: every answer counted read and rotated its session.
    func run(
        environment: [String: String],
        concurrency: Int,
        duration: Duration,
        answerLength: Int,
        signedLength: Int
    ) async throws -> LoadResult {
        var sessions: [String] = []
        for try await id in try await client.query(
            "SELECT id FROM sessions ORDER BY created_at DESC LIMIT \(concurrency)",
            logger: logger
        )
        .decode(String.self) {
            sessions.append(id)
        }
        guard !sessions.isEmpty else { throw LoadError.unexpected("no sessions for the bare refresh server") }
        var environment = environment
        environment[BareRefreshServer.answerLengthVariable] = String(answerLength)
        environment[BareRefreshServer.signedLengthVariable] = String(signedLength)
        let child = try await ServerChild(environment: environment, directory: directory, program: .bareRefreshServer)
        defer { child.stop() }
        let result = try await runLoad(
            Workloads.bareRefresh(sessions: sessions),
            port: child.port,
            concurrency: concurrency,
            duration: duration,
            probe: CPUProbe(server: child.process.processIdentifier, postmaster: postmaster)
        )
        guard result.failures == 0, result.requests > 0 else {
            throw LoadError.unexpected("the bare refresh server failed \(result.failures) of its refreshes")
        }
        return result
    }
}
