"""Schemathesis hooks for scripts/fuzz-api: the tokens that operations with security need, the
query that picks a `POST /token` body, and the check that a request the document calls valid is
refused only on its merits.

Operations that ask for `userToken` get the access token of a fresh user (an autoconfirmed
sign-up on the server under test), so that a fuzzed `DELETE /user` or `POST /logout` never
starves the operations after it. Operations that ask for `serviceRole` get the admin token
that scripts/fuzz-api printed with `gatehouse-server admin-token` (GATEHOUSE_FUZZ_ADMIN_TOKEN).

**`POST /token`.** The query's `grant_type` picks the body's schema (`password` takes a
`PasswordGrantRequest`, `refresh_token` a `RefreshTokenGrantRequest`, `id_token` an
`IDTokenGrantRequest`: the grant's name, capitalised, with `GrantRequest`), which OpenAPI cannot
say: the document gives the body as `anyOf` the grants' schemas. `map_case` sets the `grant_type`
of a schema-valid case to a grant whose schema its body satisfies, as a client does; schema-invalid
cases are sent as generated.

**`GET /authorize` and `GET /user/identities/authorize`.** Which providers exist is the
operator's configuration, not the document's: a provider that is not configured is 400
`validation_failed` (as in GoTrue). `map_case` names the provider scripts/fuzz-api configures
(`GATEHOUSE_FUZZ_PROVIDER`) in a schema-valid case, as a client of that server does.

**Valid data refused only on its merits** (`schema_valid_request_refused_only_on_its_merits`).
A request the document calls valid may still be refused: GoTrue answers a well-formed request
that fails on its merits with 400 or 422 (a wrong, used or expired code, a wrong reauthentication
nonce, invalid credentials, a weak or common password, an address registered already, a
reauthentication needed, a provider that is off), so schemathesis.toml adds 400 and 422 to the
statuses `positive_data_acceptance` expects. This check takes their place: every 4xx answer to a
schema-valid request must carry an error code (`x-sb-error-code`, or the body's `error_code` or
string `code`), and that code must not be one that says the request is malformed
(`MALFORMED_REQUEST_CODES`). A `validation_failed` answer to data the document calls valid means
the document is missing a rule the server enforces, and fails the run.
"""

import json
import os
import secrets
import urllib.request

import jsonschema_rs
import schemathesis
from schemathesis.specs.openapi.checks import is_unexpected_http_status_case

BASE_URL = os.environ["GATEHOUSE_FUZZ_URL"]
ADMIN_TOKEN = os.environ["GATEHOUSE_FUZZ_ADMIN_TOKEN"]
# The provider scripts/fuzz-api configures (GATEHOUSE_EXTERNAL_<NAME>_CLIENT_ID).
CONFIGURED_PROVIDER = os.environ.get("GATEHOUSE_FUZZ_PROVIDER", "github")

# The codes that mean "the request itself is malformed" (GatehouseCore's `ErrorCode`): never the
# answer to a request the document calls valid.
MALFORMED_REQUEST_CODES = frozenset(
    {"validation_failed", "bad_json", "request_entity_too_large", "method_not_allowed", "unknown"}
)


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


def _is_schema_valid(case):
    return case.meta is not None and case.meta.generation.mode.is_positive


def _is_token_grant(operation):
    return operation is not None and operation.method.upper() == "POST" and operation.path == "/token"


_GRANT_VALIDATORS = {}


def _grant_validators(document):
    """Each `grant_type`'s body validator, from the document's `POST /token` (built once)."""
    key = id(document)
    if key in _GRANT_VALIDATORS:
        return _GRANT_VALIDATORS[key]
    operation = document["paths"]["/token"]["post"]
    grants = next(p for p in operation["parameters"] if p.get("name") == "grant_type")["schema"]["enum"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    references = {
        reference["$ref"].rsplit("/", 1)[-1].lower().removesuffix("grantrequest"): reference["$ref"]
        for reference in body["anyOf"]
    }
    validators = {}
    for grant in grants:
        reference = references.get(grant.replace("_", ""))
        if reference is None:
            raise RuntimeError(f"POST /token: no body schema named for grant_type {grant!r} in {sorted(references)}")
        validators[grant] = jsonschema_rs.validator_for({"$ref": reference, "components": document["components"]})
    _GRANT_VALIDATORS[key] = validators
    return validators


def _fit_grant_type(case):
    """Sets a schema-valid `POST /token` case's `grant_type` to a grant its body fits."""
    validators = _grant_validators(case.operation.schema.raw_schema)
    query = dict(case.query or {})
    fitting = [grant for grant, validator in validators.items() if validator.is_valid(case.body)]
    if fitting and query.get("grant_type") not in fitting:
        query["grant_type"] = fitting[0]
        case.query = query
    return case


def _starts_at_a_provider(operation):
    return (
        operation is not None
        and operation.method.upper() == "GET"
        and operation.path in ("/authorize", "/user/identities/authorize")
    )


def _fit_provider(case):
    """Names a provider the server under test has configured in a schema-valid `provider` query."""
    if isinstance(case.query, dict) and "provider" in case.query:
        case.query = {**case.query, "provider": CONFIGURED_PROVIDER}
    return case


def _fit(operation, case):
    if not _is_schema_valid(case):
        return case
    if _is_token_grant(operation):
        _fit_grant_type(case)
    elif _starts_at_a_provider(operation):
        _fit_provider(case)
    return case


@schemathesis.hook
def map_case(context, case):
    return _fit(context.operation, case)


@schemathesis.hook
def before_add_examples(context, examples):
    """The examples phase's cases do not pass through `map_case`."""
    for case in examples:
        _fit(context.operation, case)


def _error_code(response):
    code = response.headers.get("x-sb-error-code")
    if isinstance(code, list):
        code = code[0] if code else None
    if code:
        return code
    try:
        body = response.json()
    except ValueError:
        return None
    if not isinstance(body, dict):
        return None
    if isinstance(body.get("error_code"), str):
        return body["error_code"]
    if isinstance(body.get("code"), str):
        return body["code"]
    return None


@schemathesis.check
def schema_valid_request_refused_only_on_its_merits(ctx, response, case):
    """A schema-valid request is refused only with a code that is not "malformed" (module doc)."""
    if not _is_schema_valid(case) or is_unexpected_http_status_case(case):
        return None
    if not 400 <= response.status_code < 500:
        return None
    code = _error_code(response)
    if code is None:
        raise AssertionError(
            f"A request the document calls valid was refused with {response.status_code} and no error code"
        )
    if code in MALFORMED_REQUEST_CODES:
        raise AssertionError(
            f"A request the document calls valid was refused as malformed: {response.status_code} `{code}`. "
            "The document is missing a rule the server enforces (or the server enforces one it should not)."
        )
    return None
