"""A fake GitHub (an OAuth app's authorize page and token endpoint, and the REST API's /user and
/user/emails, as GitHub Enterprise Server lays them out under /api/v3) on a loopback port, for the
CLI's end-to-end tests of `gatehouse login --provider github`.

Usage: python3 fake_github.py PORT_FILE CLIENT_ID CLIENT_SECRET

Writes its port to PORT_FILE once it listens. The authorize page shows "Allow" (#allow) and
"Cancel" (#deny) links to the redirect URI, as a person sees GitHub's consent page; the code of
"Allow" is bound to the page's PKCE challenge (S256), checked at the token endpoint with the
client secret. POST /control {"id", "login", "email", "verified"} sets the person who consents
next. Standard library only.
"""

import base64
import hashlib
import html
import json
import secrets
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT_FILE, CLIENT_ID, CLIENT_SECRET = sys.argv[1], sys.argv[2], sys.argv[3]
lock = threading.Lock()
person = {"id": 4242, "login": "ada", "email": "ada@example.com", "verified": True}
codes = {}  # code -> (challenge, redirect_uri, person)
tokens = {}  # access token -> person


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="application/json"):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        text = self.rfile.read(length).decode()
        return text, dict(urllib.parse.parse_qsl(text))

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/login/oauth/authorize":
            if query.get("client_id") != CLIENT_ID or query.get("code_challenge_method") != "S256":
                return self.reply(400, "bad authorize request", "text/plain")
            redirect, state = query["redirect_uri"], query.get("state", "")
            code = secrets.token_urlsafe(16)
            with lock:
                codes[code] = (query["code_challenge"], redirect, dict(person))
            allow = redirect + "?" + urllib.parse.urlencode({"code": code, "state": state})
            deny = redirect + "?" + urllib.parse.urlencode(
                {"error": "access_denied", "error_description": "The user has denied your application access.", "state": state}
            )
            page = (
                "<!doctype html><html><body><h1>Authorize the app</h1>"
                f'<a id="allow" href="{html.escape(allow)}">Allow</a> '
                f'<a id="deny" href="{html.escape(deny)}">Cancel</a></body></html>'
            )
            return self.reply(200, page, "text/html; charset=utf-8")
        token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        with lock:
            who = tokens.get(token)
        if who is None:
            return self.reply(401, json.dumps({"message": "Bad credentials"}))
        if url.path == "/api/v3/user":
            return self.reply(200, json.dumps({"id": who["id"], "login": who["login"], "name": who["login"].title()}))
        if url.path == "/api/v3/user/emails":
            emails = [{"email": who["email"], "primary": True, "verified": who["verified"]}] if who["email"] else []
            return self.reply(200, json.dumps(emails))
        return self.reply(404, json.dumps({"message": "Not Found"}))

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/control":
            length = int(self.headers.get("Content-Length") or 0)
            with lock:
                person.update(json.loads(self.rfile.read(length)))
            return self.reply(200, "{}")
        if url.path == "/login/oauth/access_token":
            _, form = self.form()
            with lock:
                entry = codes.pop(form.get("code", ""), None)
            if entry is None or form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET:
                return self.reply(200, json.dumps({"error": "bad_verification_code"}))
            challenge, redirect, who = entry
            digest = hashlib.sha256(form.get("code_verifier", "").encode()).digest()
            if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != challenge or form.get("redirect_uri") != redirect:
                return self.reply(200, json.dumps({"error": "bad_verification_code"}))
            token = "gho_" + secrets.token_urlsafe(24)
            with lock:
                tokens[token] = who
            return self.reply(200, json.dumps({"access_token": token, "token_type": "bearer", "scope": "user:email"}))
        return self.reply(404, json.dumps({"message": "Not Found"}))


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORT_FILE + ".tmp", "w") as file:
    file.write(str(server.server_address[1]))
import os  # noqa: E402 - only for the atomic rename

os.replace(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
