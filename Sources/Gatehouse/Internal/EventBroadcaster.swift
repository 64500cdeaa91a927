import Foundation

/// Fans ``AuthEvent`` values out to any number of `AsyncStream` subscribers.
@MainActor
final class EventBroadcaster {
    private var continuations: [UUID: AsyncStream<AuthEvent>.Continuation] = [:]

    /// A new stream; `initial` is delivered first when given.
    func subscribe(initial: AuthEvent?) -> AsyncStream<AuthEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: AuthEvent.self, bufferingPolicy: .unbounded)
        if let initial { continuation.yield(initial) }
        continuations[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.continuations[id] = nil }
        }
        return stream
    }

    func send(_ event: AuthEvent) {
        for continuation in continuations.values {
            continuation.yield(event)
        }
    }

    var subscriberCount: Int { continuations.count }

    func finishAll() {
        for continuation in continuations.values {
            continuation.finish()
        }
        continuations = [:]
    }
}
