import Foundation
import GatehouseServerSupport

/// A PostgreSQL database, from `GATEHOUSE_DATABASE_URL=postgres://user:pass@host:port/db`.
public struct PostgresSettings: Sendable, Equatable {
    /// TLS to the database: `?sslmode=disable|prefer|require` (default `require`, or `prefer`
    /// for a loopback host).
    public enum TLSMode: String, Sendable, Equatable {
        case disable, prefer, require
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// The most connections one server keeps open (`GATEHOUSE_DATABASE_POOL_SIZE`, default 10).
    public var poolSize: Int
    /// Whether the pool opens all ``poolSize`` connections at start and keeps them, or opens
    /// them on demand and closes one after ``idleTimeout`` unused (the default). Kept
    /// connections arm no idle timer per return (on Linux a cancelled timer holds its task until
    /// its deadline: issue 20's soak saw about 200 MiB at thousands of requests a second with a
    /// 60-s timeout), but PostgresNIO 1.33.2 stops the process on a precondition
    /// (`PoolStateMachine+ConnectionGroup.swift:163`, `minimumConcurrentConnections <=
    /// stats.active`) when PostgreSQL restarts under a pool with a minimum (issue 32's outage
    /// test crashed or hung on it; postgres-nio issue 479 is the same family). A server that
    /// survives a database restart comes first, so connections are opened on demand, and the
    /// short ``idleTimeout`` bounds what cancelled timers hold (about 10 s of requests).
    public var keepsConnectionsOpen = false
    /// How long a connection opened on demand (``keepsConnectionsOpen`` off) stays unused
    /// before the pool closes it.
    public var idleTimeout: Duration = .seconds(10)
    /// How long a statement waits for a pooled connection before the request is answered 503
    /// `database_unavailable`: while PostgreSQL is down or restarting the pool retries its
    /// connections and would hold every request until then (and its circuit breaker opens only
    /// after a minute).
    public var connectionWait: Duration = .seconds(10)
    /// How long a transaction (or a statement outside one) may take, from the request for its
    /// connection to its end, before the request is answered 503 `database_unavailable` and
    /// the connection closed. PostgresNIO 1.33.2 writes a statement to a connection without a
    /// write promise: one written just as PostgreSQL closed the connection never completes
    /// (issue 32's restart test saw requests held forever), so the storage bounds it itself.
    public var transactionTimeout: Duration = .seconds(30)

    public init(
        host: String,
        port: Int = 5432,
        username: String,
        password: String? = nil,
        database: String,
        tls: TLSMode = .prefer,
        poolSize: Int = 10
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.poolSize = poolSize
    }

    /// Whether `host` is this machine, where traffic never crosses a network.
    package static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    /// Parses a `postgres://` or `postgresql://` URL.
    public init(url text: String) throws {
        let variable = "GATEHOUSE_DATABASE_URL"
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty,
            let user = components.user, !user.isEmpty
        else {
            throw ConfigurationError(
                variable: variable,
                problem: "must look like postgres://user:password@host:5432/database"
            )
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else {
            throw ConfigurationError(variable: variable, problem: "names no database (postgres://…/database)")
        }
        var tls = Self.isLoopback(host) ? TLSMode.prefer : .require
        if let mode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value {
            guard let parsed = TLSMode(rawValue: mode) else {
                throw ConfigurationError(variable: variable, problem: "sslmode must be disable, prefer or require")
            }
            tls = parsed
        }
        self.init(
            host: host,
            port: components.port ?? 5432,
            username: user.removingPercentEncoding ?? user,
            password: components.password.map { $0.removingPercentEncoding ?? $0 },
            database: database,
            tls: tls
        )
    }
}

/// What the settings look like in a log line, a `print` or a `dump`: the password shows as
/// `<redacted>`.
extension PostgresSettings: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A URL for the log: the password is `<redacted>`.
    public var description: String {
        let password = password == nil ? "" : ":<redacted>"
        return "postgres://\(username)\(password)@\(host):\(port)/\(database)?sslmode=\(tls.rawValue)"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The settings without the password.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "host": host, "port": port, "username": username, "password": password == nil ? "nil" : "<redacted>",
                "database": database, "tls": tls, "poolSize": poolSize,
            ],
            displayStyle: .struct
        )
    }
}
