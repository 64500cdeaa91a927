import GatehouseFlows
import GatehouseServerSupport
public import Hummingbird

/// The context of an admin route (`/admin/*`, `/invite`): the parent context with the verified
/// admin claims in it.
///
/// Built from ``AppRequestContext`` after ``BearerAuthenticator`` ran; a request without an admin
/// token never reaches the handler (401 `no_authorization`; a user's token is 403 `not_admin`
/// in the middleware already).
public struct AdminRequestContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The verified claims of the admin token.
    let admin: VerifiedAccess
    /// The client address for rate limits and the audit log (``AppRequestContext/clientKey``).
    let clientKey: String

    public init(context: AppRequestContext) throws {
        guard case .admin(let admin) = context.identity?.kind else { throw APIError.noAuthorization }
        self.coreContext = context.coreContext
        self.admin = admin
        self.clientKey = context.clientKey
    }

    /// The same body limit as every route (``AppRequestContext/maxUploadSize``).
    public var maxUploadSize: Int { AppRequestContext.uploadLimit }
}
