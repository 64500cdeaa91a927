import Foundation

/// When the Sign in with Apple credential check asks Apple, as a value: one per
/// ``AuthService``, reset whenever the signed-in session changes (its generation).
///
/// - In a Simulator the check never asks unless the app opts in
///   (``AuthService/Configuration/checksAppleCredentialInSimulator``): Simulators of iOS 18 and
///   later answer `revoked` for everyone.
/// - An activation of the app asks at most once per
///   ``AuthService/Configuration/appleCredentialCheckInterval`` (15 minutes) for a session, and
///   never again after a failure that cannot pass (the app lacks the Sign in with Apple
///   capability, no Apple Account on the device), until the next sign-in.
/// - Launch, a user lookup that names the Apple identity, Apple's revocation notification and
///   an explicit ``AuthService/checkAppleCredential()`` always ask.
struct AppleCredentialCheckSchedule: Sendable, Equatable {
    /// What started a check.
    enum Trigger: Sendable, Equatable {
        /// The stored session was restored at launch.
        case launch
        /// A user lookup named the Apple identity of a session stored without it.
        case identityLearned
        /// The app became active.
        case activation
        /// Sign in with Apple posted `credentialRevokedNotification`.
        case revocationNotice
        /// The app called ``AuthService/checkAppleCredential()``.
        case request
    }

    /// Why a check did not ask.
    enum Skip: Sendable, Equatable {
        /// A Simulator, and the app did not opt in.
        case simulator
        /// An activation within the interval of the last question.
        case askedRecently
        /// An activation after a failure that cannot pass.
        case cannotPass
    }

    private var generation: Int?
    private var lastAskedAt: Date?
    private var failedForGood = false

    /// Why not to ask now, or `nil` to ask; a question is recorded as asked at `now`.
    mutating func skip(
        _ trigger: Trigger,
        generation: Int,
        now: Date,
        interval: Duration,
        skipsSimulator: Bool
    ) -> Skip? {
        if skipsSimulator { return .simulator }
        if generation != self.generation {
            self = AppleCredentialCheckSchedule()
            self.generation = generation
        }
        if trigger == .activation {
            if failedForGood { return .cannotPass }
            if let lastAskedAt, now.timeIntervalSince(lastAskedAt) < interval.seconds { return .askedRecently }
        }
        lastAskedAt = now
        return nil
    }

    /// Records a check that gave no answer; one that cannot pass stops activations from asking.
    mutating func recordFailure(_ error: AuthError, generation: Int) {
        guard generation == self.generation, !error.isRetryable else { return }
        failedForGood = true
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
