import GatehouseProcessTesting
import Hummingbird
import Logging
import NIOCore

/// A stand-in service the server talks to (a fake provider, a fake GitHub, an app's page),
/// running on `127.0.0.1` until ``stop()``. Its start is waited for with a time limit: a
/// stand-in that cannot bind its port fails the test instead of hanging it.
final class LoopbackApp: Sendable {
    /// The port it listens on.
    let port: Int
    private let task: Task<Void, any Error>

    /// Starts `router` on `127.0.0.1:port` (0: a port the system chooses) and returns once it
    /// listens, or throws ``LiveServerError/didNotStart`` when it stopped first and
    /// ``Deadline/Passed`` when it did neither within `timeout`.
    init(
        router: Router<BasicRequestContext>,
        label: String,
        port requested: Int = 0,
        timeout: Duration = .seconds(60)
    ) async throws {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: label)
        logger.logLevel = .critical
        let application = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: requested)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? requested)
                continuation.finish()
            },
            logger: logger
        )
        let task = Task {
            // A server that fails to bind ends the wait for its port.
            defer { continuation.finish() }
            try await application.runService()
        }
        let bound: Int?
        do {
            bound = try await Deadline.run(timeout) {
                var iterator = ports.makeAsyncIterator()
                return await iterator.next()
            }
        } catch {
            task.cancel()
            throw error
        }
        guard let bound else {
            _ = try? await task.value
            throw LiveServerError.didNotStart
        }
        self.port = bound
        self.task = task
    }

    /// Stops the server and waits for it to end.
    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
