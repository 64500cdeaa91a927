import Foundation
import GatehouseProcessTesting

extension ServerProcess {
    /// The `gatehouse-server` binary built beside the test bundle.
    static var builtBinary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("gatehouse-server")
    }

    /// The built server with `environment` over this process's own, logging warnings and errors
    /// only (the tests read the lines they wait for) to `server-<port>.log` in `logDirectory`.
    convenience init(environment: [String: String], logDirectory: URL) async throws {
        try await self.init(
            binary: Self.builtBinary,
            environment: ["GATEHOUSE_LOG_LEVEL": "warning"].merging(environment) { $1 },
            logDirectory: logDirectory
        )
    }
}
