"""Schemathesis hooks for scripts/fuzz-api: the tokens that operations with security need.

Operations that ask for `userToken` get the access token of a fresh user (an autoconfirmed
sign-up on the server under test), so that a fuzzed `DELETE /user` or `POST /logout` never
starves the operations after it. Operations that ask for `serviceRole` get the admin token
that scripts/fuzz-api printed with `gatehouse-server admin-token` (GATEHOUSE_FUZZ_ADMIN_TOKEN).
"""

import json
import os
import secrets
import urllib.request

import schemathesis

BASE_URL = os.environ["GATEHOUSE_FUZZ_URL"]
ADMIN_TOKEN = os.environ["GATEHOUSE_FUZZ_ADMIN_TOKEN"]


def _schemes(case):
    security = case.operation.definition.raw.get("security")
    if security is None:
        security = case.operation.schema.raw_schema.get("security", [])
    return {name for requirement in security for name in requirement}


def _fresh_user_token():
    body = json.dumps(
        {"email": f"fuzz-{secrets.token_hex(8)}@example.com", "password": "fuzzing horse battery"}
    ).encode()
    request = urllib.request.Request(
        f"{BASE_URL}/signup", data=body, headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)["access_token"]


@schemathesis.auth(refresh_interval=None)
class GatehouseAuth:
    def get(self, case, context):
        schemes = _schemes(case)
        if "serviceRole" in schemes:
            return ADMIN_TOKEN
        if "userToken" in schemes:
            return _fresh_user_token()
        return None

    def set(self, case, data, context):
        if data is None:
            return
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
