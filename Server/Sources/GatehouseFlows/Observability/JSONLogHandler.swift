public import Foundation
import GatehouseCore
public import Logging
import Synchronization

/// A swift-log handler that writes one JSON object per line (`GATEHOUSE_LOG_FORMAT=json`):
/// `time`, `level`, `label`, `message`, then every metadata key at the top level (nested
/// metadata as JSON). Lines are written whole, one at a time.
///
/// It writes what it is given: Gatehouse never puts a secret in a log message or metadata
/// (request logs carry the route's pattern, never the path or query a client sent).
public struct JSONLogHandler: LogHandler {
    /// Where lines go.
    public typealias Sink = @Sendable (Data) -> Void

    /// The logger's label, written as `label`.
    public let label: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let sink: Sink

    /// A handler for `label` that writes to `sink` (by default standard output).
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil, sink: Sink? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.sink = sink ?? JSONLogHandler.standardOutput
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        var object: [String: Any] = [:]
        for (key, value) in merged { object[key] = Self.json(value) }
        object["time"] = WireCoding.formatTimestamp(Date())
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = event.message.description
        var line =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"message":"unencodable log line"}"#.utf8)
        line.append(UInt8(ascii: "\n"))
        sink(line)
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let number as Int): number
        case .stringConvertible(let number as Double): number
        case .stringConvertible(let flag as Bool): flag
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }

    private static let writeLock = Mutex(())

    /// Writes each line with one `write` under a lock, so lines from concurrent requests never interleave.
    public static let standardOutput: Sink = { line in
        writeLock.withLock { _ in FileHandle.standardOutput.write(line) }
    }
}
