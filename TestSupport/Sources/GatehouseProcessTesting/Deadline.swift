/// A wait with a time limit, for what has none of its own (a signal from another task).
public enum Deadline {
    /// The time limit passed before an answer came.
    public struct Passed: Error, CustomStringConvertible {
        /// The limit that passed.
        public let timeout: Duration

        /// Makes the error for a limit of `timeout`.
        public init(timeout: Duration) { self.timeout = timeout }

        /// What went wrong, for the test's failure message.
        public var description: String { "no answer within \(timeout)" }
    }

    /// `body`'s answer, or ``Passed`` once `timeout` has passed (`body` is cancelled then: an
    /// `AsyncStream` it iterates ends at once).
    public static func run<Value: Sendable>(
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
