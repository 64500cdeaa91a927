public import Logging

/// swift-log's `StreamLogHandler` on standard output (`GATEHOUSE_LOG_FORMAT=text`, the
/// default), with the logger's metadata rendered only when a line is written.
///
/// `StreamLogHandler` renders its metadata into text every time a key is set, whether or not
/// anything is ever logged; the server sets two per request (Hummingbird's `hb.request.id` and
/// the request log's `request_id`), which was 2 % of a refresh's CPU with the level at
/// `error` (issue 35). This handler keeps the metadata itself and hands it to the stream
/// handler with each line, whose output is the same.
public struct TextLogHandler: LogHandler {
    private var stream: StreamLogHandler
    public var metadata: Logger.Metadata = [:]

    /// A handler for `label` that writes to standard output.
    public init(label: String) {
        stream = StreamLogHandler.standardOutput(label: label)
    }

    /// A handler for `label` that writes to `output` (tests).
    public init(label: String, output: any TextOutputStream & Sendable) {
        stream = StreamLogHandler(label: label, stream: output, metadataProvider: nil)
    }

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            event.metadata = metadata.merging(event.metadata ?? [:]) { $1 }
        }
        stream.log(event: event)
    }
}
