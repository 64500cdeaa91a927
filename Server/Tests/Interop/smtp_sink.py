"""A real SMTP server for the tests (aiosmtpd): records every message as a JSON line.

Usage: python3 smtp_sink.py PORT OUT_FILE [--tls CERT KEY] [--auth USER PASSWORD]

With --tls it offers STARTTLS and requires it before MAIL; with --auth it requires AUTH.
Prints "ready" once listening; runs until killed.
"""

import argparse
import json
import os
import signal
import ssl
import sys
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

parser = argparse.ArgumentParser()
parser.add_argument("port", type=int)
parser.add_argument("out")
parser.add_argument("--tls", nargs=2)
parser.add_argument("--auth", nargs=2)
args = parser.parse_args()


class Recorder:
    async def handle_DATA(self, server, session, envelope):
        with open(args.out, "a") as out:
            record = {"from": envelope.mail_from, "to": envelope.rcpt_tos, "data": envelope.content.decode("utf-8", "replace")}
            out.write(json.dumps(record) + "\n")
        return "250 OK"


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = (
        isinstance(auth_data, LoginPassword)
        and args.auth is not None
        and auth_data.login.decode() == args.auth[0]
        and auth_data.password.decode() == args.auth[1]
    )
    return AuthResult(success=ok)


options = {}
if args.tls:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(args.tls[0], args.tls[1])
    options.update(tls_context=context, require_starttls=True)
if args.auth:
    options.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(args.tls))
else:
    options.update(auth_require_tls=False)

# aiosmtpd's event-loop thread keeps the process alive on SIGTERM: exit at once instead.
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))

controller = Controller(Recorder(), hostname="127.0.0.1", port=args.port, **options)
controller.start()
print("ready", flush=True)
try:
    while True:
        time.sleep(3600)
except KeyboardInterrupt:
    pass
finally:
    controller.stop()
    sys.exit(0)
