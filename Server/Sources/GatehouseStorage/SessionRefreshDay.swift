package import Foundation

/// The UTC day of a session's last refresh: the `sessions.refreshed_day` column (seconds since
/// 1970 at the start of that day), the key by which the sweep finds idle sessions.
///
/// The exact `refreshed_at` is not indexed because a refresh changes it every time: a changed
/// indexed column makes PostgreSQL write a new entry into every index of the table (the primary
/// key, the user's sessions, the creation time) instead of a heap-only (HOT) update of the row.
/// The day changes on at most one refresh of a session a day, so the other refreshes of an
/// hourly-refreshing client update the row alone.
///
/// The price: the sweep deletes a session whose day starts before the day of its cutoff, so at
/// most a day after it became idle. Requests refuse it from the exact time on, as before.
package enum SessionRefreshDay {
    package static let length: TimeInterval = 86_400

    /// The start of the UTC day that holds `date`, in seconds since 1970.
    package static func start(of date: Date) -> Double {
        (date.timeIntervalSince1970 / length).rounded(.down) * length
    }
}
