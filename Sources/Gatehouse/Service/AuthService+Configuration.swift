public import Foundation

extension AuthService {
    /// How an ``AuthService`` behaves; the defaults suit apps.
    public struct Configuration: Sendable {
        /// An access token this close to expiry (seconds) is refreshed before it is handed out.
        public var refreshLeeway: TimeInterval
        /// Whether ``AuthService/restoreSession()`` verifies the restored session with the
        /// backend afterwards (refreshing it when expired).
        public var verifiesRestoredSession: Bool
        /// Backoff between verification attempts that failed for a transient reason; when the
        /// list runs out, verification stops until the next restore or token request.
        public var verificationRetryDelays: [Duration]
        /// Time, injectable for tests.
        public var clock: AuthClock
        /// Diagnostics.
        public var log: LogSink
        /// The label sign-ins send for this device ("Ada's iPad"), which the user sees in the
        /// list of sessions (``AuthService/sessions()``); by default the hardware model, "Mac",
        /// or the host name on Linux (``SignInDevice/platformDefault``). `nil` sends none.
        public var deviceName: String?
        /// Asks Sign in with Apple whether the Apple ID that opened the session on this device
        /// still authorizes the app (``AuthService/checkAppleCredential()``): Apple's own answer
        /// on Apple platforms (``AppleCredentialStateProvider/platformDefault``), none elsewhere.
        /// `nil` never asks; set it so in a program without the Sign in with Apple entitlement
        /// of the team whose app signed the user in.
        public var appleCredentialState: AppleCredentialStateProvider?
        /// How long the check waits for Sign in with Apple; without an answer the session stays.
        public var appleCredentialCheckTimeout: Duration
        /// How often an activation of the app may ask Sign in with Apple again (15 minutes).
        public var appleCredentialCheckInterval: Duration
        /// Whether the check asks Sign in with Apple in a Simulator, which on iOS 18 and later
        /// answers `revoked` for everyone; off by default.
        public var checksAppleCredentialInSimulator: Bool
        /// The process the service runs in (Simulator, Preview, test run, extension).
        public var environment: ProcessEnvironment
        /// What a mistake in the app's setup does in a debug build (a Sign in with Apple without
        /// its authorization code): `assertionFailure`, except in tests and previews.
        public var developerAlarm: DeveloperAlarm
        /// The background time the cross-process refresh lock is held in (`RefreshLockHold`):
        /// by default the platform's (``ProcessEnvironment/backgroundActivity``).
        public var backgroundActivity: any BackgroundActivity

        /// Creates a configuration.
        public init(
            refreshLeeway: TimeInterval = 60,
            verifiesRestoredSession: Bool = true,
            verificationRetryDelays: [Duration] = [.seconds(2), .seconds(10), .seconds(30), .seconds(120)],
            clock: AuthClock = .system,
            log: LogSink = .disabled,
            deviceName: String? = SignInDevice.platformDefault,
            appleCredentialState: AppleCredentialStateProvider? = .platformDefault,
            appleCredentialCheckTimeout: Duration = .seconds(10),
            appleCredentialCheckInterval: Duration = .seconds(15 * 60),
            checksAppleCredentialInSimulator: Bool = false,
            environment: ProcessEnvironment = .current,
            developerAlarm: DeveloperAlarm = .standard,
            backgroundActivity: (any BackgroundActivity)? = nil
        ) {
            self.refreshLeeway = refreshLeeway
            self.verifiesRestoredSession = verifiesRestoredSession
            self.verificationRetryDelays = verificationRetryDelays
            self.clock = clock
            self.log = log
            self.deviceName = deviceName
            self.appleCredentialState = appleCredentialState
            self.appleCredentialCheckTimeout = appleCredentialCheckTimeout
            self.appleCredentialCheckInterval = appleCredentialCheckInterval
            self.checksAppleCredentialInSimulator = checksAppleCredentialInSimulator
            self.environment = environment
            self.developerAlarm = developerAlarm
            self.backgroundActivity = backgroundActivity ?? environment.backgroundActivity
        }
    }
}
