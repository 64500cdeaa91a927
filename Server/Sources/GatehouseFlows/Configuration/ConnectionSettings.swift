/// How long an HTTP/1 connection may sit idle or take to send a request, and how many may be
/// open at once. Behind a proxy, keep the proxy's own keep-alive timeout below
/// ``idleTimeout``, so that the proxy, not the server, closes an idle upstream connection.
public struct ConnectionSettings: Sendable, Equatable {
    /// Seconds a connection may stay without a complete request head: before its first request,
    /// between requests, or while a head arrives (`GATEHOUSE_IDLE_TIMEOUT`, default 30).
    public var idleTimeout = 30
    /// Seconds from a request's head to the end of its body (`GATEHOUSE_READ_TIMEOUT`, default 30).
    public var readTimeout = 30
    /// Connections open at once; beyond it new ones wait to be accepted
    /// (`GATEHOUSE_MAX_CONNECTIONS`, default 1000).
    public var maxConnections = 1000
    /// Connections one client network (an IPv4 address, an IPv6 /64) may hold open at once;
    /// beyond it new ones are closed at once. Trusted proxies have no share
    /// (`GATEHOUSE_MAX_CONNECTIONS_PER_CLIENT`, default 100).
    public var maxConnectionsPerClient = 100

    /// The defaults.
    public init() {}
}
