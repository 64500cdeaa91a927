import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import Hummingbird

/// The console's signed-in pages: the cookie must name a live console session
/// (``ConsoleSessions``); a page asked for without one is sent to the sign-in page (with the
/// page as `next`), a form posted without one is refused. Every form posted with one must carry
/// that session's CSRF token, and spends one of the operator's console actions
/// (``RateLimitBucket/consoleActions``; signing out spends none, so it never fails). The operator
/// (and the form) is put on ``AppRequestContext/identity`` for ``ConsoleRequestContext``.
struct ConsoleSessionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let sessions: ConsoleSessions
    let cookie: ConsoleCookie
    let rateLimits: RateLimits
    let now: @Sendable () -> Date

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let token = cookie.value(.session, in: request), let signedIn = try await sessions.signedIn(token: token)
        else {
            guard request.method == .get || request.method == .head else {
                throw APIError(.forbidden, .notSignedIn, "Your console session has ended: sign in again.")
            }
            let next = ConsoleReturnPath(validating: request.uri.path)
            let target =
                next == .users
                ? ConsoleReturnPath.signIn : ConsoleReturnPath(trusted: "/console/sign-in?next=\(next.path)")
            return ConsoleResponse.redirect(target, cookies: [cookie.clearing(.session)])
        }
        if request.method == .post {
            let form = try await ConsoleForm.read(request, context: context)
            guard ConstantTime.equal(form[.csrf] ?? "", signedIn.csrf) else {
                throw APIError(
                    .forbidden,
                    .notAdmin,
                    "This form has expired or did not come from the console: reload the page."
                )
            }
            if !request.uri.path.hasSuffix("/sign-out") { try await spendAction(of: signedIn) }
            var context = context
            context.identity = Principal(kind: .consoleOperator(signedIn, form: form))
            return try await next(request, context)
        }
        var context = context
        context.identity = Principal(kind: .consoleOperator(signedIn, form: ConsoleForm(fields: [])))
        return try await next(request, context)
    }

    /// Counts one form of `signedIn` against the operator's own budget; over it, 429 with
    /// `Retry-After` and nothing done.
    private func spendAction(of signedIn: ConsoleOperator) async throws {
        do {
            try await rateLimits.hit(.consoleActions, key: signedIn.user.id.key, now: now())
        } catch var error as APIError where error.status == .tooManyRequests {
            let wait = error.retryAfter.map { " Wait \($0) seconds, then send the form again." } ?? ""
            error.message = "Too many console actions in five minutes: nothing was done.\(wait)"
            throw error
        }
    }
}
