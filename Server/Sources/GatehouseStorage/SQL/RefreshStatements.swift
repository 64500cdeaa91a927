/// The statements a refresh grant runs, as the storage runs them (`?` placeholders, in the order
/// of their binds): the read of the session with its user (``SQLTransaction/sessionWithUser(id:)``)
/// and the rotation with its audit line
/// (``SQLTransaction/rotateSession(id:expectedCounter:at:from:audit:)``). The server benchmark
/// runs PostgreSQL's through pgbench, without the server, for the bound its refresh rate is held
/// to, and SQLite's through SQLite's C API, for what the database's size costs them alone.
package enum RefreshStatements {
    /// The read; its one bind is the session's id.
    package static let postgresRead = SQLTransaction.postgresSessionWithUser
    /// The rotation; binds: rotated at, refreshed at, refreshed from (IP), refreshed day, the
    /// session's id, the expected counter; then the audit line's time, action, actor, IP, detail, subject.
    package static let postgresRotation = SQLTransaction.postgresRotation
    /// SQLite's read; its one bind is the session's id.
    package static let sqliteRead = SQLTransaction.sqliteSessionWithUser
    /// SQLite's rotation; binds as ``postgresRotation``'s first six. Returns the new counter.
    package static let sqliteRotation = SQLTransaction.sqliteRotation
    /// SQLite's audit line, in the rotation's transaction; binds: time, action, actor, IP, detail,
    /// subject.
    package static let sqliteAudit = SQLTransaction.auditAppend
}
