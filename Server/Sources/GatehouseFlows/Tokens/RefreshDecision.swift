import Foundation
import GatehouseStorage

/// What a refresh-token grant does, decided from the session row, the presented token's counter
/// and the clock alone: no I/O, so every rule is tested without a database (SwiftNIO's state
/// machines that return actions). ``RefreshRotation`` reads the row, asks for the decision and
/// applies it.
///
/// The rules, in order:
/// 1. no session, or a token not minted for it: not found;
/// 2. a banned user: every session of the user ends;
/// 3. past the session's absolute lifetime, or unused longer than the inactivity timeout: the
///    session ends;
/// 4. the current token: rotate (the counter moves on);
/// 5. the direct parent (a lost response), or an older token within the reuse interval (a
///    concurrent refresh): answer with the current token, mint nothing;
/// 6. any other older token: reuse, so theft is assumed and the session ends;
/// 7. a counter beyond the current one was never issued: not found.
enum RefreshDecision: Equatable, Sendable {
    /// Why a token is answered with the current one instead of a new one.
    enum Replay: Equatable, Sendable {
        /// The token the current one replaced (the client lost the response).
        case directParent
        /// An older token presented within the reuse interval of the last rotation.
        case withinReuseInterval
        /// Another request rotated this very token first (it committed meanwhile).
        case concurrentRotation
    }

    /// Why a token is not found.
    enum Unknown: Equatable, Sendable {
        /// No session has the token's id (never existed, signed out, revoked or deleted).
        case noSession
        /// The token's MAC does not match the session (forged or from another secret).
        case notAuthentic
        /// The counter is beyond the current one: no such token was ever issued.
        case neverIssued
    }

    /// The session limits the decision applies (from ``ServerConfiguration``).
    struct Rules: Equatable, Sendable {
        /// Seconds after sign-in at which a session ends, however active.
        var lifetime: TimeInterval
        /// Seconds without a refresh after which a session ends.
        var inactivityTimeout: TimeInterval
        /// Seconds after a rotation within which an older token is answered with the current one.
        var reuseInterval: TimeInterval

        init(lifetime: TimeInterval, inactivityTimeout: TimeInterval, reuseInterval: TimeInterval) {
            self.lifetime = lifetime
            self.inactivityTimeout = inactivityTimeout
            self.reuseInterval = reuseInterval
        }

        init(_ configuration: ServerConfiguration) {
            self.init(
                lifetime: configuration.sessionLifetime,
                inactivityTimeout: configuration.sessionInactivityTimeout,
                reuseInterval: configuration.refreshReuseInterval
            )
        }
    }

    /// Rotate: move the counter on and answer with the next token.
    case rotate
    /// Answer with the current token; nothing changes.
    case answerCurrent(Replay)
    /// A used token came back outside the reuse interval: end the session.
    case revokeForReuse
    /// The session is past its absolute lifetime: end it.
    case expired
    /// The session went unused too long: end it.
    case inactive
    /// The user is banned: end every session of the user.
    case banned
    /// No live token matches.
    case notFound(Unknown)

    /// Decides a refresh.
    ///
    /// - Parameters:
    ///   - row: The session and its user, or `nil` when no session has the token's id.
    ///   - presented: The counter the presented token carries.
    ///   - isAuthentic: Whether the token's MAC matches the session (see ``RefreshTokenCodec``).
    ///   - now: The current time.
    ///   - rules: The session limits.
    /// - Returns: What to do.
    static func decide(
        row: (session: SessionRecord, user: UserRecord)?,
        presented: Int64,
        isAuthentic: Bool,
        now: Date,
        rules: Rules
    ) -> RefreshDecision {
        guard let (session, user) = row else { return .notFound(.noSession) }
        guard isAuthentic else { return .notFound(.notAuthentic) }
        if user.isBanned(at: now) { return .banned }
        if now.timeIntervalSince(session.createdAt) > rules.lifetime { return .expired }
        if now.timeIntervalSince(session.refreshedAt) > rules.inactivityTimeout { return .inactive }
        if presented == session.counter { return .rotate }
        if presented == session.counter - 1 { return .answerCurrent(.directParent) }
        if presented < session.counter {
            let withinReuse = session.rotatedAt.map { now.timeIntervalSince($0) <= rules.reuseInterval } ?? false
            return withinReuse ? .answerCurrent(.withinReuseInterval) : .revokeForReuse
        }
        return .notFound(.neverIssued)
    }

    /// Decides again after a ``rotate`` lost its conditional update to a concurrent request:
    /// that request's rotation has committed, so the fresh row shows its child.
    ///
    /// - Parameters:
    ///   - current: The session as read after the lost update, or `nil` when it is gone.
    ///   - presented: The counter the presented token carries.
    /// - Returns: The current token when the winner rotated exactly this token, otherwise not found.
    static func afterLostRotation(current: SessionRecord?, presented: Int64) -> RefreshDecision {
        guard let current else { return .notFound(.noSession) }
        return current.counter == presented + 1 ? .answerCurrent(.concurrentRotation) : .notFound(.neverIssued)
    }
}
