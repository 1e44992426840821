"""plotly.js once per page and per saved notebook, in a live JupyterLab.

A notebook shows two widgets of different classes (their ESMs differ). Checked: both
draw, and the page imported plotly.js once (one Blob of more than 1 MB: the shared
SharedAssets model's text; before, each widget class's ESM carried its own copy). Then the
notebook is saved with JupyterLab's "save widget state" setting on: the file holds the
bundle and the shared library (static/library.js) once, both widgets name that one
model, and the whole file stays under 1.5 MB.
"""

from __future__ import annotations

import json

import pytest

import kvwidgets as kw
from kvwidgets.widgets.front_end import library_source, plotly_source

from .conftest import PageWatch
from .jupyterlab import LabServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "two_widgets.ipynb"
CELLS = ["import kvwidgets as kw", "kw.UsersThatFit()", "kw.DecodeSpeed()"]
MARK = "window.Plotly = Plotly"  # the bundle's last statement: once per copy
LIBRARY_MARK = "function createApp("  # the widget frame's builder (js/ui/app.js): once per library copy

# Counts Blob URLs made from more than 1 MB of text (plotly.js imports), from page start.
COUNT_BIG_BLOBS = """(() => {
    window.kvwBigBlobs = 0;
    const make = URL.createObjectURL;
    URL.createObjectURL = function (blob) {
        if (blob && blob.size > 1e6) window.kvwBigBlobs += 1;
        return make.call(URL, blob);
    };
})();"""

PLOTS = "() => [...document.querySelectorAll('.jp-OutputArea .kv-plot')].map(p => !!p.querySelector('svg.main-svg'))"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("jupyterlab-shared")
    server = LabServer(workdir)
    server.write_notebook(NOTEBOOK, CELLS)
    # what a course author turns on to ship a notebook whose widgets show without a kernel
    setting = (
        workdir
        / "jupyter"
        / "settings"
        / "@jupyter-widgets"
        / "jupyterlab-manager"
        / "plugin.jupyterlab-settings"
    )
    setting.parent.mkdir(parents=True)
    setting.write_text(json.dumps({"saveState": True}), encoding="utf-8")
    with server:
        yield server


def test_two_widgets_one_plotly_load_and_one_saved_copy(browser, lab):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        page.add_init_script(COUNT_BIG_BLOBS)
        lab.open_and_run_all(page, NOTEBOOK)
        page.wait_for_function(f"({PLOTS})().length === 2 && ({PLOTS})().every(Boolean)")
        assert page.evaluate("window.kvwBigBlobs") == 1

        page.locator(".jp-Notebook .jp-Cell").nth(0).click()
        page.keyboard.press("Control+s")
        saved = lab.root / NOTEBOOK
        page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')")
        for _ in range(40):  # the server writes the file just after the page marks it clean
            nb = json.loads(saved.read_text(encoding="utf-8"))
            if "widgets" in nb.get("metadata", {}):
                break
            page.wait_for_timeout(250)
        models = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
        holders = [mid for mid, m in models.items() if MARK in json.dumps(m)]
        assert len(holders) == 1
        refs = [m["state"]["_shared_assets"] for m in models.values() if m["state"].get("_shared_assets")]
        assert refs == [f"IPY_MODEL_{holders[0]}"] * 2
        assert [mid for mid, m in models.items() if LIBRARY_MARK in json.dumps(m)] == holders
        size = saved.stat().st_size
        # the shared texts once, then each widget's own state: its module and the stylesheet
        # as they are, and its inputs and result (about 19 KB each, a little more once escaped
        # in the notebook's JSON). A second copy of plotly.js (over 1 MB) would break either bound.
        shared = len(plotly_source().encode()) + len(library_source().encode())
        own = sum(
            len(w._esm.encode()) + len(w._css.encode()) + 30_000 for w in (kw.UsersThatFit, kw.DecodeSpeed)
        )
        assert size < 1_500_000 and size < shared + own + 50_000, f"{size:,} bytes"

        watch.assert_clean()
        assert lab.log_errors() == []
    finally:
        context.close()
