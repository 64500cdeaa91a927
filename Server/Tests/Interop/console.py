"""Drives a real browser, Debian's headless Chromium through Playwright, through the console
(issue 37): an operator signs in with a password and an authenticator code, finds a user, ends
one of her sessions (that device's next refresh fails, her other device's works), bans and
unbans her, removes another user's authenticator factor, deletes a third user's account after a
wrong and then the right typed confirmation, rotates a signing key and reads the audit trail of
what was just done. A
non-operator, an operator without a second factor, a forged CSRF token and a user whose
metadata holds <script> are refused or escaped. Screenshots of each page at a desktop and a
phone width go to SCREENSHOTS.

Usage: python3 console.py BASE_URL OPERATOR VICTIM NON_OPERATOR NO_FACTOR PHONE_REFRESH LAPTOP_REFRESH SCREENSHOTS DOOMED

NON_OPERATOR has an authenticator factor (the operator removes it); DOOMED is deleted.

The script prints "CODE?" when it needs the operator's current authenticator code and reads it
from its standard input (the test owns the server's clock). Every wait is bounded; prints one
line per step and a closing "N passed, N failed" line; exits non-zero on failure.
"""

import json
import os
import signal
import sys
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

from steps import CHROMIUM, finish, step

BASE, OPERATOR, VICTIM, NON_OPERATOR, NO_FACTOR, PHONE_REFRESH, LAPTOP_REFRESH, SHOTS, DOOMED = sys.argv[1:10]
PASSWORD = "correct horse battery"
STEP_TIMEOUT_MS = 30_000
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}

# The whole run is bounded, whatever the browser does.
signal.alarm(300)
os.makedirs(SHOTS, exist_ok=True)


def ask_code():
    print("CODE?", flush=True)
    code = sys.stdin.readline().strip()
    assert len(code) == 6, f"no code: {code!r}"
    return code


def refresh_status(token):
    request = urllib.request.Request(
        f"{BASE}/token?grant_type=refresh_token",
        data=json.dumps({"refresh_token": token}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, {}


def shoot(page, name):
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=os.path.join(SHOTS, f"{name}-{size}.png"), full_page=True)
    page.set_viewport_size(SIZES["desktop"])


def notice(page):
    return page.text_content("[role=status]") or ""


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])

    def new_page():
        context = browser.new_context(viewport=SIZES["desktop"])
        page = context.new_page()
        page.set_default_timeout(STEP_TIMEOUT_MS)
        return context, page

    def sign_in(page, email, code):
        page.goto(f"{BASE}/console/sign-in")
        page.fill("input[name=email]", email)
        page.fill("input[name=password]", PASSWORD)
        page.fill("input[name=code]", code)
        page.click("#sign-in")
        page.wait_for_load_state()

    operator_context, operator = new_page()
    state = {}

    def operator_signs_in():
        operator.goto(f"{BASE}/console/sign-in")
        shoot(operator, "sign-in")
        sign_in(operator, OPERATOR, ask_code())
        assert operator.url.endswith("/console/users"), operator.url
        cookies = {c["name"]: c for c in operator_context.cookies()}
        session = cookies.get("gatehouse-console")
        assert session and session["httpOnly"] and session["secure"] and session["sameSite"] == "Strict", cookies
        shoot(operator, "users")
        operator.click("text=Overview")
        operator.wait_for_load_state()
        assert operator.locator("svg.chart rect").count() >= 1, "no bar in the overview's chart"
        shoot(operator, "overview")

    def times_are_in_the_operators_zone():
        # The same page in Tokyo: each time in its zone, its UTC text kept as the title.
        context = browser.new_context(viewport=SIZES["desktop"], timezone_id="Asia/Tokyo", locale="en-US")
        try:
            context.add_cookies(operator_context.cookies())
            page = context.new_page()
            page.set_default_timeout(STEP_TIMEOUT_MS)
            page.goto(f"{BASE}/console/users")
            first = page.locator("main time[datetime]").first
            shown, title = first.text_content(), first.get_attribute("title") or ""
            assert "GMT+9" in shown and "UTC" not in shown, shown
            assert title.endswith("UTC"), title
        finally:
            context.close()
        operator.goto(f"{BASE}/console/users")
        text = operator.locator("main time[datetime]").first.text_content()
        assert "UTC" in text or "GMT" in text, text

    def finds_the_user():
        operator.goto(f"{BASE}/console/users")
        operator.fill("input[name=q]", VICTIM[:4])
        operator.click("button[type=submit] >> text=Search")
        operator.wait_for_load_state()
        operator.click(f"text={VICTIM}")
        operator.wait_for_load_state()
        assert "/console/users/" in operator.url, operator.url
        state["user_page"] = operator.url.split("?")[0]
        assert operator.text_content("h1") == VICTIM
        shoot(operator, "user")

    def metadata_script_is_text():
        # The victim's metadata holds a script: shown as text, never run.
        assert "<script>window.__xss=1</script>" in operator.text_content("main")
        assert operator.evaluate("() => window.__xss === undefined")

    def ends_one_session():
        operator.goto(state["user_page"])
        rows = operator.locator("tr", has_text="phone")
        assert rows.count() == 1, f"{rows.count()} phone rows"
        rows.first.locator("button", has_text="End").click()
        operator.wait_for_load_state()
        assert "session ended" in notice(operator).lower(), notice(operator)
        status, _ = refresh_status(PHONE_REFRESH)
        assert status == 400, f"the ended device refreshed: {status}"
        status, body = refresh_status(LAPTOP_REFRESH)
        assert status == 200, f"the other device was signed out: {status}"
        state["laptop_refresh"] = body["refresh_token"]
        shoot(operator, "user-session-ended")

    def forged_csrf_is_refused():
        operator.goto(state["user_page"])
        operator.eval_on_selector("form[action$='/ban'] input[name=csrf]", "e => e.value = 'forged'")
        with operator.expect_navigation():
            operator.click("#ban")
        assert "did not come from the console" in (operator.text_content("main") or ""), operator.content()[:400]
        operator.goto(state["user_page"])
        assert "not banned" in operator.text_content("main")

    def bans_and_unbans():
        operator.goto(state["user_page"])
        operator.select_option("select[name=duration]", "24h")
        operator.click("#ban")
        operator.wait_for_load_state()
        assert "banned" in notice(operator).lower(), notice(operator)
        status, _ = refresh_status(state["laptop_refresh"])
        assert status == 400, f"a banned user's device refreshed: {status}"
        shoot(operator, "user-banned")
        operator.click("#unban")
        operator.wait_for_load_state()
        assert "lifted" in notice(operator), notice(operator)

    def open_user(email):
        operator.goto(f"{BASE}/console/users")
        operator.fill("input[name=q]", email)
        operator.click("button[type=submit] >> text=Search")
        operator.wait_for_load_state()
        # The link in the table, not the summary that repeats the search.
        operator.click(f"tbody a >> text={email}")
        operator.wait_for_load_state()
        assert operator.text_content("h1") == email, operator.text_content("h1")

    def removes_a_factor():
        open_user(NON_OPERATOR)
        rows = operator.locator("form[action*='/factors/'] button", has_text="Remove")
        assert rows.count() == 1, f"{rows.count()} factor forms"
        rows.first.click()
        operator.wait_for_load_state()
        assert "factor is removed" in notice(operator), notice(operator)
        assert "No second factor" in operator.text_content("main")
        shoot(operator, "user-factor-removed")

    def deletes_an_account():
        open_user(DOOMED)
        page = operator.url.split("?")[0]
        operator.fill("input[name=confirm]", "someone-else@example.com")
        operator.click("#delete")
        operator.wait_for_load_state()
        assert "Not deleted" in notice(operator), notice(operator)
        assert operator.text_content("h1") == DOOMED
        shoot(operator, "user-delete-refused")
        operator.fill("input[name=confirm]", DOOMED)
        operator.click("#delete")
        operator.wait_for_load_state()
        assert "/console/users?done=user-deleted" in operator.url, operator.url
        assert "account is deleted" in notice(operator), notice(operator)
        operator.goto(page)
        assert operator.text_content("h1") == "Not found", operator.text_content("h1")
        operator.goto(f"{BASE}/console/users")

    def rotates_a_key():
        operator.click("text=Signing keys")
        operator.wait_for_load_state()
        before = operator.locator("tbody tr").count()
        operator.click("#rotate")
        operator.wait_for_load_state()
        assert operator.locator("tbody tr").count() == before + 1
        shoot(operator, "keys")

    def reads_the_audit_trail():
        operator.goto(state["user_page"])
        trail = operator.text_content("main")
        for action in ["session_ended", "admin_user_modified"]:
            assert action in trail, f"{action} missing from the user's trail"
        operator.click("text=Audit log")
        operator.wait_for_load_state()
        log = operator.text_content("main")
        for action in ["signing_key_rotated", "session_ended", "console_signed_in", "factor_deleted_by_admin", "admin_user_deleted"]:
            assert action in log, f"{action} missing from the audit log"
        operator.fill("input[name=action]", "signing_key_rotated")
        operator.click("text=Filter")
        operator.wait_for_load_state()
        assert "action=signing_key_rotated" in operator.url
        shoot(operator, "audit")

    def non_operator_is_refused():
        context, page = new_page()
        try:
            sign_in(page, NON_OPERATOR, "000000")
            assert notice(page) == "Wrong e-mail or password.", notice(page)
            page.goto(f"{BASE}/console/users")
            assert "/console/sign-in" in page.url, page.url
        finally:
            context.close()

    def operator_without_factor_is_told_to_enrol():
        context, page = new_page()
        try:
            sign_in(page, NO_FACTOR, "000000")
            assert "second factor" in notice(page), notice(page)
            shoot(page, "sign-in-refused")
            assert not [c for c in context.cookies() if c["name"] == "gatehouse-console"]
        finally:
            context.close()

    def signs_out():
        operator.click("text=Sign out")
        operator.wait_for_load_state()
        assert operator.url.endswith("/console/sign-in"), operator.url
        operator.goto(f"{BASE}/console/users")
        assert "/console/sign-in" in operator.url, operator.url

    step("the operator signs in with a password and an authenticator code", operator_signs_in)
    step("times are shown in the operator's time zone", times_are_in_the_operators_zone)
    step("finds the user by the start of her address", finds_the_user)
    step("a <script> in her metadata is shown as text and never runs", metadata_script_is_text)
    step("ends one of her sessions: that device's refresh fails, the other's works", ends_one_session)
    step("a form with a forged CSRF token is refused", forged_csrf_is_refused)
    step("bans her (her devices are signed out) and unbans her", bans_and_unbans)
    step("removes another user's authenticator factor", removes_a_factor)
    step("deletes an account after a wrong, then the right typed confirmation", deletes_an_account)
    step("rotates a signing key", rotates_a_key)
    step("reads the audit trail of what was just done", reads_the_audit_trail)
    step("a non-operator hears what a wrong password hears", non_operator_is_refused)
    step("an operator without a second factor is told to enrol", operator_without_factor_is_told_to_enrol)
    step("signs out", signs_out)
    operator_context.close()
    browser.close()

finish()
