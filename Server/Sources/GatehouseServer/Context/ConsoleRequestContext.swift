import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
public import Hummingbird

/// The context of the console's signed-in pages: the parent context with the operator and the
/// posted form in it.
///
/// Built from ``AppRequestContext`` after ``ConsoleSessionMiddleware`` ran (which sends a page
/// asked for without a console session to the sign-in page), so handlers read ``signedIn`` and
/// ``form`` without checking.
public struct ConsoleRequestContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The operator signed in to the console.
    let signedIn: ConsoleOperator
    /// The form the page posted, its CSRF token checked; empty for a page asked for.
    let form: ConsoleForm
    /// The client address for rate limits and the audit log (``AppRequestContext/clientKey``).
    let clientKey: String

    public init(context: AppRequestContext) throws {
        guard case .consoleOperator(let signedIn, let form) = context.identity?.kind else {
            throw APIError(.forbidden, .notSignedIn, "Sign in to the console.")
        }
        self.coreContext = context.coreContext
        self.signedIn = signedIn
        self.form = form
        self.clientKey = context.clientKey
    }

    /// The same body limit as every route (``AppRequestContext/maxUploadSize``).
    public var maxUploadSize: Int { AppRequestContext.uploadLimit }
}
