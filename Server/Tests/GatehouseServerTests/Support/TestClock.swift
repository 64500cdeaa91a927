import Foundation

/// A server clock a test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date = Date(timeIntervalSince1970: 1_800_000_000)

    var now: @Sendable () -> Date { { self.lock.withLock { self.date } } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { date.addTimeInterval(seconds) }
    }
}
