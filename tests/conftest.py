"""Fixtures shared across test folders.

One Playwright instance per test session: its sync API refuses a second instance
while the first is alive, so every test that drives Chromium (tests/browser,
tests/widgets' redraw checks) takes this one `browser`.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import CHROMIUM_ARGS, chromium_path


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
