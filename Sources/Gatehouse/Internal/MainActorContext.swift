import Dispatch
import Foundation

/// Whether code runs on the main actor, for the few nonisolated entry points that answer at
/// once when they can (a `SharedKey`'s `load` runs where a view is created).
///
/// The main actor's executor is the main dispatch queue. On Apple platforms that queue runs
/// on the main thread; on Linux (Swift 6.3) it may run on another thread, so the queue itself
/// is asked, through a value set on it.
enum MainActorContext {
    /// The key of the value set on the main queue. Dispatch's overlay declares the key class
    /// Sendable on Linux but not on Apple platforms; it is only an identity, set once and then
    /// read.
    private struct MainQueueKey: @unchecked Sendable {
        let key = DispatchSpecificKey<Bool>()
    }

    private static let mainQueue: MainQueueKey = {
        let mainQueue = MainQueueKey()
        DispatchQueue.main.setSpecific(key: mainQueue.key, value: true)
        return mainQueue
    }()

    /// Whether `MainActor.assumeIsolated` would hold here.
    static var isCurrent: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueue.key) == true
    }
}
