import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// The one place where ``SensitiveActionPolicy`` is enforced: every flow that performs a
/// ``SensitiveAction`` asks ``authorize(_:_:evidence:ip:)`` first, and sends the owner's notice
/// through the answer (``SensitiveActionPermit``) once its change has committed.
///
/// In order: the assurance level (AAL2 whenever the user has a verified factor), the request
/// budget of the user on the client's network, then the proof the table names. A `nonce` that is
/// sent is always checked (and counted, in its own transaction, so a wrong one is counted though
/// the request fails: `security.md` OTP-5), even when the sign-in is recent.
struct SensitiveActionGuard: Sendable {
    let storage: any AuthStorage
    let codes: OneTimeCodes
    /// Counts sensitive requests per user and client network (``RateLimitBucket/sensitiveChanges``).
    let rateLimits: RateLimits
    /// Wrong tries after which a reauthentication code is dead.
    let maximumAttempts: Int
    /// Sends the notices.
    let delivery: CodeDelivery
    let now: @Sendable () -> Date

    /// What the caller offers besides its session.
    struct Evidence: Sendable {
        /// A reauthentication code from `GET /reauthenticate`.
        var nonce: String?
        /// Checks the caller's `current_password` (throws when it is wrong), for the actions that
        /// accept it.
        var currentPassword: (@Sendable () async throws -> Void)?
        /// The session that enrolled the factor being verified.
        var enrollingSession: UUID?

        init(
            nonce: String? = nil,
            currentPassword: (@Sendable () async throws -> Void)? = nil,
            enrollingSession: UUID? = nil
        ) {
            self.nonce = nonce
            self.currentPassword = currentPassword
            self.enrollingSession = enrollingSession
        }
    }

    /// Throws unless `caller` may perform `action` now; spends the action's budget.
    ///
    /// - Throws: 401/403/422 `insufficient_aal` (the status GoTrue gives the route), 429,
    ///   400 `reauthentication_needed`, 422 `reauthentication_not_valid`, 404 `mfa_factor_not_found`
    ///   (a factor enrolled in another session).
    func authorize(
        _ action: SensitiveAction,
        _ caller: Caller,
        evidence: Evidence = Evidence(),
        ip: String
    ) async throws -> SensitiveActionPermit {
        try await authorize([action], caller, evidence: evidence, ip: ip)
    }

    /// Throws unless `caller` may perform every one of `actions` in one request (a password and
    /// an address in one `PUT /user`): their budget is spent once, and one proof serves them all.
    func authorize(
        _ actions: [SensitiveAction],
        _ caller: Caller,
        evidence: Evidence = Evidence(),
        ip: String
    ) async throws -> SensitiveActionPermit {
        let rules = actions.map(SensitiveActionPolicy.rule(for:))
        let now = now()
        for action in actions { try Self.requireAssurance(for: action, caller) }
        // A sent code is always counted and checked, also beside a change that needs none.
        if rules.contains(where: { $0.budgets.contains(.sensitiveChanges) }) || evidence.nonce != nil {
            try await rateLimits.hit(.sensitiveChanges, key: Self.budgetKey(user: caller.user.id, client: ip), now: now)
        }
        if rules.contains(where: { $0.proof == .enrollingSession }), evidence.enrollingSession != caller.session.id {
            throw Self.enrolledElsewhere
        }
        // Whatever is sent is checked, even when the sign-in is recent.
        var proven = Self.isRecent(caller.session, at: now)
        if let nonce = evidence.nonce {
            try await consume(nonce, userID: caller.user.id, now: now)
            proven = true
        }
        if let needing = actions.first(where: { SensitiveActionPolicy.rule(for: $0).proof == .recentAuthentication }) {
            if let check = evidence.currentPassword, rules.contains(where: \.acceptsCurrentPassword) {
                try await check()
                // It proves the actions that accept it, and only when every action does.
                if rules.allSatisfy({ $0.proof != .recentAuthentication || $0.acceptsCurrentPassword }) {
                    proven = true
                }
            }
            if !proven, try await !hasNoWayIn(caller.user) {
                throw APIError(
                    .badRequest,
                    .reauthenticationNeeded,
                    "To \(needing.purpose) you need a sign-in within the last "
                        + "\(Int(SensitiveActionPolicy.recentAuthentication / 60)) minutes or a reauthentication "
                        + "code: call GET /reauthenticate and send the mailed code as nonce."
                )
            }
        }
        return SensitiveActionPermit(
            notices: rules.compactMap(\.notice),
            address: Self.confirmedAddress(of: caller.user),
            delivery: delivery
        )
    }

    /// The second step of an action whose first step was authorized (a passkey ceremony: the
    /// challenge issued with the options carries the proof, single-use, bound to the user, for 5
    /// minutes): the assurance level is checked again, nothing is spent.
    func continuing(_ action: SensitiveAction, _ caller: Caller) throws -> SensitiveActionPermit {
        try continuing(action, session: caller.session, user: caller.user)
    }

    /// ``continuing(_:_:)`` for a step that comes back without the bearer (a provider's callback
    /// linking the identity that `GET /user/identities/authorize` asked for): the session that
    /// asked, read again.
    func continuing(
        _ action: SensitiveAction,
        session: SessionRecord,
        user: UserRecord
    ) throws
        -> SensitiveActionPermit
    {
        try Self.requireAssurance(for: action, session: session, user: user)
        return SensitiveActionPermit(
            notices: SensitiveActionPolicy.rule(for: action).notice.map { [$0] } ?? [],
            address: Self.confirmedAddress(of: user),
            delivery: delivery
        )
    }

    /// Throws 401/403/422 `insufficient_aal` when the user has a verified factor and the session is
    /// not at AAL2 (the status is the table's for `action`). Flows that re-read the user inside
    /// their transaction call it again there.
    static func requireAssurance(for action: SensitiveAction, _ caller: Caller) throws {
        try requireAssurance(for: action, session: caller.session, user: caller.user)
    }

    /// ``requireAssurance(for:_:)`` for a session and its user.
    static func requireAssurance(for action: SensitiveAction, session: SessionRecord, user: UserRecord) throws {
        guard user.hasVerifiedFactor, session.aal != .aal2 else { return }
        throw APIError(
            SensitiveActionPolicy.rule(for: action).insufficientAAL,
            .insufficientAAL,
            "An AAL2 session is required to \(action.purpose): verify a code of your authenticator app first."
        )
    }

    /// Whether `factor` may be verified from `caller`'s session (``SensitiveActionPolicy/Proof/enrollingSession``);
    /// the verification checks it again inside its transaction.
    static func isEnrollingSession(_ factor: FactorRecord, of caller: Caller) -> Bool {
        factor.isVerified || factor.enrolledSessionID == caller.session.id
    }

    /// 404 `mfa_factor_not_found` for a factor another session enrolled.
    static let enrolledElsewhere = APIError(
        .notFound,
        .mfaFactorNotFound,
        "This factor was enrolled in another session: verify it there, or enrol a new one."
    )

    /// Whether the session's newest authentication (sign-in, code, second factor) is recent.
    static func isRecent(_ session: SessionRecord, at now: Date) -> Bool {
        let newest = Double(session.amr.map(\.timestamp).max() ?? 0)
        return now.timeIntervalSince1970 - newest <= SensitiveActionPolicy.recentAuthentication
    }

    /// Where the owner's notices go: the account's confirmed address, if it has one.
    private static func confirmedAddress(of user: UserRecord) -> String? {
        user.emailConfirmedAt != nil && !user.isAnonymous ? user.email : nil
    }

    /// The key of ``SensitiveActionPolicy/Budget/sensitiveChanges``: the user on the client's network.
    static func budgetKey(user: UUID, client: String) -> String {
        "\(user.key)|\(ClientAddress.limitKey(client))"
    }

    /// A guest with no way in besides its session: nothing to protect from the session's bearer.
    private func hasNoWayIn(_ user: UserRecord) async throws -> Bool {
        guard user.isAnonymous, SignInWays.count(user, passkeys: 0) == 0 else { return false }
        let passkeys = try await storage.read { try await $0.passkeys(userID: user.id) }.count
        return passkeys == 0
    }

    /// Consumes the reauthentication code in its own transaction (a miss is counted and committed).
    private func consume(_ nonce: String, userID: UUID, now: Date) async throws {
        let valid = try await storage.transaction { tx in
            try await codes.consumeReauthentication(
                nonce,
                userID: userID,
                maximumAttempts: maximumAttempts,
                in: tx,
                now: now
            )
        }
        guard valid else { throw OneTimeCodes.reauthenticationNotValid }
    }
}

/// A ``SensitiveActionGuard`` decision: the actions may go ahead. Inside the transaction of
/// their change, the flow calls ``queueNotices(_:in:now:)``, which queues the table's notices in
/// the mail outbox (``MailOutbox``) to the address the account had confirmed when the actions
/// were authorized, so the notices exist exactly when the change committed; after the commit,
/// ``sendQueuedNotices()`` wakes the sender.
struct SensitiveActionPermit: Sendable {
    let notices: [AccountNotice.Kind]
    let address: String?
    let delivery: CodeDelivery

    /// Queues the notices in `tx` (at `now`, by default the server's clock); `what` names the way
    /// in added or removed ("A passkey"). An address change is told to the old address when it
    /// completes (``EmailChange``), not here.
    func queueNotices(_ what: String? = nil, in tx: any StorageTransaction, now: Date? = nil) async throws {
        guard let address else { return }
        let now = now ?? delivery.now()
        for notice in notices where notice != .addressChanged {
            _ = try await delivery.notify(AccountNotice.mail(notice, to: address, what: what), in: tx, now: now)
        }
    }

    /// Wakes the mail sender for the notices ``queueNotices(_:in:now:)`` queued; call it after
    /// the commit.
    func sendQueuedNotices() {
        guard address != nil, notices.contains(where: { $0 != .addressChanged }) else { return }
        delivery.wakeSender()
    }
}
