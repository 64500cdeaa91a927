#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The server keeps its time in UTC unless the operator names a zone.
///
/// Everything the server writes (tokens, JSON timestamps, `Date` headers, audit rows) is UTC
/// whatever the host's zone. Only two things read the process's local zone: the text log's
/// timestamps, and Foundation's `TimeZone.current`, which Hummingbird's `Date` header cache asks
/// for once. Resolving the host's zone (`/etc/localtime`) goes through ICU's zone tables and
/// keeps about 2 MiB of them resident for the life of the process; `GMT` is Foundation's
/// built-in zone and touches no ICU data. So when `TZ` is unset or empty, the server sets
/// `TZ=GMT` for its own process, and text log lines read `+0000`. An operator who wants log
/// timestamps in a local zone sets `TZ` (for example `TZ=Europe/Berlin`), and it is kept.
public enum ProcessTimeZone {
    /// The zone the server's process uses when `TZ` is unset or empty.
    static let utc = "GMT"

    /// What `TZ` should be set to when the environment's value is `current`: ``utc`` when it is
    /// unset or empty, nil (leave it) when the operator chose a zone.
    package static func replacement(forTZ current: String?) -> String? {
        guard let current, !current.isEmpty else { return utc }
        return nil
    }

    /// Sets `TZ=GMT` for this process when `TZ` is unset or empty.
    ///
    /// Call it first in the server's entry point, before anything reads the time zone or logs:
    /// Foundation and the C library read `TZ` once and keep what they found.
    public static func keepUTCUnlessConfigured() {
        let current = getenv("TZ").map { String(cString: $0) }
        if let replacement = replacement(forTZ: current) {
            setenv("TZ", replacement, 1)
        }
    }
}
