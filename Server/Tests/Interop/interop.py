"""Drives the official Python `supabase-auth` client against a running Gatehouse server.

Usage: python3 interop.py SERVER_URL MAILBOX_FILE

MAILBOX_FILE is where the test's mailer appends one line per message: "<address> <code>".
Prints one line per step and a closing "N passed, N failed" line; exits non-zero on failure.
"""

import sys
import time
import uuid

from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

URL, MAILBOX = sys.argv[1], sys.argv[2]
passed, failed = 0, 0


def step(name, function):
    global passed, failed
    try:
        function()
        passed += 1
        print(f"ok   {name}")
    except Exception as error:  # noqa: BLE001 - report every failure and go on
        failed += 1
        print(f"FAIL {name}: {type(error).__name__}: {error}")


def code_for(address, timeout=10.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(MAILBOX) as mailbox:
            lines = [line.split() for line in mailbox if line.strip()]
        codes = [code for to, code in lines if to == address]
        if codes:
            return codes[-1]
        time.sleep(0.05)
    raise AssertionError(f"no code for {address}")


client = SyncGoTrueClient(url=URL, auto_refresh_token=False, persist_session=False)
email = f"py-{uuid.uuid4().hex[:8]}@example.com"
password = "interop correct horse"
state = {}


def sign_up():
    response = client.sign_up({"email": email, "password": password})
    assert response.user is not None and response.user.email == email, response
    assert response.session is None, "autoconfirm is off: no session before confirmation"
    state["user_id"] = response.user.id


def confirm_by_code():
    response = client.verify_otp({"email": email, "token": code_for(email), "type": "signup"})
    assert response.session is not None and response.user.id == state["user_id"], response
    assert response.user.email_confirmed_at is not None


def sign_in():
    response = client.sign_in_with_password({"email": email, "password": password})
    assert response.session.access_token and response.session.refresh_token
    assert response.user.id == state["user_id"]


def wrong_password():
    try:
        client.sign_in_with_password({"email": email, "password": "not the password"})
    except AuthApiError as error:
        assert error.code == "invalid_credentials", error.code
        assert error.status == 400
        return
    raise AssertionError("a wrong password signed in")


def read_user():
    response = client.get_user()
    assert response.user.id == state["user_id"] and response.user.email == email


def update_user():
    response = client.update_user({"data": {"favourite_colour": "green"}})
    assert response.user.user_metadata["favourite_colour"] == "green", response.user.user_metadata


def refresh():
    before = client.get_session()
    response = client.refresh_session()
    assert response.session.refresh_token != before.refresh_token
    assert response.session.access_token
    assert client.get_user().user.user_metadata["favourite_colour"] == "green"


def sign_out():
    token = client.get_session().access_token
    client.sign_out()
    assert client.get_session() is None
    try:
        client.get_user(token)
    except AuthApiError as error:
        assert error.code == "session_not_found", error.code
        return
    raise AssertionError("the session survived sign-out")


def anonymous():
    response = client.sign_in_anonymously()
    assert response.user.is_anonymous and response.session.access_token
    assert client.get_user().user.is_anonymous
    client.sign_out()


for name, function in [
    ("sign up", sign_up),
    ("confirm by e-mailed code", confirm_by_code),
    ("sign in with password", sign_in),
    ("wrong password is invalid_credentials", wrong_password),
    ("read the user", read_user),
    ("update the user", update_user),
    ("refresh the session", refresh),
    ("sign out", sign_out),
    ("sign in anonymously and out", anonymous),
]:
    step(name, function)

print(f"python interop: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
