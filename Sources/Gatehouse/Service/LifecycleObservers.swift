// Apple-only call sites in this file: NotificationCenter observers of (UIKit on iOS, tvOS and
// visionOS) UIApplication.protectedDataDidBecomeAvailableNotification and
// UIApplication.didBecomeActiveNotification, and (AuthenticationServices on every Apple
// platform) ASAuthorizationAppleIDProvider.credentialRevokedNotification. On other platforms
// nothing is observed; apps call AuthService.protectedDataDidBecomeAvailable() and
// AuthService.checkAppleCredential() from their own lifecycle signals.
import Foundation

#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif

/// The system notifications after which a restore that failed for a locked store runs again,
/// and after which Sign in with Apple is asked about the user again; the observers are removed
/// when the service goes away.
final class LifecycleObservers: @unchecked Sendable {
    private let tokens: [any NSObjectProtocol]

    private init(tokens: [any NSObjectProtocol]) {
        self.tokens = tokens
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }

    /// Observes protected data becoming available and the app becoming active, where UIKit
    /// exists, and Sign in with Apple's revocations, where AuthenticationServices exists.
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
                await service.protectedDataDidBecomeAvailable()
                await service.checkAppleCredential()
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
                await service.checkAppleCredential()
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
