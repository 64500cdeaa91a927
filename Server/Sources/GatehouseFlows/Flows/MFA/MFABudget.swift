import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// The budgets of factor codes (`POST /factors/{id}/challenge` and `/verify`), kept so that no
/// one can spend the owner's (`security.md` SA-4, SA-5):
/// - per client network, a minute (`GATEHOUSE_RATE_LIMIT_MFA`, GoTrue's 15);
/// - per user on the client's network, an hour (`GATEHOUSE_RATE_LIMIT_MFA_PER_USER`): someone
///   who knows the password spends their own network's share, never the owner's;
/// - wrong codes per user, an hour (`GATEHOUSE_RATE_LIMIT_MFA_FAILURES_PER_USER`), whatever the
///   network: every guess is counted before its code is compared and given back when it was
///   right, so concurrent guesses never pass the budget together.
///
/// A session at AAL2 is never held back by any of them: it has proven the factor already.
struct MFABudget: Sendable {
    let rateLimits: RateLimits

    /// A guess counted against the user's wrong codes (``admitGuess(_:now:)``).
    struct Guess: Sendable {
        fileprivate let key: String
    }

    /// Counts a challenge or verify request (429 when a window is full).
    func admitRequest(_ caller: Caller, ip: String, now: Date) async throws {
        guard !MFAAccess.isAAL2(caller) else { return }
        try await rateLimits.hit(.mfa, key: ip, now: now)
        try await rateLimits.hit(.mfaUser, key: "\(caller.user.id.key)|\(ClientAddress.limitKey(ip))", now: now)
    }

    /// Counts a code against the user's wrong codes before it is compared (429 when they are
    /// spent); `nil` for an AAL2 session.
    func admitGuess(_ caller: Caller, now: Date) async throws -> Guess? {
        guard !MFAAccess.isAAL2(caller) else { return nil }
        let key = caller.user.id.key
        try await rateLimits.hit(.mfaFailures, key: key, now: now)
        return Guess(key: key)
    }

    /// Gives back a guess that was right.
    func refund(_ guess: Guess?, now: Date) async {
        guard let guess else { return }
        try? await rateLimits.release(.mfaFailures, key: guess.key, now: now)
    }
}
