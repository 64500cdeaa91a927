import Foundation
import GatehouseFlows
import GatehouseStorage

/// The operator of a console request, as ``ConsoleSessions`` found them: their user, the
/// session row their console sign-in opened (AAL2, or signed in with a passkey), and the CSRF
/// token of this console session's forms.
struct ConsoleOperator: Sendable {
    var user: UserRecord
    var session: SessionRecord
    /// The hash of the cookie's token (the console session's key).
    var tokenHash: String
    /// The token every form of this console session carries.
    var csrf: String
}
