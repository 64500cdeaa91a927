import Dependencies
import Foundation
public import Gatehouse
import IssueReporting
public import Sharing

/// The `SharedKey` behind `@Shared(.gatehouseAuth)` and `@SharedReader(.gatehouseAuth)`: the
/// app's ``Gatehouse/AuthSession``, updated on the main actor whenever its ``Gatehouse/AuthService``
/// changes.
///
/// Auth state changes only through operations (`$auth.signInAsGuest()` and the others), never
/// through writes: a write to the shared value is ignored, the service's value comes back,
/// and debug builds report it.
public struct GatehouseAuthKey: SharedKey {
    public typealias Value = AuthSession

    /// The key's identity: one shared value per service.
    public struct ID: Hashable, Sendable {
        let service: ObjectIdentifier?
    }

    private let service: AuthService?
    private let feed = Feed()

    /// A key for `service`, or for the app's ``Dependencies/DependencyValues/gatehouseAuthService``
    /// when `nil`.
    public init(service: AuthService? = nil) {
        @Dependency(\.gatehouseAuthService) var configured
        self.service = service ?? configured
    }

    public var id: ID { ID(service: service.map(ObjectIdentifier.init)) }

    public func load(context: LoadContext<AuthSession>, continuation: LoadContinuation<AuthSession>) {
        guard let service else {
            reportIssue(Self.missingService)
            continuation.resumeReturningInitialValue()
            return
        }
        service.withAuthSession { continuation.resume(returning: $0) }
    }

    public func subscribe(
        context: LoadContext<AuthSession>,
        subscriber: SharedSubscriber<AuthSession>
    ) -> SharedSubscription {
        guard let service else { return SharedSubscription {} }
        let observation = service.subscribeToAuthSession { subscriber.yield($0) }
        feed.attach(observation)
        return SharedSubscription {
            observation.cancel()
        }
    }

    public func save(_ value: AuthSession, context: SaveContext, continuation: SaveContinuation) {
        #if DEBUG
        reportIssue(
            """
            A write to @Shared(.gatehouseAuth) was ignored: auth state changes only through its \
            operations ($auth.signInAsGuest(), $auth.signOut(), …).
            """
        )
        #endif
        continuation.resume()
        feed.redeliver()
    }

    static let missingService = """
        @Shared(.gatehouseAuth) has no AuthService: set it once at launch with \
        `prepareDependencies { $0.gatehouseAuthService = auth }`, or use `.gatehouseAuth(auth)`.
        """
}

extension GatehouseAuthKey {
    /// The observation that feeds the shared value, so that an ignored write can be undone.
    final class Feed: @unchecked Sendable {
        // `Mutex` needs iOS 18; a lock keeps the package's iOS 17.
        private let lock = NSLock()
        private var observation: AuthSessionObservation?

        func attach(_ observation: AuthSessionObservation) {
            lock.withLock { self.observation = observation }
        }

        func redeliver() {
            lock.withLock { observation }?.redeliver()
        }
    }
}

extension GatehouseAuthKey: CustomStringConvertible {
    public var description: String { ".gatehouseAuth" }
}
