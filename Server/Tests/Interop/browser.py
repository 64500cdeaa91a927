"""Drives a real browser, Debian's headless Chromium through Playwright, through Gatehouse's
sign-ins: the app's page → the server's /authorize → the provider's consent page (a click on
"Allow") → /callback → the app's page with ?code= → the page's own exchange (grant_type=pkce)
→ "signed in as …"; and the e-mail PKCE flow, whose mailed link the browser opens.

Usage: python3 browser.py APP_URL EMAIL PROVIDER...

For the e-mail flow the script prints "LINK? <address> <count>" and reads the newest link mailed
to the address (after <count> earlier ones) from its standard input, one line. Every wait is
bounded; prints one line per step and a closing "N passed, N failed" line; exits non-zero on
failure.
"""

import signal
import sys

from playwright.sync_api import sync_playwright

from steps import CHROMIUM, finish, step

APP, EMAIL = sys.argv[1], sys.argv[2]
PROVIDERS = sys.argv[3:]
STEP_TIMEOUT_MS = 30_000

# The whole run is bounded, whatever the browser does.
signal.alarm(300)


def status_of(page, prefix):
    page.wait_for_function(
        "(prefix) => { const s = document.getElementById('status'); "
        "return s && s.textContent.startsWith(prefix) || (s && s.textContent.startsWith('error')); }",
        arg=prefix,
    )
    return page.text_content("#status")


def ask_link(address, count):
    print(f"LINK? {address} {count}", flush=True)
    link = sys.stdin.readline().strip()
    assert link, f"no link for {address}"
    return link


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])

    def new_page():
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(STEP_TIMEOUT_MS)
        return context, page

    def provider_sign_in(provider):
        def run():
            context, page = new_page()
            try:
                page.goto(APP)
                page.click(f"#signin-{provider}")
                # The provider's consent page: a person clicks Allow.
                page.wait_for_selector("#allow")
                assert "/authorize" in page.url or "/auth/authorize" in page.url, page.url
                page.click("#allow")
                text = status_of(page, "signed in")
                assert text.startswith("signed in as ") and provider in text, text
                assert "code=" not in page.url, "the page dropped the code from its address"
            finally:
                context.close()

        return run

    def cancelled_sign_in():
        context, page = new_page()
        try:
            page.goto(APP)
            page.click(f"#signin-{PROVIDERS[0]}")
            page.wait_for_selector("#deny")
            page.click("#deny")
            text = status_of(page, "error")
            assert text == "error access_denied", text
        finally:
            context.close()

    def email_link_elsewhere_then_here():
        # The link opened on another device (another browser profile) gives it no session.
        context, page = new_page()
        other_context, other = new_page()
        try:
            page.goto(APP)
            page.fill("#email", EMAIL)
            page.click("#send-link")
            assert status_of(page, "link sent") == "link sent"
            other.goto(ask_link(EMAIL, 0))
            text = status_of(other, "signed in")
            assert text.startswith("error"), f"another device got a session: {text}"
            # A new link, opened where it was asked for, signs in.
            page.click("#send-link")
            assert status_of(page, "link sent") == "link sent"
            page.goto(ask_link(EMAIL, 1))
            text = status_of(page, "signed in")
            assert text.startswith(f"signed in as {EMAIL}"), text
        finally:
            context.close()
            other_context.close()

    for provider in PROVIDERS:
        step(f"a browser signs in with {provider} through its consent page", provider_sign_in(provider))
    step("Cancel on the consent page comes back as access_denied", cancelled_sign_in)
    step("an e-mailed PKCE link signs in only where it was asked for", email_link_elsewhere_then_here)
    browser.close()

finish()
