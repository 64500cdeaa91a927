"""Signs in users imported by `gatehouse-server import` with the official Python `supabase-auth`
client, with the passwords they had in the service they came from.

Usage: python3 imported.py SERVER_URL EMAIL PASSWORD USER_ID [EMAIL PASSWORD USER_ID ...]

Each user signs in twice (the second time against the server's own bcrypt, after the rehash)
and must come back as USER_ID. Prints one line per step and "N passed, N failed".
"""

import sys

import httpx
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from steps import finish, step

URL = sys.argv[1]
users = [sys.argv[index:index + 3] for index in range(2, len(sys.argv), 3)]
# httpx's default 5 s is too short on a loaded machine: the first verification of a Firebase hash
# runs scrypt (16 MiB) in a debug build while the rest of the suite runs beside it.
http = httpx.Client(timeout=60.0)


def sign_in(email, password, user_id):
    client = SyncGoTrueClient(url=URL, auto_refresh_token=False, persist_session=False, http_client=http)
    response = client.sign_in_with_password({"email": email, "password": password})
    assert response.user.id == user_id, f"signed in as {response.user.id}, not {user_id}"
    assert response.session.access_token
    client.sign_out()


def wrong_password(email):
    client = SyncGoTrueClient(url=URL, auto_refresh_token=False, persist_session=False, http_client=http)
    try:
        client.sign_in_with_password({"email": email, "password": "not the old password"})
    except AuthApiError as error:
        assert error.code == "invalid_credentials", error.code
        return
    raise AssertionError("a wrong password signed in")


for email, password, user_id in users:
    for name, function in [
        (f"wrong password {email}", lambda: wrong_password(email)),
        (f"old password {email}", lambda: sign_in(email, password, user_id)),
        (f"old password again, rehashed {email}", lambda: sign_in(email, password, user_id)),
    ]:
        step(name, function)

finish()
