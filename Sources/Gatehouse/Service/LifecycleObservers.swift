// Apple-only call sites in this file: NotificationCenter observers of
// - UIKit (iOS, iPadOS, Mac Catalyst, tvOS, visionOS): UIApplication.protectedDataDidBecomeAvailableNotification,
//   didBecomeActiveNotification, didEnterBackgroundNotification, willEnterForegroundNotification;
// - AppKit (macOS): NSApplication.didBecomeActiveNotification;
// - WatchKit (watchOS 7+, and so watchOS 10): WKApplication.didBecomeActiveNotification,
//   didEnterBackgroundNotification, willEnterForegroundNotification (WKExtension's
//   application… notifications are deprecated since watchOS 9.2);
// - AuthenticationServices (every Apple platform): ASAuthorizationAppleIDProvider.credentialRevokedNotification.
// The notification names are `nonisolated class let` constants; the system posts them on the
// main thread, and the observers run on the main queue. Elsewhere nothing is observed: apps call
// AuthService.applicationDidBecomeActive(), protectedDataDidBecomeAvailable(),
// applicationDidEnterBackground() and checkAppleCredential() from their own lifecycle signals.
import Foundation

#if canImport(UIKit) && !os(watchOS)
import UIKit
#elseif os(macOS)
import AppKit
#elseif os(watchOS)
import WatchKit
#endif

/// The system notifications the service follows: the app becoming active (a restore that
/// failed for a reason that may pass runs again; Sign in with Apple is asked again, at most
/// every 15 minutes), protected data becoming available, the app entering and leaving the
/// background (the refresh lock is not waited for there), and Sign in with Apple's
/// revocations. The observers are removed when the service goes away.
final class LifecycleObservers: @unchecked Sendable {
    private let tokens: [any NSObjectProtocol]

    private init(tokens: [any NSObjectProtocol]) {
        self.tokens = tokens
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }

    /// Observes what the platform posts.
    @MainActor
    static func observe(_ service: AuthService) -> LifecycleObservers? {
        let tokens = applicationObservers(service) + signInWithAppleObservers(service)
        return tokens.isEmpty ? nil : LifecycleObservers(tokens: tokens)
    }

    @MainActor
    private static func applicationObservers(_ service: AuthService) -> [any NSObjectProtocol] {
        #if canImport(UIKit) && !os(watchOS)
        return [
            observe(UIApplication.protectedDataDidBecomeAvailableNotification, service) { service in
                await service.protectedDataDidBecomeAvailable()
            },
            observe(UIApplication.didBecomeActiveNotification, service) { service in
                await service.applicationDidBecomeActive()
            },
            observe(UIApplication.didEnterBackgroundNotification, service) { service in
                service.applicationDidEnterBackground()
            },
            observe(UIApplication.willEnterForegroundNotification, service) { service in
                service.applicationWillEnterForeground()
            },
        ]
        #elseif os(macOS)
        return [
            observe(NSApplication.didBecomeActiveNotification, service) { service in
                await service.applicationDidBecomeActive()
            }
        ]
        #elseif os(watchOS)
        return [
            observe(WKApplication.didBecomeActiveNotification, service) { service in
                await service.applicationDidBecomeActive()
            },
            observe(WKApplication.didEnterBackgroundNotification, service) { service in
                service.applicationDidEnterBackground()
            },
            observe(WKApplication.willEnterForegroundNotification, service) { service in
                service.applicationWillEnterForeground()
            },
        ]
        #else
        return []
        #endif
    }

    @MainActor
    private static func signInWithAppleObservers(_ service: AuthService) -> [any NSObjectProtocol] {
        #if canImport(AuthenticationServices)
        return [
            observe(AppleCredentialStateProvider.credentialRevokedNotification, service) { service in
                await service.checkAppleCredential(.revocationNotice)
            }
        ]
        #else
        return []
        #endif
    }

    /// Runs `action` on the main actor each time `name` is posted, while `service` lives.
    @MainActor
    private static func observe(
        _ name: Notification.Name,
        _ service: AuthService,
        _ action: @escaping @Sendable @MainActor (AuthService) async -> Void
    ) -> any NSObjectProtocol {
        NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { [weak service] _ in
            MainActor.assumeIsolated {
                guard let service else { return }
                Task { await action(service) }
            }
        }
    }
}
