import Foundation

/// An admin's `ban_duration`: `"none"` clears a ban; `"24h"`, `"30m"`, `"90s"` set one.
enum BanDuration {
    /// When the ban ends, or `nil` for none; 400 `validation_failed` for anything else.
    static func until(_ duration: String?, now: Date) throws -> Date? {
        guard let duration, duration != "none" else { return nil }
        guard let unit = duration.last, let amount = Double(duration.dropLast()), amount > 0 else {
            throw APIError.validation("ban_duration must look like 24h, 30m or none")
        }
        switch unit {
        case "h": return now.addingTimeInterval(amount * 3600)
        case "m": return now.addingTimeInterval(amount * 60)
        case "s": return now.addingTimeInterval(amount)
        default: throw APIError.validation("ban_duration must look like 24h, 30m or none")
        }
    }
}
