public import Foundation
public import Gatehouse

/// What `gatehouse status` and `gatehouse whoami` report, as text or JSON.
public struct StatusReport: Sendable, Equatable, Encodable {
    public var server: String
    public var signedIn: Bool
    public var guest: Bool
    public var userID: String?
    public var email: String?
    public var accessTokenExpiresAt: Date?
    public var verified: Bool
    /// Why the session could not be read, when it could not.
    public var error: String?
    /// The account status a settings screen shows (the SDK's ``AccountStatus``).
    public var account: AccountStatus?
    /// The session's assurance level (`aal1`, or `aal2` after an authenticator app's code) and
    /// the level the user's factors reach.
    public var assuranceLevel: AssuranceLevel?

    /// Creates a report.
    public init(
        server: String,
        signedIn: Bool,
        guest: Bool,
        userID: String?,
        email: String?,
        accessTokenExpiresAt: Date?,
        verified: Bool,
        error: String? = nil,
        account: AccountStatus? = nil,
        assuranceLevel: AssuranceLevel? = nil
    ) {
        self.server = server
        self.signedIn = signedIn
        self.guest = guest
        self.userID = userID
        self.email = email
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.verified = verified
        self.error = error
        self.account = account
        self.assuranceLevel = assuranceLevel
    }

    enum CodingKeys: String, CodingKey {
        case server, guest, email, verified, error
        case signedIn = "signed_in"
        case userID = "user_id"
        case accessTokenExpiresAt = "access_token_expires_at"
        case account = "account_status"
        case aal
        case nextAAL = "next_aal"
        case secondFactorRequired = "second_factor_required"
    }

    private enum AccountKeys: String, CodingKey {
        case kind, summary
        case maskedIdentifier = "masked_identifier"
        case confirmedByServer = "confirmed_by_server"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(server, forKey: .server)
        try container.encode(signedIn, forKey: .signedIn)
        try container.encode(guest, forKey: .guest)
        try container.encodeIfPresent(userID, forKey: .userID)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encodeIfPresent(accessTokenExpiresAt, forKey: .accessTokenExpiresAt)
        try container.encode(verified, forKey: .verified)
        try container.encodeIfPresent(error, forKey: .error)
        if let assuranceLevel {
            try container.encode(assuranceLevel.current.rawValue, forKey: .aal)
            try container.encode(assuranceLevel.next.rawValue, forKey: .nextAAL)
            try container.encode(assuranceLevel.isSecondFactorRequired, forKey: .secondFactorRequired)
        }
        if let account {
            var nested = container.nestedContainer(keyedBy: AccountKeys.self, forKey: .account)
            try nested.encode(account.kind.rawValue, forKey: .kind)
            try nested.encodeIfPresent(account.maskedIdentifier, forKey: .maskedIdentifier)
            try nested.encode(account.isConfirmedByServer, forKey: .confirmedByServer)
            try nested.encode(account.summary, forKey: .summary)
        }
    }

    /// The exit status `gatehouse status` ends with: `nil` (0) when signed in, ``CLIError/ExitStatus/notSignedIn``
    /// when nobody is, ``CLIError/ExitStatus/failure`` when the stored session could not be read.
    public var exitStatus: CLIError.ExitStatus? {
        if signedIn { return nil }
        return error == nil ? .notSignedIn : .failure
    }

    /// Human-readable lines.
    public func text(now: Date = Date()) -> String {
        guard signedIn else {
            if let error { return "Session for \(server) could not be read: \(error)" }
            return "Not signed in to \(server).\nRun `gatehouse login` to sign in."
        }
        var lines = ["Signed in to \(server) as \(email ?? "a guest")\(guest ? " (guest)" : "")"]
        if let account { lines.append("  account:  \(account.summary)") }
        if let userID { lines.append("  user id:  \(userID)") }
        if let assuranceLevel {
            lines.append(
                assuranceLevel.isSecondFactorRequired
                    ? "  level:    aal1, two-factor code due: run `gatehouse mfa verify`"
                    : "  level:    \(assuranceLevel.current.rawValue)\(assuranceLevel.current == .aal2 ? " (two-factor)" : "")"
            )
        }
        if let accessTokenExpiresAt {
            let seconds = Int(accessTokenExpiresAt.timeIntervalSince(now))
            lines.append(
                seconds > 0
                    ? "  token:    expires in \(seconds / 60) min \(seconds % 60) s"
                    : "  token:    expired (refreshed on next use)"
            )
        }
        lines.append("  verified: \(verified ? "yes" : "no (server not reached; using the stored session)")")
        return lines.joined(separator: "\n")
    }
}
