import Foundation
import GatehouseCore
package import GatehouseStorage
import HTTPTypes

/// The one table of sensitive actions (`security.md` §4b): for each ``SensitiveAction``, what the
/// caller must prove besides holding a live session, what the owner is told afterwards, and which
/// budgets the request spends. ``SensitiveActionGuard`` enforces it; `docs/security.md` prints it.
///
/// Every entry also needs AAL2 from a user who has a verified factor: a password alone never
/// changes the ways into an MFA account.
package enum SensitiveActionPolicy {
    /// What the caller proves besides a live session.
    enum Proof: Sendable, Equatable {
        /// Nothing more (the session's assurance level only).
        case none
        /// A sign-in (or second-factor verification) within ``recentAuthentication`` seconds, or a
        /// reauthentication code (`GET /reauthenticate`, sent as `nonce`). An account with no
        /// way in besides the session itself (a guest) has nothing to protect from its bearer and
        /// is exempt.
        case recentAuthentication
        /// The request comes from the session that enrolled the factor (whose enrolment proved
        /// a recent authentication), and the factor has not lapsed.
        case enrollingSession
        /// The operator role, and a session at AAL2: a first factor (the password, or a passkey,
        /// which this server accepts only with user verification) and then a verified factor's
        /// code in the same session. An operator without a verified factor is told to enrol one.
        /// Checked at sign-in and on every console request (``admitsOperator(_:isOperator:)``),
        /// so a factor removed, which drops the session to AAL1, ends the console session.
        case operatorAtAAL2
    }

    /// A budget a sensitive request spends.
    enum Budget: String, Sendable, CaseIterable {
        /// Sensitive requests per user and client network per 5 minutes
        /// (`GATEHOUSE_RATE_LIMIT_USER_UPDATE`), spent by ``SensitiveActionGuard`` before a
        /// `nonce` is checked; a thief's requests spend the thief's share, never the owner's.
        case sensitiveChanges = "sensitive_changes"
        /// `/token` requests per client network (the route's limit).
        case tokenRequests = "token_requests"
        /// Passkey ceremonies per client network (the route's limit).
        case passkeyCeremonies = "passkey_ceremonies"
        /// Factor codes: per client network, per user and network, and failures per user
        /// (``MFABudget``; never blocks an AAL2 session).
        case factorCodes = "factor_codes"
    }

    /// One entry of the table.
    struct Rule: Sendable, Equatable {
        var proof: Proof
        /// `current_password` stands in for a recent sign-in (password change only).
        var acceptsCurrentPassword = false
        /// The status of the `insufficient_aal` answer, as GoTrue answers each route (401
        /// `PUT /user`, 403 enrolment, 422 unenrolment); 422 for a sign-out of other sessions,
        /// which clients would take a 401 or 403 for "signed out already".
        var insufficientAAL: HTTPResponse.Status = .unauthorized
        /// The mail the account's confirmed address receives once the action has committed.
        var notice: AccountNotice.Kind?
        var budgets: [Budget] = [.sensitiveChanges]
    }

    /// How recent a sign-in must be to stand in for a reauthentication code (seconds).
    static let recentAuthentication: TimeInterval = 600

    /// The table.
    static func rule(for action: SensitiveAction) -> Rule {
        switch action {
        case .linkIdentity:
            Rule(proof: .recentAuthentication, notice: .wayInAdded, budgets: [.tokenRequests, .sensitiveChanges])
        case .registerPasskey:
            Rule(proof: .recentAuthentication, notice: .wayInAdded, budgets: [.passkeyCeremonies, .sensitiveChanges])
        case .renamePasskey:
            Rule(proof: .recentAuthentication)
        case .removePasskey:
            Rule(proof: .recentAuthentication, notice: .wayInRemoved)
        case .enrolFactor:
            Rule(proof: .recentAuthentication, insufficientAAL: .forbidden)
        case .verifyNewFactor:
            Rule(proof: .enrollingSession, notice: .wayInAdded, budgets: [.factorCodes])
        case .unenrolFactor:
            Rule(proof: .recentAuthentication, insufficientAAL: .unprocessableContent, notice: .wayInRemoved)
        case .unlinkIdentity:
            Rule(proof: .recentAuthentication, notice: .wayInRemoved)
        case .changePassword:
            Rule(proof: .recentAuthentication, acceptsCurrentPassword: true, notice: .passwordChanged)
        case .changeEmail:
            Rule(proof: .recentAuthentication, notice: .addressChanged)
        case .listSessions:
            Rule(proof: .none, budgets: [])
        case .endOtherSession:
            Rule(proof: .recentAuthentication)
        case .endOtherSessions:
            Rule(proof: .recentAuthentication, insufficientAAL: .unprocessableContent)
        case .deleteAccount:
            Rule(proof: .recentAuthentication, notice: .accountDeleted)
        case .consoleSignIn:
            // Each way spends its own first-factor window (a password `/token`'s, a passkey the
            // ceremonies'), and both the factor's code budgets.
            Rule(
                proof: .operatorAtAAL2,
                insufficientAAL: .forbidden,
                budgets: [.tokenRequests, .factorCodes, .passkeyCeremonies]
            )
        }
    }

    /// ``Proof/operatorAtAAL2``: whether `session`, of a user who holds the operator role or not,
    /// admits to the console. Both ways of signing in to the console ask it before issuing the
    /// console's cookie, and every console request asks it again of the session row the cookie
    /// is bound to (a factor removed drops that row to AAL1, which ends the console session).
    package static func admitsOperator(_ session: SessionRecord, isOperator: Bool) -> Bool {
        switch rule(for: .consoleSignIn).proof {
        case .operatorAtAAL2: isOperator && session.aal == .aal2
        case .none, .recentAuthentication, .enrollingSession: false
        }
    }
}
