import GatehouseFlows
import GatehouseStorage

/// `/console/sign-in`: address, password and the authenticator app's code on one form; when
/// passkeys are on, a passkey form with the code above it, hidden until `/console/passkey.js` finds WebAuthn in
/// the browser (without script, the password form is the page). Both forms carry the CSRF token of
/// the page's own cookie.
enum ConsoleSignInPage {
    static func render(csrf: String, next: ConsoleReturnPath, problem: String?, passkeys: Bool) -> HTML {
        let notice = problem.map { ConsoleLayout.notice($0, isError: true) } ?? .empty
        let passkey: HTML =
            passkeys
            ? """
            <section id="passkey" hidden><form class="stack" id="passkey-form" method="post" action="/console/sign-in/passkey">
            <input type="hidden" name="csrf" value="\(csrf)">
            <input type="hidden" name="next" value="\(next.path)">
            <input type="hidden" name="challenge_id" value="">
            <input type="hidden" name="credential" value="">
            <label>Code from your authenticator app<input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,8}" required></label>
            <button type="submit" id="passkey-sign-in">Sign in with a passkey</button>
            <p class="muted" id="passkey-problem" aria-live="polite"></p></form>
            <p class="muted">Or with your password and a code:</p></section>
            """
            : .empty
        let content: HTML = """
            \(passkey)<section><form class="stack" method="post" action="/console/sign-in">
            <input type="hidden" name="csrf" value="\(csrf)">
            <input type="hidden" name="next" value="\(next.path)">
            <label>E-mail<input name="email" type="email" autocomplete="username" required></label>
            <label>Password<input name="password" type="password" autocomplete="current-password" required></label>
            <label>Code from your authenticator app<input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,8}" required></label>
            <button type="submit" id="sign-in">Sign in</button></form>
            <p class="muted">Operators are named by <code>gatehouse-server operator grant</code> and sign in with their password or a passkey, and a second factor (an authenticator app's code).</p></section>
            """
        return ConsoleLayout.page(
            title: "Sign in",
            operator: nil,
            notice: notice,
            content: content,
            scripts: passkeys ? [.time, .passkey] : [.time]
        )
    }

    /// The page's words for a refused sign-in.
    static func message(_ refusal: ConsoleSignIn.Refusal) -> String {
        switch refusal {
        case .wrongCredentials: "Wrong e-mail or password."
        case .noFactor:
            "The console needs a second factor: enrol an authenticator app on your account (POST /factors), then sign in here."
        case .wrongCode: "Wrong or already used code: wait for your app's next code and try again."
        case .tooManyTries(let seconds):
            "Too many tries: wait \(seconds.map { "\($0) seconds" } ?? "a while") and try again."
        case .wrongPasskey:
            "This passkey did not sign you in: use an operator's passkey that asks for your PIN or biometrics, or your password."
        }
    }
}
