import Foundation
import GatehouseFlows
import GatehouseStorage
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import Prometheus
import Synchronization

/// The Prometheus side of metrics: the process's registry, the swift-metrics bootstrap (once
/// per process: swift-metrics allows one backend), and the listener that serves
/// `GET /metrics` on `GATEHOUSE_METRICS_PORT`.
enum MetricsExport {
    /// Every metric of this process.
    static let registry = PrometheusCollectorRegistry()

    private static let bootstrapped = Mutex(false)

    /// Makes swift-metrics report to ``registry``; later calls do nothing. Only a server with
    /// a metrics port calls it, so that an application embedding Gatehouse keeps its own backend.
    static func bootstrap() {
        bootstrapped.withLock { done in
            guard !done else { return }
            done = true
            var factory = PrometheusMetricsFactory(registry: registry)
            factory.nameAndLabelSanitizer = sanitize
            factory.valueHistogramBuckets["gatehouse_db_group_commit_batch_size"] = [1, 2, 4, 8, 16, 32, 64, 128, 256]
            MetricsSystem.bootstrap(factory)
        }
    }

    /// Hummingbird's request metrics under Prometheus-style names; `http.route` is the route's
    /// pattern (`/admin/users/{id}`), never the path a client sent.
    @Sendable static func sanitize(_ name: String, _ labels: [(String, String)]) -> (String, [(String, String)]) {
        let renamed: String =
            switch name {
            case "hb.requests": "http_server_requests_total"
            case "hb.request.errors": "http_server_request_errors_total"
            case "http.server.request.duration": "http_server_request_duration_seconds"
            case "http.server.active_requests": "http_server_active_requests"
            default: name.replacingOccurrences(of: ".", with: "_")
            }
        return (renamed, labels.map { ($0.0.replacingOccurrences(of: ".", with: "_"), $0.1) })
    }

    /// The text exposition of every metric, after sampling the gauges read on demand.
    static func exposition(sampling storage: any AuthStorage, sampler: GaugeSampler) async -> [UInt8] {
        await sampler.sampleIfDue(storage)
        return registry.emitToBuffer()
    }

    /// The most connections the listener holds at once (a scraper needs one or two).
    static let maximumConnections = 16

    /// The listener for `GET /metrics` on `host:port`, with the API's timeouts (`server`) and
    /// ``maximumConnections``.
    static func application(
        host: String,
        port: Int,
        server: HTTP1Channel.Configuration,
        storage: any AuthStorage,
        logger: Logger
    ) -> Application<RouterResponder<BasicRequestContext>> {
        let router = Router()
        let sampler = GaugeSampler()
        router.get("metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            let body = await exposition(sampling: storage, sampler: sampler)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        return Application(
            router: router,
            server: .http1(configuration: server),
            configuration: .init(
                address: .hostname(host, port: port),
                serverName: "Gatehouse metrics",
                availableConnectionsDelegate: MaximumAvailableConnections(Self.maximumConnections, logger: logger)
            ),
            logger: logger
        )
    }
}
