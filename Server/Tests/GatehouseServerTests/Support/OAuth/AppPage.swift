import Foundation
import Hummingbird
import Logging
import NIOCore

/// A web app's page on loopback for the browser tests (issue 36): buttons that start a sign-in
/// with each provider (a PKCE verifier made with the browser's own crypto, kept in
/// `sessionStorage`), a field that asks the server for an e-mailed link (with a challenge too),
/// and, when the browser comes back with `?code=`, the exchange (`grant_type=pkce`) and
/// `GET /user`, whose answer the page shows in `#status`: "signed in as <address> with <providers>".
final class AppPage: Sendable {
    let port: Int
    private let server: LoopbackApp

    var origin: String { "http://127.0.0.1:\(port)" }
    var url: String { origin + "/app" }

    /// Serves the page on `port` (chosen by the caller: the server's CORS list names the origin).
    init(port: Int, server: String, providers: [String]) async throws {
        self.port = port
        let html = Self.html(server: server, providers: providers)
        let router = Router()
        router.get("app") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: html))
            )
        }
        self.server = try await LoopbackApp(router: router, label: "app-page", port: port)
    }

    func stop() async {
        await server.stop()
    }

    static func html(server: String, providers: [String]) -> String {
        let buttons = providers.map {
            #"<button id="signin-\#($0)" onclick="start('\#($0)')">Sign in with \#($0)</button>"#
        }.joined(separator: "\n")
        return """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>The app</title></head>
            <body>
            <p id="status">signed out</p>
            \(buttons)
            <p><input id="email" type="email"> <button id="send-link" onclick="sendLink()">E-mail me a link</button></p>
            <script>
            const SERVER = \(try! String(decoding: JSONSerialization.data(withJSONObject: [server]), as: UTF8.self))[0];
            const APP = location.origin + "/app";
            const status = (text) => { document.getElementById("status").textContent = text; };
            const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
                .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
            async function challenge() {
                const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
                sessionStorage.setItem("verifier", verifier);
                return b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
            }
            async function start(provider) {
                const query = new URLSearchParams({
                    provider, redirect_to: APP, code_challenge: await challenge(), code_challenge_method: "s256",
                });
                location.href = SERVER + "/authorize?" + query;
            }
            async function sendLink() {
                const body = {
                    email: document.getElementById("email").value,
                    code_challenge: await challenge(), code_challenge_method: "s256",
                };
                const answer = await fetch(SERVER + "/otp?redirect_to=" + encodeURIComponent(APP), {
                    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
                });
                status(answer.ok ? "link sent" : "error " + answer.status);
            }
            async function finish() {
                const query = new URLSearchParams(location.search);
                if (query.get("error")) { status("error " + query.get("error_code")); return; }
                const code = query.get("code");
                if (!code) return;
                history.replaceState(null, "", APP);
                const verifier = sessionStorage.getItem("verifier");
                sessionStorage.removeItem("verifier");
                const answer = await fetch(SERVER + "/token?grant_type=pkce", {
                    method: "POST", headers: {"Content-Type": "application/json"},
                    body: JSON.stringify({auth_code: code, code_verifier: verifier || ""}),
                });
                const session = await answer.json();
                if (!answer.ok) { status("error " + (session.error_code || session.code)); return; }
                const user = await (await fetch(SERVER + "/user", {
                    headers: {Authorization: "Bearer " + session.access_token},
                })).json();
                const providers = (user.identities || []).map((identity) => identity.provider).join(",");
                status("signed in as " + user.email + " with " + providers);
            }
            finish().catch((error) => status("error " + error));
            </script>
            </body></html>
            """
    }
}
