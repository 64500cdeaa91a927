public import Foundation

/// The JSON coders every Gatehouse component uses for wire types.
///
/// Dates are ISO-8601 in UTC with fractional seconds on output; input accepts them with or
/// without fractional seconds, as GoTrue and its clients do.
public enum WireCoding {
    /// A new encoder for wire types (sorted keys, ISO-8601 dates with milliseconds).
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatTimestamp(date))
        }
        return encoder
    }

    /// A new decoder for wire types.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseTimestamp(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "Expected an ISO-8601 timestamp, got \(text.prefix(40))"
                )
            }
            return date
        }
        return decoder
    }

    /// Formats a date as ISO-8601 UTC with milliseconds, for example `2026-11-22T10:00:00.123Z`.
    public static func formatTimestamp(_ date: Date) -> String {
        date.formatted(withMilliseconds)
    }

    /// Parses an ISO-8601 timestamp with or without fractional seconds; `nil` when it is not one.
    public static func parseTimestamp(_ text: String) -> Date? {
        if let date = try? withMilliseconds.parse(text) { return date }
        return try? wholeSeconds.parse(text)
    }

    private static let withMilliseconds = Date.ISO8601FormatStyle(
        includingFractionalSeconds: true,
        timeZone: TimeZone(identifier: "UTC")!
    )
    private static let wholeSeconds = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
}
