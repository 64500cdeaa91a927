import Foundation

#if canImport(Glibc)
import GatehouseServerSupport
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a SQLite database on disk, kept private to the server's user: the database is
/// created 0600 before SQLite opens it (SQLite gives its `-wal` and `-shm` the database's
/// mode), and a database, `-wal`, `-shm` or secret file that group or others may access stops
/// the start. The folder is never changed.
package enum SQLiteFiles {
    /// Creates `path` 0600 when it does not exist, then checks it and its companions.
    ///
    /// - Throws: ``ConfigurationError`` naming `GATEHOUSE_DATABASE_URL` when a file is open to
    ///   group or others, or cannot be created.
    package static func prepare(path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            throw ConfigurationError(
                variable: "GATEHOUSE_DATABASE_URL",
                problem: "names a file that cannot be created (\(path))"
            )
        }
        for file in [path, path + "-wal", path + "-shm"] {
            try requirePrivate(file, variable: "GATEHOUSE_DATABASE_URL")
        }
    }

    /// Refuses a file that exists and that group or others may read, write or execute.
    package static func requirePrivate(_ file: String, variable: String) throws {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
        else { return }
        guard mode & 0o077 == 0 else {
            throw ConfigurationError(
                variable: variable,
                problem: "names \(file), which group or others may access (mode "
                    + String(mode & 0o777, radix: 8) + "); run chmod 600 on it"
            )
        }
    }
}
