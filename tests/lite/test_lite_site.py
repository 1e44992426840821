"""The JupyterLite site (scripts/lite.sh), run offline in Chromium.

The site is built once per session by scripts/lite.sh (in its own venv, .venv-lite)
with a small widget notebook beside the series, served from 127.0.0.1 by a plain
static file server (with a static host's cache header), and opened in JupyterLite's
Notebook page, each notebook in a new page of one offline browser. Its Pyodide kernel
starts in the browser from the site's own copy of Pyodide and wheels: every request
that is not to 127.0.0.1 fails (a dead proxy), and the server's log must show Pyodide and the
kvwidgets wheel being fetched from it. Checked: the widget draws a plotly figure,
Python's assignment reaches the browser, a slider move redraws and reaches the
kernel; a cell that needs pandas prints the one-line note instead of failing; and
notebook 05 of the series runs to its end with Run All.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import tempfile
import threading
import zipfile
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.browser.conftest import CHROMIUM_ARGS, chromium_path
from tests.browser.jupyterlab import REPO_ROOT, notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "lite_widget.ipynb"
CELLS = [
    "import kvwidgets as kw\nw = kw.UsersThatFit()\nw",
    "w.context = 32768",
    'print("context in the kernel:", w.context)',
    # the kernel's own modules came precompiled: the pyc the site shipped carries this Python's magic
    "import importlib.util, IPython\n"
    "print('pyc accepted:', open(IPython.__spec__.cached, 'rb').read(4) == importlib.util.MAGIC_NUMBER)",
    "import sys\nprint(sys.platform)\nfrom kvwidgets.tables import users_table\nusers_table('llama-3-8b', ['H100'], [8192])",
]
PLOT_DATA = (
    "() => { const p = document.querySelector('.jp-OutputArea .kv-plot'); "
    "return p && p.data ? JSON.stringify(p.data) : null; }"
)


@pytest.fixture(scope="session")
def lite_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("lite")
    contents = root / "contents"
    contents.mkdir()
    for nb in (REPO_ROOT / "notebooks").glob("*.ipynb"):
        shutil.copy2(nb, contents / nb.name)
    (contents / NOTEBOOK).write_text(json.dumps(notebook(CELLS)), encoding="utf-8")
    site = root / "site"
    # lite.sh builds in its own venv (.venv-lite): the Pyodide kernel's lab extension must stay
    # out of the venv whose JupyterLab and Voila the other browser tests run
    proc = subprocess.run(
        ["bash", str(REPO_ROOT / "scripts" / "lite.sh"), str(site), "--contents", str(contents)],
        capture_output=True,
        text=True,
        timeout=1500,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return site


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".whl": "application/octet-stream",
    }

    def log_message(self, format, *args):  # keep a record, print nothing
        self.server.requests.append(self.path.split("?")[0])

    def end_headers(self):
        # What a static host such as GitHub Pages sends (ten minutes): a reader's browser
        # keeps the site's Pyodide and its compiled code between the notebooks they open.
        # Python's file server sends no Cache-Control, so every page would fetch and
        # compile Pyodide again (about 6 of 21 CPU-seconds of a notebook's run here).
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()


@pytest.fixture(scope="session")
def served(lite_site):
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(lite_site)))
    server.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_site_holds_pyodide_and_wheels(lite_site):
    config = json.loads((lite_site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert kernel["disablePyPIFallback"] is True
    pyodide = lite_site / "static" / "pyodide"
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())["packages"]
    # every lock entry is a file of the site, and nothing else is named
    for entry in lock.values():
        assert (pyodide / entry["file_name"]).is_file(), entry["file_name"]
    assert {"micropip", "ipython", "comm", "jedi", "kvwidgets", "anywidget", "ipywidgets"} <= set(lock)
    assert "pandas" not in lock and "numpy" not in lock
    assert lock["kvwidgets"]["imports"] == ["kvwidgets"]
    assert set(lock["kvwidgets"]["depends"]) == {"anywidget", "ipywidgets", "traitlets"}
    # what a kernel start imports comes precompiled, as unchecked hash-based pycs (PEP 552
    # flags 0b01), beside the source it was compiled from; all of one Python's magic
    python = json.loads((pyodide / "pyodide-lock.json").read_text())["info"]["python"]  # "3.14.2"
    tag = "cpython-" + "".join(python.split(".")[:2])
    pycs = {}
    for archive, pyc, source in [
        ("python_stdlib.zip", "asyncio/__init__.pyc", "asyncio/__init__.py"),  # zipimport: beside
        ("python_stdlib.zip", "ast.pyc", "ast.py"),
        (lock["ipython"]["file_name"], f"IPython/__pycache__/__init__.{tag}.pyc", "IPython/__init__.py"),
        (
            lock["kvwidgets"]["file_name"],
            f"kvwidgets/__pycache__/__init__.{tag}.pyc",
            "kvwidgets/__init__.py",
        ),
    ]:
        with zipfile.ZipFile(pyodide / archive) as zf:
            assert {pyc, source} <= set(zf.namelist()), (archive, pyc)
            pycs[pyc] = zf.read(pyc)[:8]
    assert {header[4:8] for header in pycs.values()} == {(1).to_bytes(4, "little")}
    assert len({header[:4] for header in pycs.values()}) == 1


@pytest.fixture(scope="session")
def offline_browser(browser, tmp_path_factory):
    """A Chromium of its own, with a profile kept across the tests, whose every
    non-loopback request fails.

    Not Playwright's request routing: it does not see requests a service worker makes
    (JupyterLite registers one), so it could not prove the site offline; it also turns
    the browser's cache off. Instead every request goes to a proxy on a closed loopback
    port; Chromium bypasses the proxy only for loopback addresses, so anything else
    fails, from any worker. One profile for every notebook, as a reader's browser is:
    the site's files and compiled code stay in its cache between notebooks, while each
    notebook gets a page, and so a Pyodide kernel, of its own. `failed` records every
    failed request of the session.
    """
    context = browser.browser_type.launch_persistent_context(
        tmp_path_factory.mktemp("lite-profile"),
        executable_path=chromium_path(),
        headless=True,
        args=[*CHROMIUM_ARGS, "--proxy-server=http://127.0.0.1:9"],
        viewport={"width": 1400, "height": 1000},
    )
    context.failed = []
    context.on("requestfailed", lambda r: context.failed.append(r.url))
    yield context
    context.close()


@pytest.fixture
def offline_page(offline_browser):
    """A new page of the offline browser; `page.failed()` lists the requests that have
    failed since it opened."""
    page = offline_browser.new_page()
    first = len(offline_browser.failed)
    page.console = []
    page.on("console", lambda m: page.console.append(f"{m.type}: {m.text[:300]}"))
    page.on("pageerror", lambda e: page.console.append(f"page error: {e}"))
    page.failed = lambda: offline_browser.failed[first:]
    yield page
    page.close()


def test_widget_notebook_runs_offline(offline_page, served):
    base = f"http://127.0.0.1:{served.server_address[1]}"
    page = offline_page
    try:
        page.set_default_timeout(180_000)  # Pyodide and IPython start in the browser: slow on 2 cores
        page.goto(f"{base}/notebooks/index.html?path={NOTEBOOK}")
        page.wait_for_selector(".jp-Notebook .jp-Cell")
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']")
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()

        page.wait_for_selector(".jp-OutputArea .kv-plot svg.main-svg")
        page.wait_for_function(f"({PLOT_DATA})() !== null && JSON.parse(({PLOT_DATA})()).length > 0")
        box = page.locator('.jp-OutputArea [data-kv="context-box"]')
        page.wait_for_function(
            "document.querySelector('.jp-OutputArea [data-kv=\"context-box\"]').value === '32768'"
        )
        cells = page.locator(".jp-Notebook .jp-Cell")
        page.wait_for_function(
            "[...document.querySelectorAll('.jp-Notebook .jp-Cell')][2]"
            ".querySelector('.jp-OutputArea-output')?.textContent.includes('context in the kernel: 32768')"
        )
        page.wait_for_function(
            "[...document.querySelectorAll('.jp-Notebook .jp-Cell')][3]"
            ".querySelector('.jp-OutputArea-output')?.textContent.includes('pyc accepted: True')"
        )
        # the pandas-only part (the last cell) says why it cannot run here (Python in the browser: emscripten)
        page.wait_for_function(
            "[...document.querySelectorAll('.jp-Notebook .jp-Cell')][4]"
            ".querySelector('.jp-OutputArea')?.textContent.includes('[JupyterLite] this cell needs pandas')"
        )
        tables_out = cells.nth(4).locator(".jp-OutputArea").text_content()
        assert "emscripten" in tables_out and "Traceback" not in tables_out, tables_out
        # every cell has run: the kernel is idle before the slider moves (a widget message
        # sent while the Pyodide kernel was still running cells did not always arrive:
        # the kernel then kept 32768; 5 of 7 tries here without this wait)
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']")
        users_at_32k = page.locator('.jp-OutputArea [data-kv-out="users"]').text_content()

        before = page.evaluate(PLOT_DATA)
        page.locator('.jp-OutputArea [data-kv="context"]').fill("64")  # stop 64 = 16,384 tokens
        page.wait_for_function(f"({PLOT_DATA})() !== {json.dumps(before)}")
        assert box.input_value() == "16384"
        assert page.locator('.jp-OutputArea [data-kv-out="users"]').text_content() != users_at_32k

        # ... and the kernel got the new value: run the print cell again
        cells.nth(2).locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")
        page.wait_for_function(
            "[...document.querySelectorAll('.jp-Notebook .jp-Cell')][2]"
            ".querySelector('.jp-OutputArea-output')?.textContent.includes('context in the kernel: 16384')"
        )

    except Exception:
        shot = Path(tempfile.gettempdir()) / "kvw-lite-failure.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"screenshot: {shot}\nrequests: {served.requests[-40:]}")
        print("\n".join(page.console[-60:]))
        raise
    outside = [u for u in page.failed() if not u.startswith(base)]
    assert outside == [], f"the site tried to reach the network: {outside}"
    # ... and it could not have: the page really is offline
    assert page.evaluate("fetch('http://example.com/').then(() => 'reached', () => 'blocked')") == "blocked"
    fetched = set(served.requests)
    assert "/static/pyodide/pyodide.asm.wasm" in fetched
    assert any(p.startswith("/static/pyodide/kvwidgets-") for p in fetched)


# A cell has run when its prompt shows [n]; a cell whose input is hidden (the lecture hides
# its code) shows no prompt, so there its output must be there instead.
ALL_RUN = (
    "() => { const cells = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')]; "
    "return cells.length > 0 && cells.every(c => /\\[\\d+\\]/.test(c.querySelector('.jp-InputPrompt')?.textContent || '')"
    " || (!!c.querySelector('.jp-InputPlaceholder') && !!c.querySelector('.jp-OutputArea-child'))); }"
)


def run_all(page, base: str, name: str) -> str:
    """Open notebook `name` of the site at `base` as a reader does, Run All, wait until every
    cell has run and the kernel is idle; return the text of its outputs."""
    page.set_default_timeout(180_000)  # Pyodide and IPython start in the browser: slow on 2 cores
    page.goto(f"{base}/notebooks/index.html?path={name}")
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']")
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    page.wait_for_function(ALL_RUN)
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']")
    return "\n".join(page.locator(".jp-Notebook .jp-OutputArea").all_text_contents())


SERIES = sorted(p.name for p in (REPO_ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("name", SERIES)
def test_series_notebook_runs_offline(offline_page, served, name):
    """Each notebook of the series as a reader opens it from the site: Run All goes to
    the end and no cell fails (cells that need pandas print the one-line note)."""
    base = f"http://127.0.0.1:{served.server_address[1]}"
    page = offline_page
    try:
        text = run_all(page, base, name)
        assert "Traceback" not in text and "Error" not in text, text[-3000:]
        if name == "05_users_that_fit.ipynb":  # its widgets draw; its tables give the note
            page.wait_for_selector(".jp-OutputArea .kv-plot svg.main-svg")
            assert text.count("[JupyterLite] this cell needs pandas") >= 2
            assert "users" in text  # the calculation cells printed their results
    except Exception:
        shot = Path(tempfile.gettempdir()) / f"kvw-lite-{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"screenshot: {shot}")
        print("\n".join(page.console[-40:]))
        raise
    outside = [u for u in page.failed() if not u.startswith(base)]
    assert outside == [], f"the site tried to reach the network: {outside}"
