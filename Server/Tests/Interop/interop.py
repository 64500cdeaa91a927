"""Drives the official Python `supabase-auth` client against a running Gatehouse server.

Usage: python3 interop.py SERVER_URL MAILBOX_FILE

MAILBOX_FILE is where the test's mailer appends one line per message: "<address> <code>".
Prints one line per step and a closing "N passed, N failed" line; exits non-zero on failure.
"""

import sys
import time
import uuid

import httpx
import pyotp
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from steps import finish, step

URL, MAILBOX = sys.argv[1], sys.argv[2]


def code_for(address, after=0, timeout=60.0):
    """The newest code mailed to `address`, once more than `after` codes went there."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(MAILBOX) as mailbox:
            # A line still being written has no code yet: skip it.
            lines = [fields for fields in (line.split() for line in mailbox) if len(fields) == 2]
        codes = [code for to, code in lines if to == address and code != "-"]
        if len(codes) > after:
            return codes[-1]
        time.sleep(0.05)
    raise AssertionError(f"no code for {address}")


# The client's own HTTP client gives up after httpx's default 5 s. The suite runs this script
# while hundreds of other tests share two cores and one bcrypt pool (some at cost 13), so a
# sign-up can wait longer than that; the client is the official one with a patient transport.
http = httpx.Client(timeout=60.0, follow_redirects=True, http2=True)
client = SyncGoTrueClient(url=URL, auto_refresh_token=False, persist_session=False, http_client=http)
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


def change_email():
    # GoTrue's secure e-mail change: a code to the new address and one to the current one.
    client.sign_in_with_password({"email": email, "password": password})
    new = f"py-new-{uuid.uuid4().hex[:8]}@example.com"
    response = client.update_user({"email": new})
    assert response.user.email == email and response.user.new_email == new, response.user
    half = client.verify_otp({"email": new, "token": code_for(new), "type": "email_change"})
    assert half.session is None, "one side confirmed: the other address's code is still needed"
    done = client.verify_otp({"email": email, "token": code_for(email, after=1), "type": "email_change"})
    assert done.session is not None and done.user.email == new, done
    assert done.user.id == state["user_id"]
    client.sign_out()
    client.sign_in_with_password({"email": new, "password": password})
    client.sign_out()


def upgrade_guest_by_email():
    guest = client.sign_in_anonymously()
    address = f"py-guest-{uuid.uuid4().hex[:8]}@example.com"
    response = client.update_user({"email": address, "password": password})
    assert response.user.is_anonymous and response.user.new_email == address, response.user
    assert not response.user.email, "the address is pending until its code is entered"
    verified = client.verify_otp({"email": address, "token": code_for(address), "type": "email_change"})
    assert verified.user.id == guest.user.id and not verified.user.is_anonymous, verified.user
    assert verified.user.email == address
    client.sign_out()
    signed_in = client.sign_in_with_password({"email": address, "password": password})
    assert signed_in.user.id == guest.user.id
    client.sign_out()


def mfa():
    """Enrol an authenticator app, sign in again with its code, read the levels, unenrol."""
    address = f"py-mfa-{uuid.uuid4().hex[:8]}@example.com"
    client.sign_up({"email": address, "password": password})
    client.verify_otp({"email": address, "token": code_for(address), "type": "signup"})
    enrolled = client.mfa.enroll({"factor_type": "totp", "friendly_name": "python phone"})
    assert enrolled.type == "totp" and enrolled.friendly_name == "python phone", enrolled
    assert enrolled.totp.qr_code.startswith("data:image/svg+xml;utf-8,") and "<svg" in enrolled.totp.qr_code
    assert enrolled.totp.uri.startswith("otpauth://totp/") and enrolled.totp.secret in enrolled.totp.uri
    totp = pyotp.parse_uri(enrolled.totp.uri)
    assert totp.secret == enrolled.totp.secret and totp.digits == 6 and totp.interval == 30
    before = client.mfa.get_authenticator_assurance_level()
    assert before.current_level == "aal1", before
    first_code = totp.now()
    verified = client.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": first_code})
    assert verified.access_token and verified.user.id, verified
    level = client.mfa.get_authenticator_assurance_level()
    assert level.current_level == "aal2" and level.next_level == "aal2", level
    assert level.current_authentication_methods[0].method == "totp", level
    factors = client.mfa.list_factors()
    assert [f.id for f in factors.totp] == [enrolled.id] and factors.all[0].status == "verified", factors

    client.sign_out()
    client.sign_in_with_password({"email": address, "password": password})
    due = client.mfa.get_authenticator_assurance_level()
    assert due.current_level == "aal1" and due.next_level == "aal2", due
    try:
        client.update_user({"password": "a new interop passphrase"})
        raise AssertionError("a password change at aal1 must be refused")
    except AuthApiError as error:
        assert error.code == "insufficient_aal", error.code
    try:
        client.mfa.unenroll({"factor_id": enrolled.id})
        raise AssertionError("unenrolling a verified factor at aal1 must be refused")
    except AuthApiError as error:
        assert error.code == "insufficient_aal", error.code
    # The code used before is refused (replay); the app's next one (30 s ahead, within the
    # one-step tolerance) is a new code.
    try:
        client.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": first_code})
        raise AssertionError("a used code must be refused")
    except AuthApiError as error:
        assert error.code == "mfa_verification_failed", error.code
    client.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": totp.at(time.time() + 30)})
    assert client.mfa.get_authenticator_assurance_level().current_level == "aal2"
    removed = client.mfa.unenroll({"factor_id": enrolled.id})
    assert removed.id == enrolled.id, removed
    assert client.mfa.list_factors().all == []
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
    ("change the e-mail address (both sides)", change_email),
    ("upgrade a guest by e-mail in place", upgrade_guest_by_email),
    ("two-factor sign-in with an authenticator app", mfa),
]:
    step(name, function)

finish("python interop: ")
