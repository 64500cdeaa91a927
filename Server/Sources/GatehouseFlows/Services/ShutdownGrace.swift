import ServiceLifecycle

/// The stated time a background service is given at shutdown: `body` runs until it returns by
/// itself, or until `grace` after the application's graceful shutdown began, when it is
/// cancelled (or at once, when the service itself is cancelled).
///
/// ```swift
/// func run() async throws {
///     await withShutdownGrace(.seconds(10)) {
///         await wakeup.loop(every: interval) { await pass() }   // returns at the shutdown
///         await pass()                                          // the drain, cut at 10 s
///     }
/// }
/// ```
func withShutdownGrace(_ grace: Duration, _ body: @escaping @Sendable () async -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        group.addTask { await body() }
        group.addTask {
            do {
                try await gracefulShutdown()
                try await Task.sleep(for: grace)
            } catch {
                return
            }
        }
        await group.next()
        group.cancelAll()
    }
}
