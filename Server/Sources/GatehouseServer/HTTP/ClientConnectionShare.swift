import GatehouseFlows
import GatehouseServerSupport
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Each client's share of the connection cap (`GATEHOUSE_MAX_CONNECTIONS_PER_CLIENT`): a client
/// network (an IPv4 address, an IPv6 /64: ``ClientAddress/limitKey(_:)``) holding that many
/// connections open has the next one closed at once, so one client cannot hold the connections
/// everyone else needs (`GATEHOUSE_MAX_CONNECTIONS` bounds them all). A trusted proxy
/// (`GATEHOUSE_TRUSTED_PROXIES`) carries many clients and has no share of its own.
final class ClientConnectionShare: Sendable {
    /// Connections one client network may hold.
    let share: Int
    private let trustedProxies: [CIDR]
    private let open = Mutex<[String: Int]>([:])

    init(share: Int, trustedProxies: [CIDR]) {
        self.share = share
        self.trustedProxies = trustedProxies
    }

    /// A handler for one accepted connection (``HTTP1Channel``'s additional handlers).
    func handler() -> Handler { Handler(share: self) }

    /// Counts a connection of `peer`; `nil` when it is over the share (nothing counted), else the
    /// key to give back when it closes (`""` for a trusted proxy, not counted).
    fileprivate func admit(_ peer: IPAddress) -> String? {
        guard !trustedProxies.contains(where: { $0.contains(peer) }) else { return "" }
        let key = ClientAddress.limitKey(peer.description)
        return open.withLock { open in
            let held = open[key, default: 0]
            guard held < share else { return nil }
            open[key] = held + 1
            return key
        }
    }

    fileprivate func release(_ key: String) {
        guard !key.isEmpty else { return }
        open.withLock { open in
            let held = open[key, default: 0] - 1
            open[key] = held > 0 ? held : nil
        }
    }

    /// Connections held by `peer`'s network now (tests).
    func held(by peer: String) -> Int {
        open.withLock { $0[ClientAddress.limitKey(peer), default: 0] }
    }

    /// Counts its connection while it is open and closes it when its client is over the share.
    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart

        private let share: ClientConnectionShare
        private var key: String?
        private var refused = false

        fileprivate init(share: ClientConnectionShare) {
            self.share = share
        }

        func handlerAdded(context: ChannelHandlerContext) {
            guard let peer = context.channel.remoteAddress?.ipAddress.flatMap({ IPAddress($0) }) else { return }
            if let key = share.admit(peer) {
                self.key = key
            } else {
                refused = true
                // After the pipeline is set up: closing while handlers are being added fails the setup.
                let channel = context.channel
                context.eventLoop.execute { channel.close(promise: nil) }
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !refused else { return }
            context.fireChannelRead(data)
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            if let key { share.release(key) }
            key = nil
        }
    }
}
