/// Where the SDK sends its diagnostics. The SDK has no logging dependency: route events to
/// `os.Logger`, swift-log or `print` with one closure. Messages are fixed strings and
/// metadata never contains a token, password or code.
public struct LogSink: Sendable {
    /// How serious an event is.
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One diagnostic event.
    public struct Event: Sendable, Equatable {
        public var level: Level
        public var message: String
        public var metadata: [String: String]

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
