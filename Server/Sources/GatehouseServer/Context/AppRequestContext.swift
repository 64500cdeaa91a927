import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
public import Hummingbird
public import HummingbirdAuth
public import NIOCore

/// The per-request context: Hummingbird's core storage, the client's socket address (rate
/// limits key on it even without a proxy header), and who is calling, as the middleware of
/// the route found out.
public struct AppRequestContext: AuthRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// Whom the request speaks for, on routes behind an authenticating middleware
    /// (``BearerAuthenticator``, ``ConsoleSessionMiddleware``); the child contexts of those
    /// routes require it.
    public var identity: Principal?
    /// The client's address as ``ClientAddressMiddleware`` derived it (trusted proxy header or socket peer).
    var clientIP: String?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// Request bodies above 1 MiB are refused with 413.
    public var maxUploadSize: Int { Self.uploadLimit }

    /// The body limit of every route, the authenticated child contexts' too.
    static let uploadLimit = 1 << 20

    /// The client address for rate limits and the audit log: as ``ClientAddressMiddleware``
    /// derived it, else the socket peer's IP. (Limits key IPv6 by /64: ``NetworkKeyedRateLimiter``.)
    var clientKey: String { clientIP ?? remoteAddress?.ipAddress ?? "unknown" }
}
