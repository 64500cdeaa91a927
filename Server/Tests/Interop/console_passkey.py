"""Drives Debian's headless Chromium through the console's passkey sign-in (issue 37), with a
virtual authenticator (the DevTools protocol's WebAuthn domain) standing in for the operator's
device: the operator registers a passkey through the API as users do (the browser creates it),
then signs in to the console with it and the code of the operator's authenticator app through
the page's own script, under the console's Content-Security-Policy. An authenticator that cannot
verify its user (no PIN, no biometrics) gets no console session, and neither does a
non-operator's passkey.

Usage: python3 console_passkey.py BASE_URL OPERATOR OPERATOR_ACCESS_TOKEN NON_OPERATOR_ACCESS_TOKEN SCREENSHOTS

BASE_URL is http://localhost:PORT, the server's WebAuthn origin (RP id `localhost`). The script
prints "CODE?" when it needs the operator's current authenticator code and reads it from its
standard input (the test owns the server's clock). Every wait is bounded; prints one line per step and a closing "N passed, N failed" line; exits non-zero on
failure.
"""

import json
import os
import signal
import sys
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

from steps import CHROMIUM, finish, step

BASE, OPERATOR, OPERATOR_TOKEN, NON_OPERATOR_TOKEN, SHOTS = sys.argv[1:6]
STEP_TIMEOUT_MS = 30_000
REFUSED = "This passkey did not sign you in"

signal.alarm(240)
os.makedirs(SHOTS, exist_ok=True)

# Creates a passkey in the page with the API's creation options (binary fields base64url) and
# returns the credential as PublicKeyCredential.toJSON() spells it. Run through DevTools, as a
# user's app would run its own code; the console's pages carry none of it.
CREATE = """
async (options) => {
  const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const publicKey = Object.assign({}, options, {
    challenge: bytes(options.challenge),
    user: Object.assign({}, options.user, { id: bytes(options.user.id) }),
    excludeCredentials: (options.excludeCredentials || []).map((c) => Object.assign({}, c, { id: bytes(c.id) })),
  });
  const credential = await navigator.credentials.create({ publicKey });
  return {
    id: credential.id, rawId: text(credential.rawId), type: credential.type,
    response: {
      clientDataJSON: text(credential.response.clientDataJSON),
      attestationObject: text(credential.response.attestationObject),
      transports: credential.response.getTransports(),
    },
    clientExtensionResults: {},
  };
}
"""


def ask_code():
    print("CODE?", flush=True)
    code = sys.stdin.readline().strip()
    assert len(code) == 6, f"no code: {code!r}"
    return code


def api(path, body, bearer):
    request = urllib.request.Request(
        f"{BASE}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {bearer}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])

    def device(verifies_user=True):
        """A browser profile with a platform authenticator that holds resident keys."""
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.set_default_timeout(STEP_TIMEOUT_MS)
        cdp = context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        authenticator = cdp.send(
            "WebAuthn.addVirtualAuthenticator",
            {
                "options": {
                    "protocol": "ctap2",
                    "transport": "internal",
                    "hasResidentKey": True,
                    "hasUserVerification": True,
                    "isUserVerified": True,
                    "automaticPresenceSimulation": True,
                }
            },
        )["authenticatorId"]
        return context, page, cdp, authenticator

    def register(page, bearer):
        page.goto(f"{BASE}/console/sign-in")
        status, options = api("/passkeys/registration/options", {}, bearer)
        assert status == 200, (status, options)
        credential = page.evaluate(CREATE, options["options"])
        status, answer = api(
            "/passkeys/registration/verify",
            {"challenge_id": options["challenge_id"], "credential": credential},
            bearer,
        )
        assert status == 200, (status, answer)

    def sign_in_with_passkey(page, code="000000"):
        page.goto(f"{BASE}/console/sign-in")
        page.fill("#passkey-form input[name=code]", code)
        page.click("#passkey-sign-in")

    operator_context, operator, operator_cdp, operator_authenticator = device()

    def operator_registers_a_passkey():
        register(operator, OPERATOR_TOKEN)
        credentials = operator_cdp.send("WebAuthn.getCredentials", {"authenticatorId": operator_authenticator})
        assert len(credentials["credentials"]) == 1, credentials

    def operator_signs_in_with_the_passkey():
        operator.goto(f"{BASE}/console/sign-in")
        # Shown by the script (CSP: script-src 'self'), hidden without it.
        assert operator.is_visible("#passkey-sign-in"), "the passkey button is hidden"
        operator.screenshot(path=os.path.join(SHOTS, "sign-in-passkey-desktop.png"), full_page=True)
        operator.fill("#passkey-form input[name=code]", ask_code())
        with operator.expect_navigation(url="**/console/users"):
            operator.click("#passkey-sign-in")
        assert OPERATOR in operator.content(), "the users page does not list the operator"
        cookies = {c["name"]: c for c in operator_context.cookies()}
        session = cookies.get("gatehouse-console")
        assert session and session["httpOnly"] and session["sameSite"] == "Strict", cookies

    def without_user_verification_no_session():
        context, page, cdp, authenticator = device()
        try:
            register(page, OPERATOR_TOKEN)
            # The same device, its PIN and biometrics gone: presence only.
            cdp.send("WebAuthn.setUserVerified", {"authenticatorId": authenticator, "isUserVerified": False})
            sign_in_with_passkey(page, ask_code())
            page.wait_for_function(
                "() => document.location.pathname !== '/console/users'"
                " && ((document.getElementById('passkey-problem') || {}).textContent"
                " || (document.querySelector('[role=status]') || {}).textContent || '').length > 0"
            )
            assert not [c for c in context.cookies() if c["name"] == "gatehouse-console"], context.cookies()
        finally:
            context.close()

    def without_javascript_the_password_form_remains():
        context = browser.new_context(java_script_enabled=False)
        try:
            page = context.new_page()
            page.set_default_timeout(STEP_TIMEOUT_MS)
            page.goto(f"{BASE}/console/sign-in")
            assert not page.is_visible("#passkey-sign-in"), "the passkey button shows without script"
            assert page.is_visible("#sign-in"), "no password form"
        finally:
            context.close()

    def non_operator_is_refused():
        context, page, _, _ = device()
        try:
            register(page, NON_OPERATOR_TOKEN)
            sign_in_with_passkey(page)
            page.wait_for_selector("[role=status]")
            assert REFUSED in (page.text_content("[role=status]") or ""), page.content()
            assert not [c for c in context.cookies() if c["name"] == "gatehouse-console"], context.cookies()
        finally:
            context.close()

    step("the operator registers a passkey through the API", operator_registers_a_passkey)
    step("the operator signs in to the console with it and a code", operator_signs_in_with_the_passkey)
    step("a passkey without user verification gets no console session", without_user_verification_no_session)
    step("a non-operator's passkey hears what a wrong passkey hears", non_operator_is_refused)
    step("without script the page is the password form", without_javascript_the_password_form_remains)
    operator_context.close()
    browser.close()

finish()
