import GatehouseFlows
import GatehouseStorage

/// What a form did, shown on the page it redirects to (`?done=`).
enum ConsoleNotice: String, Sendable {
    case banned, unbanned
    case sessionEnded = "session-ended"
    case sessionsEnded = "sessions-ended"
    case keyRotated = "key-rotated"
    case keyRetired = "key-retired"
    case factorRemoved = "factor-removed"
    case passkeyRemoved = "passkey-removed"
    case recoverySent = "recovery-sent"
    case confirmationResent = "confirmation-resent"
    case userDeleted = "user-deleted"

    var message: String {
        switch self {
        case .banned: "The user is banned and all of their sessions ended."
        case .unbanned: "The ban is lifted."
        case .sessionEnded: "The session ended: its device is signed out at its next request."
        case .sessionsEnded: "Every session of the user ended."
        case .keyRotated: "A new signing key was added: it signs from the server's next start."
        case .keyRetired: "The key is retired: tokens it signed stop verifying at the next start."
        case .factorRemoved: "The factor is removed: sessions that relied on it are back to AAL1."
        case .passkeyRemoved: "The passkey is removed: it no longer signs the user in."
        case .recoverySent: "A recovery code is on its way to the user's address."
        case .confirmationResent: "The confirmation is on its way to the user's address again."
        case .userDeleted: "The account is deleted, with its identities, factors, passkeys and sessions."
        }
    }
}
