import GatehouseProcessTesting
import HummingbirdTesting
import NIOCore

extension Deadline {
    /// `body`'s answer from `client`, or ``Deadline/Passed`` once `timeout` has passed, when the
    /// client's connection is closed. HummingbirdTesting's own read timeout cannot end a request
    /// the server never answers (its task group then waits for a response promise that only the
    /// connection's end fails), so a test waiting on such a server would wait forever.
    static func answer<Value: Sendable>(
        of client: TestClient,
        within timeout: Duration,
        _ body: @escaping @Sendable (TestClient) async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await body(client) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                try? await client.close(mode: .all)
                throw Passed(timeout: timeout)
            }
            return value
        }
    }
}
