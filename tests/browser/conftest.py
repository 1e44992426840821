"""Chromium through Playwright, proven offline: shared fixtures of the browser tests.

Debian's Chromium is used (KVW_CHROMIUM, else /usr/bin/chromium); no browser is ever
downloaded. A missing Chromium fails the tests rather than skipping them: the
test command installs it, so its absence is a broken setup, not an optional extra.
Every request that is not file://, blob:, data: or localhost is aborted and
recorded, and each test asserts there were none, along with no console errors.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1"}


def chromium_path() -> str:
    candidate = os.environ.get("KVW_CHROMIUM") or "/usr/bin/chromium"
    found = shutil.which(candidate) if not os.path.isabs(candidate) else candidate
    if not found or not os.access(found, os.X_OK):
        pytest.fail(
            f"Chromium not found at {candidate!r} (set KVW_CHROMIUM, or run scripts/test.sh, "
            "which installs Debian's chromium package)",
            pytrace=False,
        )
    return found


class PageWatch:
    """A page plus what it tried to fetch from outside and what it logged as errors."""

    def __init__(self, page):
        self.page = page
        self.blocked: list[str] = []
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        page.route("**/*", self._route)

    def _console(self, message):
        if message.type == "error":
            self.errors.append(f"console.error: {message.text}")

    def _route(self, route):
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in {"file", "blob", "data"} or (parts.hostname or "") in LOCAL_HOSTS:
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort("internetdisconnected")

    def assert_clean(self, *, allow_errors: tuple[str, ...] = ()):
        assert self.blocked == [], f"the page tried to reach the network: {self.blocked}"
        errors = [e for e in self.errors if not any(a in e for a in allow_errors)]
        assert errors == [], "\n".join(errors)


# Apps other than JupyterLab and Notebook 7 (Voila, jupyterlab-rise's slideshow) load every
# installed lab extension. Notebook 7's own (@jupyter-notebook/lab-extension, installed for
# the Notebook 7 keyboard test) asks them for @jupyterlab/docregistry, which they do not
# share, and module federation logs RUNTIME-012. It has nothing to do with the widgets.
NOTEBOOK7_EXTENSION_ELSEWHERE = '"shareKey":"@jupyterlab/docregistry"'


@pytest.fixture(scope="session")
def warm_context(browser):
    """One browser context for the tests' pages, with a blank page kept open in it.

    A page opened in a new context costs Chromium about twice the CPU time of a new
    page in a context that stays open (1.25 against 0.64 CPU-seconds for an exported
    page, measured on 2 cores): the kept page holds the renderer, and with it V8's
    compiled plotly.js, between tests. Each test still gets a page of its own, so no
    DOM, script state or route outlives it; what a test sets on its page (viewport,
    colour scheme, CDP emulation) dies with the page.
    """
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.new_page()  # the kept page
    yield context
    context.close()


class WarmPages:
    """Stands where a test would make a browser context of its own: new_page() opens a
    page in the warm context with this viewport and colour scheme, close() closes the
    pages it opened (the warm context stays open for the next test)."""

    def __init__(self, context, *, viewport: dict, color_scheme: str | None = None):
        self.context = context
        self.viewport = viewport
        self.color_scheme = color_scheme
        self.pages: list = []

    def new_page(self):
        page = self.context.new_page()
        page.set_viewport_size(self.viewport)
        if self.color_scheme is not None:
            page.emulate_media(color_scheme=self.color_scheme)
        self.pages.append(page)
        return page

    def new_cdp_session(self, page):
        return self.context.new_cdp_session(page)

    def close(self):
        for page in self.pages:
            page.close()


@pytest.fixture
def watched(warm_context):
    page = warm_context.new_page()
    page.set_default_timeout(20_000)
    yield PageWatch(page)
    page.close()


def open_exported(watch: PageWatch, path: Path, *, expect: str = "ready") -> None:
    """Load an exported page from disk and wait until every widget has rendered."""
    watch.page.goto(Path(path).resolve().as_uri())
    watch.page.wait_for_selector("html[data-kvw-export]", state="attached")
    status = watch.page.get_attribute("html", "data-kvw-export")
    assert status == expect, f"export runtime finished as {status!r}; page errors: {watch.errors}"


@pytest.fixture(scope="session")
def gallery_written(tmp_path_factory):
    """The gallery (kvwidgets.export.gallery) written once for every test that opens it:
    writing it snapshots each widget in each state, light and dark (about 5 CPU-seconds).

    The browser stage runs in two pytest-xdist workers (scripts/test.sh), each with its
    own session: the first worker to need the gallery writes it into the folder the
    workers share (the parent of each one's own temporary folder), under a lock the
    other waits on, and both read that one copy."""
    from filelock import FileLock

    from kvwidgets.export import gallery

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    folder, written = shared / "gallery", shared / "gallery-index.txt"
    with FileLock(str(shared / "gallery.lock")):
        if not written.exists():
            written.write_text(str(gallery.write_gallery(folder)), encoding="utf-8")
    return folder, Path(written.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def shared_lab(tmp_path_factory):
    """One JupyterLab server for the hosts stage's tests that need nothing of their own from
    it (no setting, no other app): each writes its own notebook into it, opens it in a page
    of its own (its own kernel), and reads the server's log from where it began
    (LabServer.log_mark). A server's start and stop cost about 4 CPU-seconds."""
    from .jupyterlab import LabServer

    with LabServer(tmp_path_factory.mktemp("shared-lab")) as server:
        yield server
