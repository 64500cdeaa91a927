import GatehouseFlows

/// Whom a request speaks for, as its authenticating middleware proved it: a signed-in user
/// (``Caller``) or an admin key (both by ``BearerAuthenticator``), or a console operator (by
/// ``ConsoleSessionMiddleware``, from the session cookie and the form's CSRF token).
///
/// The middleware puts it on ``AppRequestContext/identity``; the child context of the routes it
/// guards (``CallerRequestContext``, ``AdminRequestContext``, ``ConsoleRequestContext``) takes
/// it from there and refuses the request when it is missing or of another kind. It is opaque
/// outside the server: nothing but the authenticating middleware makes one.
public struct Principal: Sendable {
    enum Kind: Sendable {
        /// A user's access token, its session live and its user not banned.
        case user(Caller)
        /// A `service_role` (or `supabase_admin`) token.
        case admin(VerifiedAccess)
        /// A console operator's live console session, and the form a page posted (empty for a
        /// page asked for), its CSRF token checked.
        case consoleOperator(ConsoleOperator, form: ConsoleForm)
    }

    let kind: Kind
}
