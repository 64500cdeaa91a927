"""The steps of an interop script: each runs, passes or fails, and the run goes on.

Every script in this folder reports the same way, which its Swift test reads: a line per step
("ok   <name>" or "FAIL <name>: <error>"), then a closing "<prefix>N passed, N failed" line, and
an exit status that is non-zero when a step failed. Lines are flushed at once, so that a test
reading the output while the script runs (the console's test answers "CODE?") sees each line.
"""

import os
import sys

# The browser the scripts drive, as the Swift tests chose it (InteropScript.chromium): Debian's
# chromium-headless-shell, Chromium's own headless browser, unless another is named.
CHROMIUM = os.environ.get("GATEHOUSE_CHROMIUM", "/usr/bin/chromium-headless-shell")

passed = 0
failed = 0


def step(name, function):
    """Runs `function`; a failure is reported and counted, and the script goes on."""
    global passed, failed
    try:
        function()
        passed += 1
        print(f"ok   {name}", flush=True)
    except Exception as error:  # noqa: BLE001 - report every failure and go on
        failed += 1
        print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)


def finish(prefix=""):
    """Prints the closing line and ends the script: status 1 if a step failed."""
    print(f"{prefix}{passed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed else 0)
