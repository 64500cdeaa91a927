import GatehouseFlows
import GatehouseServerSupport
public import Hummingbird

/// The context of a route for a signed-in user (`/user`, `/factors`, `/passkeys`, …): the parent
/// context with the verified ``Caller`` in it.
///
/// Built from ``AppRequestContext`` after ``BearerAuthenticator`` ran; a request without a user's
/// token never reaches the handler (401 `no_authorization`), so handlers read ``caller`` without
/// checking.
public struct CallerRequestContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The verified caller: the token's claims, its live session and its user.
    let caller: Caller
    /// The client address for rate limits and the audit log (``AppRequestContext/clientKey``).
    let clientKey: String

    public init(context: AppRequestContext) throws {
        guard case .user(let caller) = context.identity?.kind else { throw APIError.noAuthorization }
        self.coreContext = context.coreContext
        self.caller = caller
        self.clientKey = context.clientKey
    }

    /// The same body limit as every route (``AppRequestContext/maxUploadSize``).
    public var maxUploadSize: Int { AppRequestContext.uploadLimit }
}
