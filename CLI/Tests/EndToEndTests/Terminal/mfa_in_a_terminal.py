"""Drives `gatehouse` in a pseudo-terminal, as a person at a terminal would: enrol an
authenticator app (the QR code drawn in the terminal is read back by zbar), then log in with the
password and the app's code. Codes come from PyPI's pyotp.

Usage: python3 mfa_in_a_terminal.py GATEHOUSE_BINARY SERVER_URL CONFIG_DIR EMAIL PASSWORD
Prints what it saw; exits non-zero at the first step that fails.
"""

import os
import pty
import re
import select
import sys
import time

import pyotp
from pyzbar import pyzbar

BINARY, URL, CONFIG, EMAIL, PASSWORD = sys.argv[1:6]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


class Terminal:
    """One `gatehouse` run on a pseudo-terminal."""

    def __init__(self, *arguments):
        environment = dict(os.environ, XDG_CONFIG_HOME=CONFIG, TERM="xterm")
        environment.pop("GATEHOUSE_URL", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(BINARY, [BINARY, *arguments, "--server", URL], environment)
        self.seen = ""

    def expect(self, text, timeout=30):
        deadline = time.time() + timeout
        while text not in ANSI.sub("", self.seen):
            remaining = deadline - time.time()
            if remaining <= 0:
                raise AssertionError(f"never saw {text!r}; saw:\n{ANSI.sub('', self.seen)}")
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"ended before {text!r}; saw:\n{ANSI.sub('', self.seen)}")
                self.seen += chunk.decode("utf-8", "replace")
        return ANSI.sub("", self.seen)

    def send(self, line):
        os.write(self.fd, (line + "\n").encode())

    def finish(self):
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.seen += chunk.decode("utf-8", "replace")
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status), ANSI.sub("", self.seen)


def decode_half_blocks(lines):
    """The text of a QR code drawn for a dark terminal (light modules are blocks)."""
    width = max(len(line) for line in lines)
    rows = []
    for line in lines:
        line = line.ljust(width)
        rows += [[c in "█▀" for c in line], [c in "█▄" for c in line]]
    pad = 8
    # zbar's scanner misses some codes at one pixel size and reads them at another: a code that
    # no size reads is broken, one that some size reads is what a phone's camera sees.
    for scale in (4, 3, 5, 6, 8):
        side_w, side_h = (width + 2 * pad) * scale, (len(rows) + 2 * pad) * scale
        pixels = bytearray([255]) * (side_w * side_h)
        for y, row in enumerate(rows):
            for x, light in enumerate(row):
                if not light:
                    for dy in range(scale):
                        start = ((y + pad) * scale + dy) * side_w + (x + pad) * scale
                        pixels[start:start + scale] = bytes(scale)
        found = pyzbar.decode((bytes(pixels), side_w, side_h), symbols=[pyzbar.ZBarSymbol.QRCODE])
        if found:
            return found[0].data.decode()
    return None


# Enrol: the QR code, the secret and the URI appear, then the first code is asked for.
enrol = Terminal("mfa", "enroll", "--name", "laptop")
screen = enrol.expect("Code: ")
uri = re.search(r"URI: (otpauth://\S+)", screen).group(1)
secret = re.search(r"Or enter the secret: ([A-Z2-7]+)", screen).group(1)
qr_lines = [line for line in screen.split("Scan this QR code with your authenticator app:")[1]
            .split("Or enter the secret")[0].split("\n") if line.strip(" ") != "" or "█" in line]
qr_lines = [line for line in qr_lines if line]
decoded = decode_half_blocks(qr_lines)
assert decoded == uri, f"the terminal QR code reads {decoded!r}, not the URI {uri!r}"
print("ok   the QR code in the terminal decodes to the otpauth URI")
totp = pyotp.parse_uri(uri)
assert totp.secret == secret
enrol.send(totp.now())
status, screen = enrol.finish()
assert status == 0 and "Two-factor sign-in is on" in screen, screen
print("ok   enrolled with the app's first code")

logout = Terminal("logout")
assert logout.finish()[0] == 0

# Log in: the password (not echoed), then the app's next code.
login = Terminal("login", "--email", EMAIL)
login.expect("Password: ")
login.send(PASSWORD)
screen = login.expect("Authenticator code: ")
assert PASSWORD not in screen, "the password was echoed"
login.send(totp.at(time.time() + 30))
status, screen = login.finish()
assert status == 0 and f"Signed in as {EMAIL}" in screen, screen
print("ok   logged in with the password and the app's code")

status_run = Terminal("status")
code, screen = status_run.finish()
assert code == 0 and "aal2 (two-factor)" in screen, screen
print("ok   status shows the two-factor level")
print("terminal: all passed")
