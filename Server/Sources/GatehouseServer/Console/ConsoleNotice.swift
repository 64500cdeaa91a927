/// What a form did, shown on the page it redirects to (`?done=`).
enum ConsoleNotice: String, Sendable {
    case banned, unbanned
    case sessionEnded = "session-ended"
    case sessionsEnded = "sessions-ended"
    case keyRotated = "key-rotated"
    case keyRetired = "key-retired"

    var message: String {
        switch self {
        case .banned: "The user is banned and all of their sessions ended."
        case .unbanned: "The ban is lifted."
        case .sessionEnded: "The session ended: its device is signed out at its next request."
        case .sessionsEnded: "Every session of the user ended."
        case .keyRotated: "A new signing key was added: it signs from the server's next start."
        case .keyRetired: "The key is retired: tokens it signed stop verifying at the next start."
        }
    }
}
