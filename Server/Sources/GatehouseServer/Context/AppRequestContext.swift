public import Hummingbird
public import NIOCore

/// The per-request context: Hummingbird's core storage plus the client's socket address
/// (rate limits key on it even without a proxy header).
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// Request bodies above 1 MiB are refused with 413.
    public var maxUploadSize: Int { 1 << 20 }

    /// The client address for rate limiting: the socket peer's IP.
    var clientKey: String { remoteAddress?.ipAddress ?? "unknown" }
}
