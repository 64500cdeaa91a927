import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// Whether a code may be mailed, decided on the request path before the code is issued, so that
/// over a budget the requester is told (429 `over_email_send_rate_limit` with `Retry-After`) and
/// the code already out stays valid (`security.md` SA-4). The budgets are kept so that no one
/// spends the owner's:
/// - requests for one address from one client network an hour
///   (`GATEHOUSE_RATE_LIMIT_EMAIL_PER_ADDRESS_CLIENT`), under a larger cap for the address from
///   every network (`GATEHOUSE_RATE_LIMIT_EMAIL_PER_ADDRESS`): someone mailing the owner's address
///   spends their own network's share first;
/// - mails to confirmed addresses (`GATEHOUSE_RATE_LIMIT_EMAIL_SENT`) and to addresses never
///   confirmed (`GATEHOUSE_RATE_LIMIT_EMAIL_SENT_UNCONFIRMED`, smaller) for the whole server, each
///   its own: sign-ups of fresh addresses cannot starve sign-in and recovery mail;
/// - sign-up mails per client network (`GATEHOUSE_RATE_LIMIT_SIGNUP_EMAIL`, below the server's).
///
/// Requests for an address no account has count like any other (the answer must not tell them
/// apart) but spend no server budget: no mail goes out.
struct MailBudget: Sendable {
    let rateLimits: RateLimits

    /// The recipient as the request found it.
    enum Recipient: Sendable, Equatable {
        /// An account's confirmed address.
        case confirmed
        /// An address no one has confirmed: a pending sign-up, a new address, an invitation.
        case unconfirmed
        /// No account has the address: nothing will be sent.
        case unknown

        /// The recipient an account (or none) makes of its address.
        init(_ user: UserRecord?) {
            guard let user else {
                self = .unknown
                return
            }
            self = user.emailConfirmedAt != nil && !user.isAnonymous ? .confirmed : .unconfirmed
        }
    }

    /// What a mail is for, where that changes its budgets.
    enum Kind: Sendable, Equatable {
        /// A new account's (or a repeated sign-up's) confirmation: counts against the client's
        /// sign-up mails too.
        case signUp
        case other
    }

    /// A mail the budgets admitted: ``CodeDelivery`` issues a code only with one.
    struct Admission: Sendable, Equatable {
        /// The recipient's address.
        let address: String
        /// The server budget it was charged to (`nil`: nothing will be sent).
        fileprivate let pool: RateLimitBucket?
    }

    /// Counts a mail to `address` (normalized) requested by `client`.
    ///
    /// - Throws: 429 `over_email_send_rate_limit` with the longest wait of the full windows;
    ///   nothing is counted then.
    func admit(_ address: String, recipient: Recipient, kind: Kind, client: String, now: Date) async throws -> Admission
    {
        let network = ClientAddress.limitKey(client)
        var windows: [(bucket: RateLimitBucket, key: String)] = [
            (.emailRecipientClient, "\(address)|\(network)"),
            (.emailRecipient, address),
        ]
        if kind == .signUp { windows.append((.signupEmail, network)) }
        let pool: RateLimitBucket = recipient == .unconfirmed ? .emailSentUnconfirmed : .emailSent
        // Every window is looked at before any is counted: a refused request spends nothing.
        var waits: [Int] = []
        for (bucket, key) in windows + [(pool, Self.serverKey)] {
            if let wait = try await rateLimits.isLimited(bucket, key: key, now: now) { waits.append(wait) }
        }
        if let wait = waits.max() { throw CodeDelivery.overSendLimit(wait) }
        // A window filled meanwhile by a concurrent request still refuses this one.
        let charged = recipient == .unknown ? windows : windows + [(pool, Self.serverKey)]
        do {
            for (bucket, key) in charged { try await rateLimits.hit(bucket, key: key, now: now) }
        } catch let error as APIError where error.retryAfter != nil {
            throw CodeDelivery.overSendLimit(error.retryAfter ?? 60)
        }
        return Admission(address: address, pool: recipient == .unknown ? nil : pool)
    }

    /// Gives back the server budget of an admitted mail that was not sent after all (a code
    /// held back by the send spacing).
    func release(_ admission: Admission, now: Date) async {
        guard let pool = admission.pool else { return }
        try? await rateLimits.release(pool, key: Self.serverKey, now: now)
    }

    /// The key of the server's own windows.
    private static let serverKey = "server"
}
