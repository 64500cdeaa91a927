import HummingbirdTesting
import NIOCore

/// A wait with a time limit, for what has none of its own (a signal from another task).
enum Deadline {
    struct Passed: Error, CustomStringConvertible {
        let timeout: Duration
        var description: String { "no answer within \(timeout)" }
    }

    /// `body`'s answer, or ``Passed`` once `timeout` has passed (`body` is cancelled then: an
    /// `AsyncStream` it iterates ends at once).
    static func run<Value: Sendable>(
        _ timeout: Duration = .seconds(60),
        _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw Passed(timeout: timeout) }
            return value
        }
    }

    /// `body`'s answer from `client`, or ``Passed`` once `timeout` has passed, when the client's
    /// connection is closed. HummingbirdTesting's own read timeout cannot end a request the
    /// server never answers (its task group then waits for a response promise that only the
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
