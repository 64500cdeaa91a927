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
        /// The label sign-ins send for this device ("Ada's iPhone"), which the user sees in the
        /// list of sessions (``AuthService/sessions()``); by default the host name or hardware
        /// model (``SignInDevice/platformDefault``). `nil` sends none.
        public var deviceName: String?
        /// Asks Sign in with Apple whether an Apple-linked user may stay signed in
        /// (``AuthService/checkAppleCredential()``): Apple's own answer on Apple platforms
        /// (``AppleCredentialStateProvider/platformDefault``), none elsewhere. `nil` never asks;
        /// set it so in a program without the Sign in with Apple entitlement of the team whose
        /// app signed the user in.
        public var appleCredentialState: AppleCredentialStateProvider?
        /// How long the check waits for Sign in with Apple; without an answer the session stays.
        public var appleCredentialCheckTimeout: Duration

        /// Creates a configuration.
        public init(
            refreshLeeway: TimeInterval = 60,
            verifiesRestoredSession: Bool = true,
            verificationRetryDelays: [Duration] = [.seconds(2), .seconds(10), .seconds(30), .seconds(120)],
            clock: AuthClock = .system,
            log: LogSink = .disabled,
            deviceName: String? = SignInDevice.platformDefault,
            appleCredentialState: AppleCredentialStateProvider? = .platformDefault,
            appleCredentialCheckTimeout: Duration = .seconds(10)
        ) {
            self.refreshLeeway = refreshLeeway
            self.verifiesRestoredSession = verifiesRestoredSession
            self.verificationRetryDelays = verificationRetryDelays
            self.clock = clock
            self.log = log
            self.deviceName = deviceName
            self.appleCredentialState = appleCredentialState
            self.appleCredentialCheckTimeout = appleCredentialCheckTimeout
        }
    }
}
