"""Drives the official Python `supabase-auth` client's PKCE flows against a running Gatehouse:
`sign_in_with_oauth` and `exchange_code_for_session` with the test's fake providers, and the
e-mail PKCE flows (`sign_up`, `reset_password_for_email`) whose mailed link the script opens as a
browser would.

Usage: python3 oauth.py SERVER_URL APP_URL MAILBOX_FILE PROVIDER...

MAILBOX_FILE is where the test's mailer appends one line per message: "<address> <link>".
The script is the browser: it follows each redirect by hand, and on the provider's consent page
it posts the form the "Allow" button submits. Prints one line per step and a closing
"N passed, N failed" line; exits non-zero on failure.
"""

import re
import signal
import sys
import time
import uuid
from urllib.parse import parse_qs, urljoin, urlparse

import httpx
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from steps import finish, step

URL, APP, MAILBOX = sys.argv[1], sys.argv[2], sys.argv[3]
PROVIDERS = sys.argv[4:]

# The whole script is bounded: a hung request must not hang the test.
signal.alarm(240)

browser = httpx.Client(timeout=60.0, follow_redirects=False)


def client():
    http = httpx.Client(timeout=60.0, follow_redirects=True)
    return SyncGoTrueClient(
        url=URL, auto_refresh_token=False, persist_session=False, flow_type="pkce", http_client=http
    )


def code_of(location):
    query = parse_qs(urlparse(location).query)
    assert "code" in query, f"no code in {location}"
    return query["code"][0]


def through_provider(url):
    """The browser's trip from the server's /authorize URL to the app, clicking Allow."""
    authorize = browser.get(url)
    assert authorize.status_code == 302, f"/authorize answered {authorize.status_code}: {authorize.text}"
    page = browser.get(authorize.headers["location"])
    assert page.status_code == 200, f"the provider's page answered {page.status_code}"
    request = re.search(r'name="request" value="([^"]+)"', page.text).group(1)
    action = re.search(r'action="([^"]+)"', page.text).group(1)
    consent = browser.post(
        urljoin(authorize.headers["location"], action), data={"request": request, "decision": "allow"}
    )
    assert consent.status_code == 302, f"the consent answered {consent.status_code}"
    callback = browser.get(consent.headers["location"])
    assert callback.status_code == 302, f"/callback answered {callback.status_code}"
    location = callback.headers["location"]
    assert location.startswith(APP), f"landed on {location}"
    return location


def link_for(address, after=0, timeout=60.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(MAILBOX) as mailbox:
            lines = [fields for fields in (line.split() for line in mailbox) if len(fields) == 2]
        links = [link for to, link in lines if to == address and link != "-"]
        if len(links) > after:
            return links[-1]
        time.sleep(0.05)
    raise AssertionError(f"no link for {address}")


def open_link(link):
    parsed = urlparse(link)
    # The mail names the server's public address; the test server is at URL.
    opened = browser.get(URL + parsed.path + "?" + parsed.query)
    assert opened.status_code == 303, f"the link answered {opened.status_code}"
    return opened.headers["location"]


def oauth(provider):
    def run():
        auth = client()
        response = auth.sign_in_with_oauth({"provider": provider, "options": {"redirect_to": APP}})
        assert "code_challenge=" in response.url and "code_challenge_method=s256" in response.url, response.url
        code = code_of(through_provider(response.url))
        signed_in = auth.exchange_code_for_session({"auth_code": code, "redirect_to": APP})
        assert signed_in.session is not None and signed_in.session.access_token
        assert signed_in.session.provider_token, "the provider's token comes with the session"
        providers = {identity.provider for identity in signed_in.user.identities or []}
        assert provider in providers, providers
        assert auth.get_user().user.id == signed_in.user.id
        # The code works once.
        try:
            client().exchange_code_for_session({"auth_code": code, "code_verifier": "x" * 43})
            raise AssertionError("a used code was exchanged again")
        except AuthApiError as error:
            assert error.code == "flow_state_not_found", error.code

    return run


def wrong_verifier():
    auth = client()
    response = auth.sign_in_with_oauth({"provider": PROVIDERS[0], "options": {"redirect_to": APP}})
    code = code_of(through_provider(response.url))
    try:
        client().exchange_code_for_session({"auth_code": code, "code_verifier": "y" * 64})
        raise AssertionError("another verifier got a session")
    except AuthApiError as error:
        assert error.code == "bad_code_verifier", error.code
    assert auth.exchange_code_for_session({"auth_code": code}).session is not None


email = f"py-pkce-{uuid.uuid4().hex[:8]}@example.com"


def sign_up_by_link():
    auth = client()
    response = auth.sign_up(
        {"email": email, "password": "interop correct horse", "options": {"email_redirect_to": APP}}
    )
    assert response.session is None
    link = link_for(email)
    assert "token=pkce_" in link, link
    signed_in = auth.exchange_code_for_session({"auth_code": code_of(open_link(link))})
    assert signed_in.user.email == email and signed_in.user.email_confirmed_at is not None


def recovery_by_link():
    auth = client()
    events = []
    auth.on_auth_state_change(lambda event, _session: events.append(event))
    auth.reset_password_for_email(email, {"redirect_to": APP})
    link = link_for(email, after=1)
    signed_in = auth.exchange_code_for_session({"auth_code": code_of(open_link(link))})
    assert signed_in.session is not None
    assert "PASSWORD_RECOVERY" in events, events


for name in PROVIDERS:
    step(f"sign_in_with_oauth + exchange_code_for_session ({name})", oauth(name))
step("a wrong code_verifier gets bad_code_verifier", wrong_verifier)
step("sign_up with PKCE: the mailed link's code becomes a session", sign_up_by_link)
step("reset_password_for_email with PKCE: PASSWORD_RECOVERY", recovery_by_link)

finish()
