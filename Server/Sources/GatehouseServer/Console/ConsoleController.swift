import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// The console at `/console`: server-rendered pages for operators, working without script. Behind
/// ``ConsoleHeadersMiddleware`` (CSP and friends on every answer) and ``ConsoleGateMiddleware``
/// (404 until an operator exists); the sign-in page is open, every other page is behind
/// ``ConsoleSessionMiddleware`` (a live console session, and a CSRF token on each form).
/// Each action calls the admin API's flow with the operator as the audit line's actor (the
/// user page's: ``ConsoleUserActions``).
struct ConsoleController: Sendable {
    let storage: any AuthStorage
    let cookie: ConsoleCookie
    let secrets: ConsoleSecrets
    let sessions: ConsoleSessions
    let signIn: ConsoleSignIn
    /// Whether the sign-in page offers passkeys (`GATEHOUSE_WEBAUTHN_RP_ID` is set).
    let passkeysEnabled: Bool
    let lookup: AdminUserLookup
    /// The user page's forms (and the page they show again on a refusal).
    let actions: ConsoleUserActions
    let vault: SigningKeyVault
    let audit: AuditLog
    /// This instance's rate-limit refusals, for the overview.
    let refusals: RateLimitRefusals
    /// The operators' console-action budget (``ConsoleSessionMiddleware``).
    let rateLimits: RateLimits
    let now: @Sendable () -> Date

    func register(on router: Router<AppRequestContext>) {
        let console = router.group("console")
            .add(middleware: ConsoleHeadersMiddleware())
            .add(middleware: ConsoleGateMiddleware(storage: storage))
        console.get("style.css") { _, _ in ConsoleResponse.css() }
        console.get("time.js") { _, _ in ConsoleResponse.script(ConsoleScript.time) }
        console.get("passkey.js") { _, _ in ConsoleResponse.script(ConsoleScript.passkey) }
        console.get("sign-in") { request, _ in signInPage(next: ConsoleForm.query(request)[.next], problem: nil) }
        console.post("sign-in") { request, context in try await signIn(request, context: context) }
        console.post("sign-in/passkey/options") { request, context in
            try await passkeyOptions(request, context: context)
        }
        console.post("sign-in/passkey") { request, context in try await passkeySignIn(request, context: context) }

        let signedIn = console.group()
            .add(
                middleware: ConsoleSessionMiddleware(
                    sessions: sessions,
                    cookie: cookie,
                    rateLimits: rateLimits,
                    now: now
                )
            )
            .group(context: ConsoleRequestContext.self)
        signedIn.get { _, context in
            let page = ConsoleOverviewPage(storage: storage, lookup: lookup, refusals: refusals, now: now)
            return ConsoleResponse.html(try await page.render(operator: context.signedIn))
        }
        signedIn.post("sign-out") { request, context in
            if let token = cookie.value(.session, in: request) {
                try await sessions.signOut(token: token, ip: context.clientKey, audit: audit)
            }
            return ConsoleResponse.redirect(.signIn, cookies: [cookie.clearing(.session)])
        }
        signedIn.get("users") { request, context in
            let page = ConsoleUsersPage(storage: storage, lookup: lookup, now: now)
            return ConsoleResponse.html(try await page.render(ConsoleForm.query(request), operator: context.signedIn))
        }
        signedIn.get("users/:id") { request, context in
            let user = try await lookup.user(Self.uuid(context, "id"))
            let notice = ConsoleForm.query(request)[.done].flatMap(ConsoleNotice.init(rawValue:))
            let shown = notice.map { ConsoleLayout.notice($0.message) } ?? .empty
            return ConsoleResponse.html(try await actions.page.render(user, notice: shown, operator: context.signedIn))
        }
        actions.register(on: signedIn)
        signedIn.get("audit") { request, context in
            let page = ConsoleAuditPage(storage: storage)
            return ConsoleResponse.html(try await page.render(ConsoleForm.query(request), operator: context.signedIn))
        }
        signedIn.get("keys") { request, context in
            let notice = ConsoleForm.query(request)[.done].flatMap(ConsoleNotice.init(rawValue:))
            return try await keysPage(
                notice: notice.map { ConsoleLayout.notice($0.message) } ?? .empty,
                context: context
            )
        }
        signedIn.post("keys/rotate") { _, context in
            let signedIn = context.signedIn
            _ = try await SigningKeyAdmin.rotate(
                storage: storage,
                vault: vault,
                now: now(),
                actor: signedIn.user.id,
                ip: context.clientKey
            )
            return ConsoleResponse.redirect(
                ConsoleReturnPath(trusted: "/console/keys?done=\(ConsoleNotice.keyRotated.rawValue)")
            )
        }
        signedIn.post("keys/retire") { _, context in
            let signedIn = context.signedIn
            let kid = context.form[.kid] ?? ""
            do {
                try await SigningKeyAdmin.retire(
                    kid: kid,
                    storage: storage,
                    now: now(),
                    actor: signedIn.user.id,
                    ip: context.clientKey
                )
            } catch let error as SigningKeyAdmin.RetireError {
                return try await keysPage(
                    notice: ConsoleLayout.notice("Not retired: \(error.description).", isError: true),
                    status: .unprocessableContent,
                    context: context
                )
            }
            return ConsoleResponse.redirect(
                ConsoleReturnPath(trusted: "/console/keys?done=\(ConsoleNotice.keyRetired.rawValue)")
            )
        }
    }

    // MARK: - Sign-in

    private func signInPage(next: String?, problem: String?, status: HTTPResponse.Status = .ok) -> Response {
        // A fresh random value per page: the form's CSRF token is its MAC, the cookie holds it.
        let value = ConsoleSecrets.newToken()
        return ConsoleResponse.html(
            ConsoleSignInPage.render(
                csrf: secrets.csrf(for: value),
                next: ConsoleReturnPath(validating: next),
                problem: problem,
                passkeys: passkeysEnabled
            ),
            status: status,
            cookies: [cookie.setting(.signInForm, value, maxAge: 3600)]
        )
    }

    private func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await ConsoleForm.read(request, context: context)
        guard isSignInForm(form, request) else { return expiredSignInPage(form) }
        return try await signedIn(form) {
            try await signIn(
                email: form[.email] ?? "",
                password: form.raw(.password),
                code: form[.code] ?? "",
                ip: context.clientKey
            )
        }
    }

    /// `POST /console/sign-in/passkey/options`, from the sign-in page's script: the API's passkey
    /// request options (JSON), for a request carrying the sign-in form's CSRF token.
    private func passkeyOptions(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await ConsoleForm.read(request, context: context)
        guard isSignInForm(form, request) else { return expiredSignInPage(form) }
        do {
            return try JSONBody.response(try await signIn.passkeyOptions(ip: context.clientKey), request: request)
        } catch let refusal as ConsoleSignIn.Refusal {
            // No new form cookie: the page's form stays good for the operator's next try.
            let notice = ConsoleLayout.notice(ConsoleSignInPage.message(refusal), isError: true)
            return ConsoleResponse.html(
                ConsoleLayout.page(title: "Refused", operator: nil, content: notice),
                status: .tooManyRequests
            )
        }
    }

    /// `POST /console/sign-in/passkey`: the passkey form the script filled with the assertion
    /// (`challenge_id`, and `credential` as the JSON `PublicKeyCredential.toJSON()` gives), with
    /// the authenticator code the operator typed.
    private func passkeySignIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await ConsoleForm.read(request, context: context)
        guard isSignInForm(form, request) else { return expiredSignInPage(form) }
        let credential = try? JSONDecoder().decode(JSONValue.self, from: Data(form.raw(.credential).utf8))
        let body = PasskeyVerifyRequest(challengeID: form[.challengeID] ?? "", credential: credential ?? .null)
        return try await signedIn(form) {
            try await signIn(passkey: body, code: form[.code] ?? "", ip: context.clientKey)
        }
    }

    /// Whether `form` carries the CSRF token of the sign-in page's own cookie.
    private func isSignInForm(_ form: ConsoleForm, _ request: Request) -> Bool {
        secrets.isCSRF(form[.csrf], for: cookie.value(.signInForm, in: request))
    }

    private func expiredSignInPage(_ form: ConsoleForm) -> Response {
        signInPage(
            next: form[.next],
            problem: "This form has expired or did not come from the console: try again.",
            status: .forbidden
        )
    }

    /// Runs a sign-in: its cookie and the page it asked for, or the sign-in page with the refusal.
    private func signedIn(_ form: ConsoleForm, _ signingIn: () async throws -> String) async throws -> Response {
        let token: String
        do {
            token = try await signingIn()
        } catch let refusal as ConsoleSignIn.Refusal {
            let status: HTTPResponse.Status =
                switch refusal {
                case .tooManyTries: .tooManyRequests
                case .noFactor: .forbidden
                default: .badRequest
                }
            return signInPage(next: form[.next], problem: ConsoleSignInPage.message(refusal), status: status)
        }
        return ConsoleResponse.redirect(
            ConsoleReturnPath(validating: form[.next]),
            cookies: [
                cookie.setting(.session, token, maxAge: Int(ConsoleSessions.maximumAge)),
                cookie.clearing(.signInForm),
            ]
        )
    }

    // MARK: - Helpers

    private func keysPage(
        notice: HTML,
        status: HTTPResponse.Status = .ok,
        context: ConsoleRequestContext
    ) async throws -> Response {
        let page = ConsoleKeysPage(storage: storage)
        return ConsoleResponse.html(try await page.render(notice: notice, operator: context.signedIn), status: status)
    }

    static func uuid(_ context: some RequestContext, _ name: String) -> UUID? {
        context.parameters.get(name).flatMap(UUID.init(text:))
    }
}
