import GatehouseServerSupport
import GatehouseStorage
public import Hummingbird
public import NIOCore

/// The per-request context: Hummingbird's core storage, the client's socket address (rate
/// limits key on it even without a proxy header), and who is calling, as the middleware of
/// the route found out.
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The verified caller, on routes behind ``CallerMiddleware``.
    var caller: Caller?
    /// The verified admin claims, on routes behind ``AdminMiddleware``.
    var admin: VerifiedAccess?
    /// The client's address as ``ClientAddressMiddleware`` derived it (trusted proxy header or socket peer).
    var clientIP: String?
    /// The unverified bearer token, on routes behind ``BearerMiddleware`` (verified only when used).
    var bearer: String?
    /// The signed-in operator, on the console's routes behind ``ConsoleSessionMiddleware``.
    var console: ConsoleOperator?
    /// The form a console page posted, read (and its CSRF token checked) by
    /// ``ConsoleSessionMiddleware``.
    var consoleForm: ConsoleForm?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// Request bodies above 1 MiB are refused with 413.
    public var maxUploadSize: Int { 1 << 20 }

    /// The client address for rate limits and the audit log: as ``ClientAddressMiddleware``
    /// derived it, else the socket peer's IP. (Limits key IPv6 by /64: ``NetworkKeyedRateLimiter``.)
    var clientKey: String { clientIP ?? remoteAddress?.ipAddress ?? "unknown" }

    /// The caller ``CallerMiddleware`` verified; 401 `no_authorization` on a route without it.
    func requireCaller() throws -> Caller {
        guard let caller else { throw APIError.noAuthorization }
        return caller
    }
}
