import Dispatch
import Foundation

/// Whether code runs on the main actor, for the few nonisolated entry points that answer at
/// once when they can (a `SharedKey`'s `load` runs where a view is created).
///
/// The main actor's executor is the main dispatch queue. On Apple platforms that queue runs
/// on the main thread; on Linux (Swift 6.3) it may run on another thread, so the queue itself
/// is asked, through a value set on it.
enum MainActorContext {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether `MainActor.assumeIsolated` would hold here.
    static var isCurrent: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true
    }
}
