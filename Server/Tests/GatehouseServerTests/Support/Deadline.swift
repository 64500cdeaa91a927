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
}
