// Apple-only call sites in this file (UIKit on iOS, tvOS and visionOS): NotificationCenter
// observers of UIApplication.protectedDataDidBecomeAvailableNotification and
// UIApplication.didBecomeActiveNotification. On other platforms nothing is observed; apps call
// AuthService.protectedDataDidBecomeAvailable() from their own lifecycle signals.
import Foundation

#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif

/// The system notifications after which a restore that failed for a locked store runs again;
/// the observers are removed when the service goes away.
final class LifecycleObservers: @unchecked Sendable {
    private let tokens: [any NSObjectProtocol]

    private init(tokens: [any NSObjectProtocol]) {
        self.tokens = tokens
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }

    /// Observes protected data becoming available and the app becoming active, where UIKit exists.
    @MainActor
    static func observe(_ service: AuthService) -> LifecycleObservers? {
        #if canImport(UIKit) && !os(watchOS)
        let names = [
            UIApplication.protectedDataDidBecomeAvailableNotification,
            UIApplication.didBecomeActiveNotification,
        ]
        let tokens = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { [weak service] _ in
                MainActor.assumeIsolated {
                    guard let service else { return }
                    Task { await service.protectedDataDidBecomeAvailable() }
                }
            }
        }
        return LifecycleObservers(tokens: tokens)
        #else
        return nil
        #endif
    }
}
