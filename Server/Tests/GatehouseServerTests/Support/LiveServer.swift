import GatehouseProcessTesting
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle

/// Runs an application on a free loopback port, as HummingbirdTesting's `.live` does, with a
/// client that waits up to ``timeout`` for an answer. `.live` gives up after 20 seconds, and
/// on two cores running the whole suite (hundreds of tests, a PostgreSQL backend for each of
/// them) an Apple sign-in, which makes its own requests to a fake Apple, has taken longer.
enum LiveServer {
    static let timeout: Duration = .seconds(120)

    /// Runs `application` on a port the system chooses, or on `127.0.0.1:fixedPort` (a server
    /// whose own address must be known before it starts: a provider's redirect URI).
    static func run<App: ApplicationProtocol>(
        _ application: App,
        fixedPort: Int? = nil,
        _ body: @Sendable (LiveClient) async throws -> Void
    ) async throws {
        let (ports, port) = AsyncStream<Int>.makeStream()
        let app = PortReporting(base: application, port: port, fixedPort: fixedPort)
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [], logger: application.logger)
        )
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                // A server that fails to start ends the wait for its port.
                defer { port.finish() }
                try await group.run()
            }
            var first = ports.makeAsyncIterator()
            guard let bound = await first.next() else {
                try await tasks.waitForAll()
                throw LiveServerError.didNotStart
            }
            let host = fixedPort == nil ? "localhost" : "127.0.0.1"
            let client = TestClient(host: host, port: bound, configuration: .init(timeout: timeout))
            client.connect()
            do {
                try await body(LiveClient(client: client, port: bound))
            } catch {
                try? await client.shutdown()
                await group.triggerGracefulShutdown()
                throw error
            }
            try await client.shutdown()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}

enum LiveServerError: Error {
    case didNotStart
}

/// A client of a ``LiveServer``: one keep-alive connection, as `.live`'s.
struct LiveClient: Sendable {
    let client: TestClient
    let port: Int?

    func execute(
        uri: String,
        method: HTTPRequest.Method,
        headers: HTTPFields = [:],
        body: ByteBuffer? = nil
    ) async throws -> TestClient.Response {
        var headers = headers
        headers[.connection] = "keep-alive"
        let request = TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body)
        return try await Deadline.answer(of: client, within: LiveServer.timeout) { try await $0.execute(request) }
    }
}

/// `base` on `localhost` at a port the system chooses (or on `127.0.0.1:fixedPort`), reporting
/// the port once it listens.
private struct PortReporting<Base: ApplicationProtocol>: ApplicationProtocol, Service {
    typealias Responder = Base.Responder

    let base: Base
    let port: AsyncStream<Int>.Continuation
    var fixedPort: Int?

    var responder: Responder {
        get async throws { try await base.responder }
    }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration {
        base.configuration.with(
            address: fixedPort.map { .hostname("127.0.0.1", port: $0) } ?? .hostname("localhost", port: 0)
        )
    }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        if let bound = channel.localAddress?.port { port.yield(bound) }
    }
}
