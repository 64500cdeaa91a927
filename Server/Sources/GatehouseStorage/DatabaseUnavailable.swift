import PostgresNIO
import VaporCSQLite

/// The database cannot serve right now: PostgreSQL unreachable, restarting or out of
/// connections, no pooled connection within the wait (``PostgresSettings/connectionWait``), or
/// SQLite's disk full, its file read-only or failing. Nothing of the request was committed;
/// the API answers 503 `database_unavailable` (never a 500) and the log names the reason.
public struct DatabaseUnavailable: Error, Equatable, CustomStringConvertible {
    /// What the database said, for the log (no statement, no value).
    public let reason: String

    public var description: String { "database unavailable: \(reason)" }

    /// `error` as a ``DatabaseUnavailable`` when it says the database (not the request) is at
    /// fault; `nil` for any other error.
    package static func classify(_ error: any Error) -> DatabaseUnavailable? {
        switch error {
        case let unavailable as DatabaseUnavailable:
            return unavailable
        case let error as PSQLError:
            return postgres(error)
        case let error as PostgresTransactionError:
            return [error.closureError, error.beginError, error.commitError, error.rollbackError]
                .lazy.compactMap { $0.flatMap(classify) }.first
        case let failure as SQLiteFailure:
            return sqlite(failure)
        default:
            // The pool's own errors (its circuit breaker, open after connections failed for a
            // minute) come from a module PostgresNIO does not export.
            let type = String(reflecting: Swift.type(of: error))
            return type.hasSuffix("ConnectionPoolError") ? DatabaseUnavailable(reason: "PostgreSQL: \(error)") : nil
        }
    }

    private static func postgres(_ error: PSQLError) -> DatabaseUnavailable? {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .sslUnsupported, .failedToAddSSLHandler:
            return DatabaseUnavailable(reason: "PostgreSQL connection: \(error.code)")
        case .server:
            // 08: connection exceptions; 53: insufficient resources (disk full, too many
            // connections); 57P01-57P03: the server shutting down, crashed, or starting.
            let state = error.serverInfo?[.sqlState] ?? ""
            guard state.hasPrefix("08") || state.hasPrefix("53") || ["57P01", "57P02", "57P03"].contains(state)
            else { return nil }
            return DatabaseUnavailable(reason: "PostgreSQL \(state): \(error.serverInfo?[.message] ?? "")")
        default:
            return nil
        }
    }

    private static func sqlite(_ failure: SQLiteFailure) -> DatabaseUnavailable? {
        let reason: String
        switch failure.code & 0xff {
        case SQLITE_FULL: reason = "SQLite: the disk is full"
        case SQLITE_READONLY: reason = "SQLite: the database is read-only"
        case SQLITE_IOERR: reason = "SQLite: an I/O error (a full disk or a file size limit, a failing disk)"
        case SQLITE_CANTOPEN: reason = "SQLite: the database file cannot be opened"
        case SQLITE_PERM: reason = "SQLite: permission denied"
        case SQLITE_BUSY, SQLITE_LOCKED: reason = "SQLite: the database is locked by another process"
        default: return nil
        }
        return DatabaseUnavailable(reason: "\(reason) (\(failure))")
    }
}
