// Apple-only call sites in this file: KeychainSessionStore.standard(scope:) (the keychain on
// Apple platforms, Security framework) as the default store; elsewhere FileSessionStore.
import Foundation
public import Observation

/// Owns the signed-in session: restores it at launch, signs users in and out, keeps tokens
/// fresh, and publishes every change for SwiftUI (through Observation) and for other code
/// (through ``authStateChanges``).
///
/// Create one per app, at the entry point, and pass it to the view models that need it;
/// view models never create their own.
///
/// ```swift
/// @main
/// struct MyApp: App {
///     @State private var auth = AuthService(backend: GoTrueBackend(url: serverURL))
///     var body: some Scene {
///         WindowGroup { AuthGuardView(auth: auth) { _ in MainView() } signIn: { SignInView() } }
///     }
/// }
/// ```
///
/// Every operation updates ``operationStatus`` and ``authSession``'s error, so views need no
/// local loading or error state. The service guarantees:
/// - Restore is offline-first: ``restoreSession()`` publishes the stored session at once and
///   verifies it with the backend afterwards.
/// - Only definitive server answers (``AuthError/endsSession``) sign a user out; a network
///   failure or a locked store never does.
/// - ``signOut(scope:nonce:)`` never fails: it deletes the stored session first, publishes the
///   signed-out state, and only then tells the backend, best-effort. App data is not touched.
/// - Token refresh is single-flight, and a result that arrives after sign-out or after another
///   user signed in is dropped.
@Observable
@MainActor
public final class AuthService {
    /// The session lifecycle: `.notInitiated` at launch, `.loading` while restoring,
    /// `.success(user)` (`nil`: nobody signed in) or `.failure` when the store could not be read.
    public internal(set) var session: Loadable<User?> = .notInitiated

    /// The status of the current or last operation.
    public internal(set) var operationStatus: OperationStatus = .idle

    /// The error of the last failed operation; cleared when an operation starts.
    public internal(set) var operationError: AuthError?

    /// Whether the backend has confirmed the current session since it was restored or obtained.
    /// A restored session is usable before this turns `true` (offline-first).
    public internal(set) var isSessionVerified = false

    /// Why the session could not be saved, until a later save or delete succeeds. The session
    /// holds for this run, but a relaunch will not find it.
    public internal(set) var storageError: AuthError?

    /// Why the session ended without the user asking, when the app should say so: Sign in with
    /// Apple no longer authorizes the user (``ErrorCode/appleCredentialRevoked``). Cleared by
    /// the next sign-in.
    public internal(set) var sessionEndReason: AuthError?

    @ObservationIgnored let backend: any AuthBackend
    @ObservationIgnored let storeQueue: SessionStoreQueue
    @ObservationIgnored let configuration: Configuration
    @ObservationIgnored let events = EventBroadcaster()
    /// The tokens of the signed-in user.
    @ObservationIgnored var tokens: Session? {
        didSet { if assuranceLevel != tokens?.assuranceLevel { assuranceLevel = tokens?.assuranceLevel } }
    }

    /// The session's assurance level and the level the user's factors reach; `nil` when signed
    /// out. Below it, ``state`` is ``AuthState/secondFactorRequired(_:)``.
    public internal(set) var assuranceLevel: AssuranceLevel?
    /// Incremented whenever the signed-in session is replaced or ended; results of work started
    /// under an older generation are dropped.
    @ObservationIgnored var generation = 0
    @ObservationIgnored var refreshFlight: RefreshFlight?
    @ObservationIgnored var nextFlightID = 0
    @ObservationIgnored var verification: Task<Void, Never>?
    /// While a restore reads the store: the restores waiting to join it (`nil` when none runs).
    @ObservationIgnored var restoreWaiters: [CheckedContinuation<Void, Never>]?
    /// Whether this process has read the store (or written or cleared it after reading): only
    /// then may a sign-in replace what it holds.
    @ObservationIgnored var storeHasBeenRead = false
    @ObservationIgnored var lifecycleObservers: LifecycleObservers?
    /// The Sign in with Apple check in progress, joined by concurrent checks.
    @ObservationIgnored var appleCredentialCheck: Task<AppleCredentialState?, Never>?
    /// When the Sign in with Apple check last asked, and whether it failed for good.
    @ObservationIgnored var appleCredentialSchedule = AppleCredentialCheckSchedule()
    /// The passkey request in progress on this service's screens (one at a time, cancelled with
    /// its task): `PasskeyAuthorization` runs `ASAuthorizationController` through it.
    @ObservationIgnored let passkeyFlight = AuthorizationFlight<PasskeyAuthenticatorResponse>()
    /// Whether the app is in the background (``applicationDidEnterBackground()``), read by
    /// refreshes off the main actor while they wait for the refresh lock.
    nonisolated let backgroundState = Locked(false)

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - backend: The authentication provider.
    ///   - store: Where the session is kept; defaults to the keychain on Apple platforms (an
    ///     item named after the app's bundle identifier and the backend's
    ///     ``AuthBackend/sessionScope``) and a 0600 file under `~/.config/gatehouse` elsewhere.
    ///   - configuration: Refresh, verification, clock and logging settings.
    public init(
        backend: any AuthBackend,
        store: (any SessionStore)? = nil,
        configuration: Configuration = Configuration()
    ) {
        self.backend = backend
        self.storeQueue = SessionStoreQueue(store ?? Self.platformDefaultStore(scope: backend.sessionScope))
        self.configuration = configuration
        self.lifecycleObservers = LifecycleObservers.observe(self)
    }

    /// The store the session is kept in.
    public nonisolated var store: any SessionStore { storeQueue.store }

    /// The value a view reads: state, operation status and errors together.
    public var authSession: AuthSession {
        var session = AuthSession(
            state: state,
            operationStatus: operationStatus,
            error: operationError,
            storageError: storageError
        )
        session.operations = AuthOperations(service: self)
        return session
    }

    /// What a settings screen shows about the account: signed in, guest or signed out, with a
    /// masked identifier and whether the server has confirmed the session.
    public var accountStatus: AccountStatus {
        AccountStatus(session: session, isConfirmedByServer: isSessionVerified)
    }

    /// Who is signed in.
    public var state: AuthState { AuthState(session, assurance: assuranceLevel) }

    /// The signed-in user, guest or permanent.
    public var currentUser: User? { session.value ?? nil }

    /// Whether a user is signed in, guest or permanent.
    public var isSignedIn: Bool { currentUser != nil }

    /// Whether a permanent (non-guest) user is signed in completely. Guests, and users whose
    /// second factor is due, are signed in but not authenticated: check ``isSignedIn`` to
    /// include them.
    public var isAuthenticated: Bool { state.isAuthenticated }

    /// Whether the signed-in user is a guest.
    public var isAnonymous: Bool { currentUser?.isAnonymous ?? false }

    /// A new stream of session changes. It starts with ``AuthEvent/initialSession(_:)`` when the
    /// session is already known, and ends when the consumer stops iterating.
    public var authStateChanges: AsyncStream<AuthEvent> {
        events.subscribe(initial: session.value.map { AuthEvent.initialSession($0) })
    }

    /// Clears the error of the last operation and returns the status to idle.
    public func clearError() {
        operationError = nil
        if operationStatus == .error { operationStatus = .idle }
    }

    private static func platformDefaultStore(scope: String) -> any SessionStore {
        #if canImport(Security)
        return KeychainSessionStore.standard(scope: scope)
        #else
        return FileSessionStore()
        #endif
    }
}
