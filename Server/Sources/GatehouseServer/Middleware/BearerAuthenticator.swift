import GatehouseFlows
import Hummingbird
import HummingbirdAuth

/// The one authenticating middleware: verifies the request's bearer token for the kind of route
/// it guards and puts whom it speaks for on ``AppRequestContext/identity``.
///
/// A request without a bearer token passes on without an identity, and the route's child context
/// (``CallerRequestContext``, ``AdminRequestContext``) refuses it with 401 `no_authorization`. A
/// token that does not verify is refused here (403 `bad_jwt`, `session_not_found`,
/// `user_banned`, `not_admin`: ``Authenticator``).
struct BearerAuthenticator: AuthenticatorMiddleware {
    typealias Context = AppRequestContext
    typealias Identity = Principal

    /// Which tokens a group of routes takes.
    enum Audience: Sendable {
        /// A user's access token with a live session.
        case signedInUser
        /// A `service_role` (or `supabase_admin`) token.
        case admin
    }

    let authenticator: Authenticator
    let audience: Audience

    func authenticate(request: Request, context: Context) async throws -> Principal? {
        guard let bearer = BearerToken.find(in: request) else { return nil }
        switch audience {
        case .signedInUser: return Principal(kind: .user(try await authenticator.caller(bearer: bearer)))
        case .admin: return Principal(kind: .admin(try await authenticator.admin(bearer: bearer)))
        }
    }
}
