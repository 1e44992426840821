"""kvwidgets in a live Voila app, Chromium reaching only Voila's server.

Voila runs the notebook and shows its outputs with JupyterLab's widget manager: two
widgets of different classes get plotly.js from the kernel's one SharedAssets model
(imported once on the page) and draw, and a slider redraws its widget only. Voila's
page template asks a CDN for Font Awesome; that request is the only one allowed to fail.
"""

from __future__ import annotations

import json
import sys

import pytest

from tests.ports import free_port

from .app_server import app_server
from .conftest import NOTEBOOK7_EXTENSION_ELSEWHERE, PageWatch
from .jupyterlab import notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CELLS = ["import kvwidgets as kw", "kw.UsersThatFit()", "kw.DecodeSpeed()"]
FONT_AWESOME = "cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free"
PLOTS = "() => [...document.querySelectorAll('.kv-plot')].map(p => p.data ? JSON.stringify(p.data) : null)"
COUNT_BIG_BLOBS = """(() => {
    window.kvwBigBlobs = 0;
    const make = URL.createObjectURL;
    URL.createObjectURL = function (blob) {
        if (blob && blob.size > 1e6) window.kvwBigBlobs += 1;
        return make.call(URL, blob);
    };
})();"""


@pytest.fixture(scope="module")
def voila_app(tmp_path_factory):
    folder = tmp_path_factory.mktemp("voila")
    (folder / "two.ipynb").write_text(json.dumps(notebook(CELLS)), encoding="utf-8")
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "voila",
        "two.ipynb",
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
    ]
    with app_server(
        "voila",
        cmd,
        folder,
        port,
        env={"JUPYTER_RUNTIME_DIR": str(folder / "runtime"), "JUPYTER_DATA_DIR": str(folder / "data")},
    ) as url:
        yield url


def test_two_widgets_draw_and_a_slider_redraws_in_voila(browser, voila_app):
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        page.set_default_timeout(90_000)
        page.add_init_script(COUNT_BIG_BLOBS)
        page.goto(voila_app)
        page.wait_for_function(
            f"({PLOTS})().length === 2 && ({PLOTS})().every(d => d && JSON.parse(d).length > 0)"
        )
        assert page.evaluate("window.kvwBigBlobs") == 1
        assert page.locator(".kv-error").all_text_contents() == ["", ""]

        before = page.evaluate(PLOTS)
        page.locator('[data-kv="context"]').first.fill("80")  # stop 80 = 32,768 tokens
        page.wait_for_function(f"({PLOTS})()[0] !== {json.dumps(before[0])}")
        assert page.evaluate(PLOTS)[1] == before[1]
        # Voila's own page template asks a CDN for Font Awesome; nothing else may leave
        assert all(FONT_AWESOME in url for url in watch.blocked), watch.blocked
        watch.blocked.clear()
        watch.assert_clean(allow_errors=("net::ERR_INTERNET_DISCONNECTED", NOTEBOOK7_EXTENSION_ELSEWHERE))
    finally:
        context.close()
