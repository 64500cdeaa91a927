"""Plays the person at the browser for `gatehouse login --provider …`: Debian's headless Chromium
(the browser GATEHOUSE_CHROMIUM names, as ProviderLoginEndToEndTests chose it;
chromium-headless-shell by default),
driven by Playwright for Python, opens the sign-in address the CLI printed, clicks "Allow" (or
"Cancel") on the provider's consent page, and waits for the CLI's loopback page.

Usage: python3 click_through.py allow|deny URL   (the URL last: it serves as $GATEHOUSE_BROWSER)

Every wait is bounded (30 s a step, 120 s in all); prints the address the browser ended at;
exits non-zero on failure.
"""

import os
import signal
import sys

from playwright.sync_api import sync_playwright

CHOICE, URL = sys.argv[1], sys.argv[2]
CHROMIUM = os.environ.get("GATEHOUSE_CHROMIUM", "/usr/bin/chromium-headless-shell")
signal.alarm(120)

with sync_playwright() as playwright:
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
    )
    page = browser.new_page()
    page.set_default_timeout(30_000)
    page.goto(URL)
    page.click("#allow" if CHOICE == "allow" else "#deny")
    # The CLI's loopback page (after the server's /callback redirected there).
    page.wait_for_selector("#status")
    print(page.url, flush=True)
    browser.close()
