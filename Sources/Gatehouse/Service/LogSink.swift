/// Where the SDK sends its diagnostics. The SDK has no logging dependency: route events to
/// `os.Logger`, swift-log or `print` with one closure. Messages are fixed strings and
/// metadata never contains a token, password or code.
public struct LogSink: Sendable {
    /// How serious an event is.
    public enum Level: Int, Sendable, Comparable {
        /// Detail for a developer tracing a problem (a check that was skipped, and why).
        case debug
        /// Something worth knowing that is not a failure (a session adopted from another process,
        /// a verification deferred).
        case info
        /// Something went wrong and the SDK carried on (a store that could not be read, or fell
        /// back).
        case warning
        /// An operation failed (a session that could not be stored or deleted).
        case error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One diagnostic event.
    public struct Event: Sendable, Equatable {
        /// How serious the event is.
        public var level: Level
        /// A fixed sentence: never data that varies per user.
        public var message: String
        /// Data about the event (codes, counts, durations); never a token, password or code.
        public var metadata: [String: String]

        /// Creates an event.
        public init(level: Level, message: String, metadata: [String: String] = [:]) {
            self.level = level
            self.message = message
            self.metadata = metadata
        }
    }

    /// Receives each event.
    public var log: @Sendable (Event) -> Void

    /// Creates a sink from a closure.
    public init(log: @escaping @Sendable (Event) -> Void) {
        self.log = log
    }

    /// A sink that drops everything (the default).
    public static let disabled = LogSink { _ in }

    func callAsFunction(_ level: Level, _ message: String, _ metadata: [String: String] = [:]) {
        log(Event(level: level, message: message, metadata: metadata))
    }
}
