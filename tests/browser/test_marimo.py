"""kvwidgets in a live marimo app (`marimo run`), Chromium reaching only the app's server.

Two widgets of different classes in one app (mo.ui.anywidget): both get plotly.js from
the kernel's one SharedAssets model and draw; moving a slider redraws its widget only,
and the new value reaches Python (the app shows the kernel's value in another cell).
"""

from __future__ import annotations

import json
import sys

import pytest

from tests.ports import free_port

from .app_server import app_server
from .conftest import PageWatch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

APP = """import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    import kvwidgets as kw
    fit = mo.ui.anywidget(kw.UsersThatFit())
    curve = mo.ui.anywidget(kw.ContextVsUsers())
    return curve, fit, mo


@app.cell
def _(curve, fit, mo):
    mo.vstack([fit, curve])
    return


@app.cell
def _(fit, mo):
    mo.md(f"kernel context: {fit.widget.context}")
    return


if __name__ == "__main__":
    app.run()
"""

# marimo renders each widget in a shadow root, which document.querySelectorAll does not enter.
PLOTS = """() => {
    const found = [];
    const walk = (root) => {
        found.push(...root.querySelectorAll('.kv-plot'));
        for (const e of root.querySelectorAll('*')) if (e.shadowRoot) walk(e.shadowRoot);
    };
    walk(document);
    return found.map(p => p.data ? JSON.stringify(p.data) : null);
}"""


@pytest.fixture(scope="module")
def marimo_app(tmp_path_factory):
    folder = tmp_path_factory.mktemp("marimo")
    (folder / "app.py").write_text(APP, encoding="utf-8")
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "marimo",
        "run",
        "app.py",
        "--headless",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-token",
    ]
    with app_server("marimo", cmd, folder, port) as url:
        yield url


def test_two_widgets_draw_and_a_slider_redraws_in_marimo(browser, marimo_app):
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        page.set_default_timeout(60_000)
        page.goto(marimo_app)
        page.wait_for_function(
            f"({PLOTS})().length === 2 && ({PLOTS})().every(d => d && JSON.parse(d).length > 0)"
        )
        assert page.locator(".kv-error").all_text_contents() == ["", ""]
        page.get_by_text("kernel context: 8192").wait_for()  # the widgets start at 8,192 tokens

        before = page.evaluate(PLOTS)
        page.locator('[data-kv="context"]').first.fill("80")  # stop 80 = 32,768 tokens
        page.wait_for_function(f"({PLOTS})()[0] !== {json.dumps(before[0])}")
        assert page.evaluate(PLOTS)[1] == before[1]
        page.get_by_text("kernel context: 32768").wait_for()
        watch.assert_clean()
    finally:
        context.close()
