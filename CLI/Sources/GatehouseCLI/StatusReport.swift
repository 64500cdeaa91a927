public import Foundation
import Gatehouse

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

    /// Creates a report.
    public init(
        server: String,
        signedIn: Bool,
        guest: Bool,
        userID: String?,
        email: String?,
        accessTokenExpiresAt: Date?,
        verified: Bool,
        error: String? = nil
    ) {
        self.server = server
        self.signedIn = signedIn
        self.guest = guest
        self.userID = userID
        self.email = email
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.verified = verified
        self.error = error
    }

    enum CodingKeys: String, CodingKey {
        case server, guest, email, verified, error
        case signedIn = "signed_in"
        case userID = "user_id"
        case accessTokenExpiresAt = "access_token_expires_at"
    }

    /// Human-readable lines.
    public func text(now: Date = Date()) -> String {
        guard signedIn else {
            if let error { return "Session for \(server) could not be read: \(error)" }
            return "Not signed in to \(server).\nRun `gatehouse login` to sign in."
        }
        var lines = ["Signed in to \(server) as \(email ?? "a guest")\(guest ? " (guest)" : "")"]
        if let userID { lines.append("  user id:  \(userID)") }
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
