import GatehouseFlows
import GatehouseStorage
/// `/console/sign-in`: address, password and the authenticator app's code on one form; the
/// form carries the CSRF token of its own cookie.
enum ConsoleSignInPage {
    static func render(csrf: String, next: ConsoleReturnPath, problem: String?) -> HTML {
        let notice = problem.map { ConsoleLayout.notice($0, isError: true) } ?? .empty
        let content: HTML = """
            <section><form class="stack" method="post" action="/console/sign-in">
            <input type="hidden" name="csrf" value="\(csrf)">
            <input type="hidden" name="next" value="\(next.path)">
            <label>E-mail<input name="email" type="email" autocomplete="username" required></label>
            <label>Password<input name="password" type="password" autocomplete="current-password" required></label>
            <label>Code from your authenticator app<input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,8}" required></label>
            <button type="submit" id="sign-in">Sign in</button></form>
            <p class="muted">Operators are named by <code>gatehouse-server operator grant</code> and need a second factor (an authenticator app).</p></section>
            """
        return ConsoleLayout.page(title: "Sign in", operator: nil, notice: notice, content: content)
    }

    /// The page's words for a refused sign-in.
    static func message(_ refusal: ConsoleSignIn.Refusal) -> String {
        switch refusal {
        case .wrongCredentials: "Wrong e-mail or password."
        case .noFactor:
            "The console needs a second factor: enrol an authenticator app on your account (POST /factors), then sign in here."
        case .wrongCode: "Wrong or already used code: wait for your app's next code and try again."
        case .tooManyTries(let seconds): "Too many tries: wait \(seconds.map { "\($0) seconds" } ?? "a while") and try again."
        }
    }
}
