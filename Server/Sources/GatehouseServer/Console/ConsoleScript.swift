import GatehouseFlows

/// The console's scripts, served from its origin, so the Content-Security-Policy
/// (`default-src 'self'`, no inline script) admits them; each is an improvement only.
///
/// - `/console/time.js` shows every time (`<time datetime>`) in the operator's own time zone,
///   keeping the UTC text as the element's title; without it, every page shows UTC.
/// - `/console/passkey.js`, on the sign-in page, shows the passkey form when the browser has
///   WebAuthn; on submit it fetches request options (with the form's CSRF token), asks the
///   browser for an assertion (`navigator.credentials.get`, user verification required), puts
///   the challenge id and the credential (as `PublicKeyCredential.toJSON()` spells it) in the
///   form and posts it. Without it, the password form is the sign-in.
enum ConsoleScript {
    /// A script's address.
    enum Name: String, Sendable {
        case time, passkey

        var path: String { "/console/\(rawValue).js" }
    }

    static let time = """
        "use strict";
        document.addEventListener("DOMContentLoaded", function () {
          var format = new Intl.DateTimeFormat(undefined, {
            year: "numeric", month: "short", day: "numeric",
            hour: "2-digit", minute: "2-digit", timeZoneName: "short"
          });
          document.querySelectorAll("time[datetime]").forEach(function (element) {
            var date = new Date(element.getAttribute("datetime"));
            if (isNaN(date.getTime())) { return; }
            element.title = element.textContent;
            element.textContent = format.format(date);
          });
        });
        """
}

extension ConsoleScript {
    static let passkey = """
        "use strict";
        document.addEventListener("DOMContentLoaded", function () {
          var form = document.getElementById("passkey-form");
          if (!form || !window.PublicKeyCredential || !navigator.credentials) { return; }
          var problem = document.getElementById("passkey-problem");
          document.getElementById("passkey").hidden = false;
          function bytes(text) {
            var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
            while (base64.length % 4) { base64 += "="; }
            var binary = atob(base64), array = new Uint8Array(binary.length);
            for (var i = 0; i < binary.length; i++) { array[i] = binary.charCodeAt(i); }
            return array.buffer;
          }
          function text(buffer) {
            var array = new Uint8Array(buffer), binary = "";
            for (var i = 0; i < array.length; i++) { binary += String.fromCharCode(array[i]); }
            return btoa(binary).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
          }
          form.addEventListener("submit", function (event) {
            event.preventDefault();
            problem.textContent = "";
            var body = new URLSearchParams();
            body.append("csrf", form.elements.csrf.value);
            fetch("/console/sign-in/passkey/options", { method: "POST", body: body, credentials: "same-origin" })
              .then(function (answer) {
                if (!answer.ok) { throw new Error("options refused: " + answer.status); }
                return answer.json();
              })
              .then(function (answer) {
                var options = answer.options;
                form.elements.challenge_id.value = answer.challenge_id;
                return navigator.credentials.get({ publicKey: {
                  challenge: bytes(options.challenge),
                  rpId: options.rpId,
                  timeout: options.timeout,
                  userVerification: options.userVerification
                } });
              })
              .then(function (credential) {
                var response = credential.response;
                form.elements.credential.value = JSON.stringify({
                  id: credential.id,
                  rawId: text(credential.rawId),
                  type: credential.type,
                  response: {
                    clientDataJSON: text(response.clientDataJSON),
                    authenticatorData: text(response.authenticatorData),
                    signature: text(response.signature),
                    userHandle: response.userHandle ? text(response.userHandle) : null
                  },
                  clientExtensionResults: {}
                });
                form.submit();
              })
              .catch(function () {
                problem.textContent = "No passkey signed you in: try again, or use your password and code.";
              });
          });
        });
        """
}
