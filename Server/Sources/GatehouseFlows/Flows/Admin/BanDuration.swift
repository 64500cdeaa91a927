import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// An admin's `ban_duration`, read as GoTrue reads it (`time.ParseDuration`): `none` lifts a ban,
/// a Go duration (`24h`, `1h30m`, `1.5h`, `90s`, `-1h`; units `ns`, `us` (or `µs`, `μs`), `ms`, `s`,
/// `m`, `h`) bans for that long from now (zero lifts it, a negative one sets a time already past),
/// and an empty string leaves the ban as it is. A duration beyond Go's largest (2⁶³ − 1 ns, about
/// 292 years) is read as that largest, where Go refuses it: any duration the API document's
/// pattern admits is accepted.
enum BanDuration {
    /// What a `ban_duration` does to a user's ban.
    enum Change: Equatable, Sendable {
        /// Absent or empty: the ban stays as it is.
        case keep
        /// `none` or a zero duration: no ban.
        case lift
        /// Banned until then.
        case until(Date)

        /// The `banned_until` this change leaves on a user banned until `current`.
        func applied(to current: Date?) -> Date? {
            switch self {
            case .keep: current
            case .lift: nil
            case .until(let date): date
            }
        }
    }

    /// Go's largest duration in seconds.
    static let longest: TimeInterval = 9_223_372_036.854_775_807

    /// The change `text` asks for; 400 `validation_failed` for anything but `none`, a Go duration
    /// or an empty string.
    static func change(_ text: String?, now: Date) throws -> Change {
        guard let text, !text.isEmpty else { return .keep }
        if text == "none" { return .lift }
        guard let seconds = seconds(text) else {
            throw APIError.validation("ban_duration must be none or a duration such as 24h, 1h30m or 90s")
        }
        return seconds == 0 ? .lift : .until(now.addingTimeInterval(min(max(seconds, -longest), longest)))
    }

    /// The seconds of a Go duration: an optional sign, then `0`, or one or more numbers (digits
    /// with an optional fraction: `1`, `1.5`, `1.`, `.5`) each followed by its unit; `nil` for
    /// anything else.
    static func seconds(_ text: String) -> Double? {
        var rest = Substring(text)
        var sign = 1.0
        if let first = rest.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        if rest == "0" { return 0 }
        guard !rest.isEmpty else { return nil }
        var total = 0.0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { !($0.isASCII && ($0.isNumber || $0 == ".")) }
            rest = rest.dropFirst(unit.count)
            guard let value = Self.number(number), let factor = units[String(unit)] else { return nil }
            total += value * factor
        }
        return sign * total
    }

    /// Seconds per unit.
    private static let units: [String: Double] = [
        "ns": 1e-9, "us": 1e-6, "\u{B5}s": 1e-6, "\u{3BC}s": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600,
    ]

    /// Digits with an optional fraction, at least one digit.
    private static func number(_ text: Substring) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), parts.contains(where: { !$0.isEmpty }) else {
            return nil
        }
        let whole = parts[0].isEmpty ? 0 : Double(parts[0]) ?? .infinity
        let fraction = parts.count == 2 && !parts[1].isEmpty ? Double("0." + parts[1]) ?? 0 : 0
        return whole + fraction
    }
}
