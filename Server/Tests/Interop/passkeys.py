"""An independent software authenticator against a running Gatehouse server's passkey API.

Usage: python3 passkeys.py SERVER_URL SERVICE_ROLE_TOKEN

The server runs with GATEHOUSE_WEBAUTHN_RP_ID=example.com and the origin https://example.com.
Credentials are built here from the WebAuthn Level 3 specification with Yubico's PyPI `fido2`
(COSE keys, client data, authenticator data and attestation objects) and `cryptography` (ES256,
RS256 and EdDSA keys and signatures); `cbor2` crafts the hostile CBOR of the fuzz step. Nothing
is shared with the server's Swift code, and every credential the server should accept is first
accepted by fido2's own relying party (`Fido2Server`), so the authenticator cannot be wrong in
the server's way.

The server's clock is the test's: the script prints `clock-advance SECONDS` and waits for a line
on standard input once the test has moved it (the expired-challenge steps).

Prints one line per step and a closing "N passed, N failed" line; exits non-zero on failure.
"""

import base64
import hashlib
import json
import os
import random
import struct
import sys
import threading
import urllib.error
import urllib.request

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from fido2 import cose
from fido2.server import Fido2Server
from fido2.webauthn import (
    AttestationObject,
    AttestedCredentialData,
    AuthenticationResponse,
    AuthenticatorData,
    CollectedClientData,
    PublicKeyCredentialCreationOptions,
    PublicKeyCredentialRequestOptions,
    PublicKeyCredentialRpEntity,
    RegistrationResponse,
    UserVerificationRequirement,
)

from steps import finish, step

URL, SERVICE_ROLE = sys.argv[1], sys.argv[2]
RP_ID, ORIGIN = "example.com", "https://example.com"
UP, UV, BE, BS, AT, ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80
server_errors = []


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def call(method, path, body=None, bearer=None, raw=None):
    """(status, parsed JSON or None); records every 5xx."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(URL + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if bearer:
        request.add_header("Authorization", f"Bearer {bearer}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    if status >= 500:
        server_errors.append((path, status, text[:200]))
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, None


def expect_error(reply, status, code):
    got_status, body = reply
    got_code = (body or {}).get("error_code") or (body or {}).get("code")
    assert (got_status, got_code) == (status, code), f"expected {status} {code}, got {got_status} {body}"


def claims(access_token):
    payload = access_token.split(".")[1]
    return json.loads(unb64url(payload))


def fido2_relying_party():
    return Fido2Server(PublicKeyCredentialRpEntity(id=RP_ID, name="Example"))


class Authenticator:
    """A passkey authenticator: one credential of `alg`, discoverable, with a counter. The
    credential's structures are fido2's; the keys and signatures cryptography's."""

    def __init__(self, alg, counter=0):
        self.alg = alg
        self.credential_id = os.urandom(32)
        self.counter = counter
        self.user_handle = None
        self.attested = None
        if alg == -7:
            self.key = ec.generate_private_key(ec.SECP256R1())
        elif alg == -257:
            self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        else:
            self.key = ed25519.Ed25519PrivateKey.generate()

    def cose(self):
        return cose.CoseKey.for_alg(self.alg).from_cryptography_key(self.key.public_key())

    def sign(self, message):
        if self.alg == -7:
            return self.key.sign(message, ec.ECDSA(hashes.SHA256()))
        if self.alg == -257:
            return self.key.sign(message, padding.PKCS1v15(), hashes.SHA256())
        return self.key.sign(message)

    def create(self, options, origin=ORIGIN, rp_id=RP_ID, flags=UP | UV | BE | BS, fmt="none", kind="webauthn.create"):
        parsed = PublicKeyCredentialCreationOptions.from_dict(options)
        assert parsed.rp.id == RP_ID, parsed.rp
        assert parsed.authenticator_selection.user_verification == UserVerificationRequirement.REQUIRED
        assert any(p.alg == self.alg for p in parsed.pub_key_cred_params), parsed.pub_key_cred_params
        self.user_handle = parsed.user.id
        client_data = CollectedClientData.create(kind, parsed.challenge, origin)
        self.attested = AttestedCredentialData.create(bytes(16), self.credential_id, self.cose())
        auth_data = AuthenticatorData.create(
            hashlib.sha256(rp_id.encode()).digest(), flags | AT, self.counter, self.attested
        )
        statement = {}
        if fmt == "packed":
            statement = {"alg": self.alg, "sig": self.sign(bytes(auth_data) + client_data.hash)}
        attestation = AttestationObject.create(fmt, auth_data, statement)
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(bytes(client_data)),
                "attestationObject": b64url(bytes(attestation)),
                "transports": ["internal", "hybrid"],
            },
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
        }

    def get(self, options, origin=ORIGIN, rp_id=RP_ID, flags=UP | UV | BE | BS, step=1, tamper=False):
        parsed = PublicKeyCredentialRequestOptions.from_dict(options)
        assert parsed.rp_id == RP_ID and not parsed.allow_credentials, parsed
        assert parsed.user_verification == UserVerificationRequirement.REQUIRED
        self.counter += step
        client_data = CollectedClientData.create("webauthn.get", parsed.challenge, origin)
        auth_data = bytes(AuthenticatorData.create(hashlib.sha256(rp_id.encode()).digest(), flags, self.counter))
        signature = self.sign(auth_data + client_data.hash)
        if tamper:
            auth_data = auth_data[:33] + struct.pack(">I", self.counter + 1000)
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(bytes(client_data)),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": b64url(self.user_handle),
            },
        }


def fido2_accepts_registration(options, credential):
    """fido2's relying party verifies the credential against the same options first."""
    parsed = PublicKeyCredentialCreationOptions.from_dict(options)
    server = fido2_relying_party()
    state = server._make_internal_state(parsed.challenge, UserVerificationRequirement.REQUIRED)
    server.register_complete(state, RegistrationResponse.from_dict(credential))


def fido2_accepts_assertion(options, credential, authenticator):
    parsed = PublicKeyCredentialRequestOptions.from_dict(options)
    server = fido2_relying_party()
    state = server._make_internal_state(parsed.challenge, UserVerificationRequirement.REQUIRED)
    server.authenticate_complete(state, [authenticator.attested], AuthenticationResponse.from_dict(credential))


def guest():
    status, body = call("POST", "/signup", {})
    assert status == 200 and body["user"]["is_anonymous"], body
    return body


def register(token, authenticator, **kwargs):
    status, options = call("POST", "/passkeys/registration/options", {}, bearer=token)
    assert status == 200, options
    assert set(options) == {"challenge_id", "options", "expires_at"}, options
    credential = authenticator.create(options["options"], **kwargs)
    if set(kwargs) <= {"fmt"} and kwargs.get("fmt", "none") in ("none", "packed"):
        fido2_accepts_registration(options["options"], credential)
    return call(
        "POST",
        "/passkeys/registration/verify",
        {"challenge_id": options["challenge_id"], "credential": credential},
        bearer=token,
    )


def sign_in(authenticator, **kwargs):
    status, options = call("POST", "/passkeys/authentication/options", {})
    assert status == 200, options
    credential = authenticator.get(options["options"], **kwargs)
    if set(kwargs) <= {"step"} and authenticator.attested:
        fido2_accepts_assertion(options["options"], credential, authenticator)
    return call("POST", "/passkeys/authentication/verify", {"challenge_id": options["challenge_id"], "credential": credential})


state = {}


def settings_say_enabled():
    status, body = call("GET", "/settings")
    assert status == 200 and body["passkeys_enabled"] is True, body


def upgrade_and_sign_in(alg, fmt):
    def run():
        session = guest()
        user_id = session["user"]["id"]
        authenticator = Authenticator(alg)
        status, passkey = register(session["access_token"], authenticator, fmt=fmt)
        assert status == 200 and passkey["id"] and passkey["created_at"], (status, passkey)
        status, user = call("GET", "/user", bearer=session["access_token"])
        assert status == 200 and user["id"] == user_id and user["is_anonymous"] is False, user
        status, refreshed = call("POST", "/token?grant_type=refresh_token", {"refresh_token": session["refresh_token"]})
        assert status == 200, refreshed
        token_claims = claims(refreshed["access_token"])
        assert token_claims["is_anonymous"] is False, token_claims
        assert "passkey" in [entry["method"] for entry in token_claims["amr"]], token_claims["amr"]
        status, signed_in = sign_in(authenticator)
        assert status == 200 and signed_in["user"]["id"] == user_id, (status, signed_in)
        assert [entry["method"] for entry in claims(signed_in["access_token"])["amr"]] == ["passkey"]
        state[alg] = (authenticator, signed_in)

    return run


def es256_packed():
    status, body = register(guest()["access_token"], Authenticator(-7), fmt="packed")
    assert status == 200, body


def no_server_errors():
    assert not server_errors, server_errors[:5]


def refused_sign_in(name, status, code, fido2_refuses=True, **kwargs):
    """Refused by the server with its code, and (unless it is a rule of ours alone) by fido2's
    relying party too."""

    def run():
        authenticator = state[-7][0]
        _, options = call("POST", "/passkeys/authentication/options", {})
        credential = authenticator.get(options["options"], **kwargs)
        if fido2_refuses:
            try:
                fido2_accepts_assertion(options["options"], credential, authenticator)
            except Exception:  # noqa: BLE001 - any refusal will do
                pass
            else:
                raise AssertionError(f"fido2's relying party accepted the {name} case")
        body = {"challenge_id": options["challenge_id"], "credential": credential}
        expect_error(call("POST", "/passkeys/authentication/verify", body), status, code)

    return run


def replayed_challenge():
    authenticator = state[-7][0]
    status, options = call("POST", "/passkeys/authentication/options", {})
    body = {"challenge_id": options["challenge_id"], "credential": authenticator.get(options["options"])}
    first = call("POST", "/passkeys/authentication/verify", body)
    assert first[0] == 200, first
    expect_error(call("POST", "/passkeys/authentication/verify", body), 400, "webauthn_challenge_not_found")


def failed_attempt_burns_challenge():
    authenticator = state[-7][0]
    status, options = call("POST", "/passkeys/authentication/options", {})
    wrong = {"challenge_id": options["challenge_id"], "credential": authenticator.get(options["options"], origin="https://evil.example")}
    expect_error(call("POST", "/passkeys/authentication/verify", wrong), 400, "webauthn_verification_failed")
    right = {"challenge_id": options["challenge_id"], "credential": authenticator.get(options["options"])}
    expect_error(call("POST", "/passkeys/authentication/verify", right), 400, "webauthn_challenge_not_found")


def unknown_credential():
    stranger = Authenticator(-7)
    stranger.user_handle = state[-7][0].user_handle
    expect_error(sign_in(stranger), 400, "webauthn_credential_not_found")


def someone_elses_user_handle():
    authenticator = state[-7][0]
    original = authenticator.user_handle
    authenticator.user_handle = state[-8][0].user_handle
    try:
        expect_error(sign_in(authenticator), 400, "webauthn_verification_failed")
    finally:
        authenticator.user_handle = original


def sign_count_regression():
    authenticator = Authenticator(-7)
    session = guest()
    status, _ = register(session["access_token"], authenticator)
    assert status == 200
    status, _ = sign_in(authenticator, step=5)
    assert status == 200
    authenticator.counter -= 3
    expect_error(sign_in(authenticator, step=0), 400, "webauthn_verification_failed")
    state["regressed_user"] = session["user"]["id"]


def cloned_passkey_racing_the_original():
    # A clone signs with the counter the original signs with, both sent at once: the counter
    # check and its update happen under the owner's row lock, so one of the two signs in.
    authenticator = Authenticator(-7)
    session = guest()
    assert register(session["access_token"], authenticator)[0] == 200
    assert sign_in(authenticator)[0] == 200
    credentials = []
    for _ in range(2):
        status, options = call("POST", "/passkeys/authentication/options", {})
        assert status == 200, options
        credentials.append((options["challenge_id"], authenticator.get(options["options"])))
        authenticator.counter -= 1
    authenticator.counter += 1
    replies = [None, None]

    def send(index):
        challenge_id, credential = credentials[index]
        replies[index] = call(
            "POST", "/passkeys/authentication/verify", {"challenge_id": challenge_id, "credential": credential}
        )

    threads = [threading.Thread(target=send, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(reply[0] for reply in replies) == [200, 400], replies
    loser = next(reply for reply in replies if reply[0] == 400)
    expect_error(loser, 400, "webauthn_verification_failed")
    state["raced_user"] = session["user"]["id"]


def zero_counters_are_fine():
    # Synced passkeys (Apple, Google) always report 0: not a regression.
    authenticator = Authenticator(-8)
    session = guest()
    assert register(session["access_token"], authenticator)[0] == 200
    for _ in range(2):
        assert sign_in(authenticator, step=0)[0] == 200


def refused_registration(name, status, code, **kwargs):
    def run():
        session = guest()
        expect_error(register(session["access_token"], Authenticator(-7), **kwargs), status, code)
        status_user, user = call("GET", "/user", bearer=session["access_token"])
        assert user["is_anonymous"] is True, "a refused registration leaves the guest a guest"

    return run


def registered_twice():
    authenticator, signed_in = state[-7]
    expect_error(register(signed_in["access_token"], authenticator), 422, "webauthn_credential_exists")


def registration_needs_sign_in():
    expect_error(call("POST", "/passkeys/registration/options", {}), 401, "no_authorization")


def ten_passkeys_at_most():
    session = guest()
    token = session["access_token"]
    for _ in range(10):
        assert register(token, Authenticator(-7))[0] == 200
    expect_error(call("POST", "/passkeys/registration/options", {}, bearer=token), 422, "too_many_passkeys")
    status, listed = call("GET", "/passkeys", bearer=token)
    assert status == 200 and len(listed) == 10, listed


def list_rename_remove():
    authenticator = Authenticator(-7)
    session = guest()
    token = session["access_token"]
    assert register(token, authenticator)[0] == 200
    status, listed = call("GET", "/passkeys", bearer=token)
    assert status == 200 and len(listed) == 1 and set(listed[0]) >= {"id", "created_at"}, listed
    only = listed[0]["id"]
    status, renamed = call("PATCH", f"/passkeys/{only}", {"friendly_name": "  Ada's iPhone "}, bearer=token)
    assert status == 200 and renamed["friendly_name"] == "Ada's iPhone", renamed
    expect_error(call("PATCH", f"/passkeys/{only}", {"friendly_name": "x" * 121}, bearer=token), 400, "validation_failed")
    expect_error(call("DELETE", f"/passkeys/{only}", bearer=token), 422, "single_identity_not_deletable")
    assert register(token, Authenticator(-8))[0] == 200
    other = guest()["access_token"]
    expect_error(call("DELETE", f"/passkeys/{only}", bearer=other), 404, "webauthn_credential_not_found")
    expect_error(call("PATCH", f"/passkeys/{only}", {"friendly_name": "mine"}, bearer=other), 404, "webauthn_credential_not_found")
    status, _ = call("DELETE", f"/passkeys/{only}", bearer=token)
    assert status == 204, status
    expect_error(sign_in(authenticator), 400, "webauthn_credential_not_found")
    status, listed = call("GET", "/passkeys", bearer=token)
    assert len(listed) == 1 and listed[0]["id"] != only, listed
    state["managed"] = (session["user"]["id"], listed[0]["id"])


def admin_lists_and_removes():
    user_id, passkey_id = state["managed"]
    status, listed = call("GET", f"/admin/users/{user_id}/passkeys", bearer=SERVICE_ROLE)
    assert status == 200 and [item["id"] for item in listed] == [passkey_id], listed
    token = guest()["access_token"]
    expect_error(call("GET", f"/admin/users/{user_id}/passkeys", bearer=token), 403, "not_admin")
    status, _ = call("DELETE", f"/admin/users/{user_id}/passkeys/{passkey_id}", bearer=SERVICE_ROLE)
    assert status == 204, status
    status, listed = call("GET", f"/admin/users/{user_id}/passkeys", bearer=SERVICE_ROLE)
    assert listed == [], listed


def mutations(credential, field):
    """Variants of one credential field: flipped bytes, truncations, extensions, hostile CBOR."""
    original = unb64url(credential["response"][field])
    variants = []
    for _ in range(40):
        data = bytearray(original)
        for _ in range(random.randint(1, 4)):
            data[random.randrange(len(data))] ^= 1 << random.randrange(8)
        variants.append(bytes(data))
    for cut in sorted(random.sample(range(len(original)), 15)):
        variants.append(original[:cut])
    variants += [original + b"\x00", original + os.urandom(64), b"", b"\xff" * 40]
    hostile = [
        b"\xbf\x63fmt\x64none\xff",  # indefinite-length map
        b"\xa3\x63fmt\x64none\x63fmt\x64none\x68authData\x40",  # duplicate key
        b"\x81" * 5000,  # deep nesting
        b"\x5b\xff\xff\xff\xff\xff\xff\xff\xff",  # byte string of 2^64 - 1 bytes
        b"\x9b\xff\xff\xff\xff\xff\xff\xff\xff",  # array of 2^64 - 1 items
        b"\xbb\x00\x00\x00\x01\x00\x00\x00\x00",  # map of 2^32 entries
        b"\x3b\xff\xff\xff\xff\xff\xff\xff\xff",  # -2^64
        b"\x18\x05",  # non-minimal integer
        b"\xc0\x74" + b"2013-03-21T20:04:00Z",  # tag
        b"\xfb\x3f\xf0\x00\x00\x00\x00\x00\x00",  # float
        b"\x7f\x61a\xff",  # indefinite text
        b"\x62\xc3\x28",  # invalid UTF-8
        b"\xa1\x80\x00",  # array as map key
        cbor2.dumps({"fmt": "packed", "attStmt": {"alg": -7, "sig": b"x", "x5c": [b"cert"]}, "authData": original[:37]}),
        cbor2.dumps({"fmt": "tpm", "attStmt": {}, "authData": original}),
        cbor2.dumps({"fmt": "none", "attStmt": {"x": 1}, "authData": original}),
        cbor2.dumps([1, 2, 3]),
        cbor2.dumps({"fmt": 1, "attStmt": [], "authData": "text"}),
    ]
    return variants + hostile


def fuzz_registration():
    random.seed(17)
    count = 0
    for field in ["attestationObject", "clientDataJSON"]:
        template = Authenticator(-7).create(
            {
                "rp": {"id": RP_ID, "name": "Example"},
                "authenticatorSelection": {"userVerification": "required"},
                "pubKeyCredParams": [{"type": "public-key", "alg": -7}],
                "user": {"id": b64url(b"x"), "name": "x", "displayName": "x"},
                "challenge": b64url(b"c"),
            }
        )
        for variant in mutations(template, field):
            session = guest()
            token = session["access_token"]
            status, options = call("POST", "/passkeys/registration/options", {}, bearer=token)
            authenticator = Authenticator(-7)
            credential = authenticator.create(options["options"])
            credential["response"][field] = b64url(variant)
            status, body = call(
                "POST",
                "/passkeys/registration/verify",
                {"challenge_id": options["challenge_id"], "credential": credential},
                bearer=token,
            )
            assert 400 <= status < 500, (field, status, body)
            count += 1
    shapes = [None, 1, "x", [], {}, {"type": "public-key"}, {"type": "public-key", "id": "!!", "response": {}},
              {"type": "public-key", "id": "AA", "response": {"clientDataJSON": 5}},
              {"type": "public-key", "id": "A" * 2000, "response": {"clientDataJSON": "e30"}}]
    for shape in shapes:
        token = guest()["access_token"]
        _, options = call("POST", "/passkeys/registration/options", {}, bearer=token)
        status, body = call("POST", "/passkeys/registration/verify", {"challenge_id": options["challenge_id"], "credential": shape}, bearer=token)
        assert 400 <= status < 500, (shape, status, body)
        count += 1
    for raw in [b"{", b"[]", b'{"challenge_id": 5}', b'{"challenge_id": "not-a-uuid", "credential": {}}', b"\xff" * 10]:
        status, body = call("POST", "/passkeys/authentication/verify", raw=raw)
        assert 400 <= status < 500, (raw, status, body)
        count += 1
    state["fuzzed"] = count


def fuzz_sign_in():
    random.seed(18)
    authenticator = state[-8][0]
    count = 0
    for field in ["authenticatorData", "clientDataJSON", "signature", "userHandle"]:
        _, options = call("POST", "/passkeys/authentication/options", {})
        template = authenticator.get(options["options"])
        for variant in mutations(template, field):
            _, options = call("POST", "/passkeys/authentication/options", {})
            credential = authenticator.get(options["options"])
            credential["response"][field] = b64url(variant)
            status, body = call("POST", "/passkeys/authentication/verify", {"challenge_id": options["challenge_id"], "credential": credential})
            assert 400 <= status < 500, (field, status, body)
            count += 1
    state["fuzzed"] += count
    print(f"     {state['fuzzed']} mutated credentials, all refused with 4xx")


def advance_clock(seconds):
    """Asks the test to move the server's clock, and waits until it has."""
    print(f"clock-advance {seconds}", flush=True)
    line = sys.stdin.readline()
    assert line.strip() == "advanced", f"the test did not move the clock: {line!r}"


def expired_challenges():
    authenticator = state[-7][0]
    _, sign_in_options = call("POST", "/passkeys/authentication/options", {})
    assertion = authenticator.get(sign_in_options["options"])
    session = guest()
    _, registration_options = call("POST", "/passkeys/registration/options", {}, bearer=session["access_token"])
    registration = Authenticator(-257).create(registration_options["options"])
    advance_clock(301)
    late_sign_in = {"challenge_id": sign_in_options["challenge_id"], "credential": assertion}
    expect_error(call("POST", "/passkeys/authentication/verify", late_sign_in), 400, "webauthn_challenge_expired")
    late_registration = {"challenge_id": registration_options["challenge_id"], "credential": registration}
    expect_error(
        call("POST", "/passkeys/registration/verify", late_registration, bearer=session["access_token"]),
        400,
        "webauthn_challenge_expired",
    )
    status, signed_in = sign_in(authenticator)
    assert status == 200, ("a new challenge works", status, signed_in)


step("settings say passkeys are enabled", settings_say_enabled)
step("guest upgraded by an ES256 passkey keeps its id and signs in", upgrade_and_sign_in(-7, "none"))
step("guest upgraded by an RS256 passkey (packed self attestation) signs in", upgrade_and_sign_in(-257, "packed"))
step("guest upgraded by an EdDSA passkey (packed self attestation) signs in", upgrade_and_sign_in(-8, "packed"))
step("ES256 packed self attestation registers", es256_packed)
step("wrong origin refused", refused_sign_in("origin", 400, "webauthn_verification_failed", origin="https://evil.example"))
step("wrong RP id refused", refused_sign_in("rp", 400, "webauthn_verification_failed", rp_id="evil.example"))
step("missing user verification refused", refused_sign_in("uv", 400, "webauthn_verification_failed", flags=UP | BE | BS))
step("missing user presence refused", refused_sign_in("up", 400, "webauthn_verification_failed", flags=UV | BE | BS))
step("backup eligibility that changes refused", refused_sign_in("be", 400, "webauthn_verification_failed", fido2_refuses=False, flags=UP | UV))
step("tampered signature refused", refused_sign_in("sig", 400, "webauthn_verification_failed", tamper=True))
step("replayed challenge refused", replayed_challenge)
step("a failed attempt uses the challenge up", failed_attempt_burns_challenge)
step("unknown credential refused", unknown_credential)
step("someone else's user handle refused", someone_elses_user_handle)
step("sign-count regression refused", sign_count_regression)
step("zero counters (synced passkeys) sign in again", zero_counters_are_fine)
step("a cloned passkey racing the original: one of the two signs in", cloned_passkey_racing_the_original)
step("registration: wrong origin refused", refused_registration("origin", 400, "webauthn_verification_failed", origin="https://evil.example"))
step("registration: wrong RP id refused", refused_registration("rp", 400, "webauthn_verification_failed", rp_id="evil.example"))
step("registration: missing user verification refused", refused_registration("uv", 400, "webauthn_verification_failed", flags=UP))
step("registration: wrong client data type refused", refused_registration("type", 400, "webauthn_verification_failed", kind="webauthn.get"))
step("registration: unknown attestation format refused", refused_registration("fmt", 400, "webauthn_verification_failed", fmt="fido-u2f"))
step("the same credential cannot be registered twice", registered_twice)
step("registration needs a signed-in caller", registration_needs_sign_in)
step("ten passkeys per account at most", ten_passkeys_at_most)
step("list, rename and remove; never the last way to sign in", list_rename_remove)
step("admin lists and removes a user's passkeys", admin_lists_and_removes)
step("fuzz: mutated registrations are refused with 4xx", fuzz_registration)
step("fuzz: mutated assertions are refused with 4xx", fuzz_sign_in)
step("expired challenges refused (registration and sign-in)", expired_challenges)
step("no request got a 5xx", no_server_errors)

print(f"regressed-user {state.get('regressed_user', '-')}")
print(f"raced-user {state.get('raced_user', '-')}")
finish()
