"""An nbconvert page with widgets, working offline: `nbconvert --execute --to html` of a
notebook showing three widgets, with kvwidgets.export.offline_assets beside it; once
with NBCONVERT_FLAGS, once with nbconvert's CDN addresses rewritten by localize_page
(the way for Quarto pages, whose addresses are fixed).

The folder is served on 127.0.0.1 and Chromium reaches nothing else. Checked: the
widgets draw from the saved widget state through require.js, the html-manager and
anywidget loaded from the folder; plotly.js and the shared library (static/library.js)
are stored once on the page (the SharedAssets model) and evaluated once; moving a slider redraws its widget only. MathJax,
which nbconvert's template always asks a CDN for, is the one request allowed to fail.
"""

from __future__ import annotations

import functools
import http.server
import json
import subprocess
import sys
import threading

import pytest

import kvwidgets as kw
from kvwidgets.export import localize_page, offline_assets
from kvwidgets.export.offline import NBCONVERT_FLAGS
from kvwidgets.widgets.front_end import library_hash, library_source, plotly_source

from .conftest import PageWatch, WarmPages
from .jupyterlab import notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CELLS = [
    "import kvwidgets as kw",
    "kw.UsersThatFit()",
    "kw.ContextVsUsers()",
    "kw.PerTokenBytes(model='qwen3-8b')",
]
WIDGETS_ON_PAGE = (kw.UsersThatFit, kw.ContextVsUsers, kw.PerTokenBytes)  # the cells above
MATHJAX = "cdnjs.cloudflare.com/ajax/libs/mathjax/"
PLOTS = "() => [...document.querySelectorAll('.kv-plot')].map(p => p.data ? JSON.stringify(p.data) : null)"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nbconvert-site")
    offline_assets(folder)  # npm tarballs come from the registry once, then ~/.cache/kvwidgets/npm
    source = folder / "three.ipynb"
    source.write_text(json.dumps(notebook(CELLS)), encoding="utf-8")
    for flags, name in ((NBCONVERT_FLAGS, "three"), ((), "cdn")):
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "jupyter",
                "nbconvert",
                "--execute",
                "--to",
                "html",
                *flags,
                "--output-dir",
                str(folder),
                "--output",
                name,
                str(source),
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
    # built with nbconvert's CDN addresses (as Quarto's are), then pointed at the local copies
    assert localize_page(folder / "cdn.html") == 2
    return folder


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output clean
        pass


def test_the_page_holds_plotly_js_and_the_library_once(site):
    page = (site / "three.html").read_text(encoding="utf-8")
    # the widget state is in the page; the bundle and library texts only in the shared model
    assert "application/vnd.jupyter.widget-state+json" in page
    assert page.count("window.Plotly = Plotly") == 1 and page.count("function createApp(") == 1
    # nbconvert's template (its CSS) is about 280 KB; each widget's own state is its ESM and
    # CSS and one shape per bundled preset (about 1 KB each), so the bound grows with the
    # widgets' own code and the presets, never with a second copy of the 1.2 MB bundle or
    # the library
    shared = len(plotly_source().encode()) + len(library_source().encode())
    shapes = 1_000 * len(kw.list_presets())
    own = sum(len(w._esm.encode()) + len(w._css.encode()) + shapes for w in WIDGETS_ON_PAGE)
    assert len(page.encode()) < shared + 300_000 + own
    assert 'src="require.js"' in page and "'embed-amd.js'" in page


@pytest.mark.parametrize("page_name", ["three.html", "cdn.html"])
def test_widgets_draw_and_redraw_offline(warm_context, server, page_name):
    context = WarmPages(warm_context, viewport={"width": 1200, "height": 900})
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        page.set_default_timeout(30_000)
        loaded = []
        page.on("requestfinished", lambda r: loaded.append(r.url))
        page.goto(f"{server}/{page_name}")
        page.wait_for_function(
            f"({PLOTS})().length === 3 && ({PLOTS})().every(d => d && JSON.parse(d).length > 0)"
        )
        assert (
            page.evaluate(
                "[...document.querySelectorAll('.kv-plot')].map(p => !!p.querySelector('svg.main-svg'))"
            )
            == [True] * 3
        )
        # the three scripts came from the folder, and plotly.js was evaluated once (one blob import)
        for name in ("require.js", "embed-amd.js", "anywidget.js"):
            assert f"{server}/{name}" in loaded, loaded
        assert page.evaluate("typeof globalThis.__kvwidgetsPlotly") == "object"
        assert page.evaluate("Object.keys(globalThis.__kvwidgetsLibrary)") == [library_hash()]

        before = page.evaluate(PLOTS)
        page.locator('[data-kv="context"]').first.fill("64")  # stop 64 = 16,384 tokens
        page.wait_for_function(f"({PLOTS})()[0] !== {json.dumps(before[0])}")
        after = page.evaluate(PLOTS)
        assert after[1:] == before[1:]
        assert page.locator('[data-kv="context-box"]').first.input_value() == "16384"

        assert all(MATHJAX in url for url in watch.blocked), watch.blocked
        watch.blocked.clear()
        watch.assert_clean(allow_errors=("net::ERR_INTERNET_DISCONNECTED",))
    finally:
        context.close()
