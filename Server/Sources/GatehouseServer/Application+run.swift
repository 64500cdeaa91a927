public import GatehouseFlows
import GatehouseStorage
public import Logging
import ServiceLifecycle
import UnixSignals

/// Runs the server until SIGTERM or SIGINT, as `gatehouse-server serve` does: one
/// `ServiceGroup` holds the database's pool (PostgreSQL's `PostgresClient`, a `Service`) and
/// then the server (the database checked and migrated, the application built and run, with
/// its background services and the metrics listener). A graceful shutdown stops them in the
/// reverse order: the HTTP server and the background work drain first (see
/// `backgroundServices`), the pool last.
///
/// - Parameters:
///   - configuration: Settings (see ``ServerConfiguration/init(environment:)``).
///   - logger: The server's logger.
public func runServer(configuration: ServerConfiguration, logger: Logger) async throws {
    let database = try await ServerDatabase.prepare(configuration, logger: logger)
    var services: [any Service] = []
    if let pool = database.pool { services.append(pool) }
    services.append(ServerProcess(configuration: configuration, database: database, logger: logger))
    let group = ServiceGroup(
        configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    )
    try await group.run()
}

/// The server inside ``runServer(configuration:logger:)``'s group: starts the database (the
/// pool runs beside it), builds the application and runs it with the metrics listener; the
/// database is closed once they have stopped.
private struct ServerProcess: Service {
    let configuration: ServerConfiguration
    let database: ServerDatabase
    let logger: Logger

    func run() async throws {
        do {
            try await database.start()
            let server = try await buildServer(configuration: configuration, database: database, logger: logger)
            logger.info(
                "Gatehouse listening",
                metadata: [
                    "address": "\(configuration.host):\(configuration.port)",
                    "database": "\(configuration.database.description)",
                ]
            )
            var services: [any Service] = [server.application]
            if let metrics = server.metricsApplication, let port = configuration.metricsPort {
                logger.info("Metrics listening", metadata: ["address": "\(configuration.host):\(port)"])
                services.append(metrics)
            }
            // Graceful shutdown reaches this group from the outer one.
            try await ServiceGroup(configuration: .init(services: services, logger: logger)).run()
        } catch {
            try? await database.close()
            throw error
        }
        try await database.close()
        logger.info("Gatehouse stopped")
    }
}
