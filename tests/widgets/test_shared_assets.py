"""plotly.js and the library once per kernel: the widgets share one SharedAssets model (shared_assets.py).

Sizes are checked through the mechanism (which model holds the bundle text, how many
times a saved notebook holds it), not through timings; bench_widgets.py prints figures.
"""

from __future__ import annotations

import json

import pytest

import kvwidgets as kw
from kvwidgets.widgets.front_end import library_hash, library_source, plotly_source, plotly_version
from kvwidgets.widgets.shared_assets import SharedAssets, shared_assets

from ..browser.jupyterlab import notebook

MARK = "window.Plotly = Plotly"  # the bundle's last statement, once per copy
LIBRARY_MARK = "function createApp("  # the widget frame's builder (js/ui/app.js), once per library copy


def test_every_widget_names_one_shared_assets_model_that_holds_plotly_js():
    widgets = [kw.UsersThatFit(), kw.ContextVsUsers(), kw.UsersThatFit(model="qwen3-8b")]
    refs = {w.get_state()["_shared_assets"] for w in widgets}
    bundle = widgets[0]._shared_assets
    assert refs == {f"IPY_MODEL_{bundle.model_id}"}
    state = bundle.get_state()
    assert state["plotly"] == plotly_source() and state["plotly"].count(MARK) == 1
    assert (
        state["plotly_version"] == plotly_version() == "4.1.1"
    )  # vendor/README.md: plotly.js-basic-dist-min 4.1.1
    assert all(MARK not in json.dumps(w.get_state()) for w in widgets)
    # the shared library (static/library.js) is in the SharedAssets model too, not in the widgets
    assert state["library"] == library_source() and state["library_hash"] == library_hash()
    assert all(LIBRARY_MARK in state["library"] and LIBRARY_MARK not in w._esm for w in widgets)


def test_a_closed_shared_assets_model_is_made_again_for_new_widgets():
    first = shared_assets()
    first.close()
    w = kw.PerTokenBytes()
    assert w._shared_assets is not first and w._shared_assets.comm is not None
    assert w.get_state()["_shared_assets"] == f"IPY_MODEL_{w._shared_assets.model_id}"


def test_the_kernel_sends_the_shared_texts_to_a_front_end_that_asks():
    """The fallback for a host whose widgets cannot reach other models."""
    w = kw.DecodeSpeed()
    sent = []
    w.send = lambda content, buffers=None: sent.append(content)
    w._on_custom_msg(w, {"kvw": "something else"}, [])
    assert sent == []
    w._on_custom_msg(w, {"kvw": "shared-assets"}, [])
    assert sent == [
        {
            "kvw": "shared-assets",
            "plotly": plotly_source(),
            "plotly_version": "4.1.1",
            "library": library_source(),
            "library_hash": library_hash(),
        }
    ]


def test_the_shared_assets_model_preloads_plotly_and_has_no_view(tmp_path):
    import shutil
    import subprocess

    esm = SharedAssets._esm
    assert "preload(model)" in esm and "render" not in esm.split("initialize")[1]
    assert MARK not in esm and LIBRARY_MARK not in esm  # the texts travel in traits, not in the ESM
    assert f'LIBRARY_HASH = "{library_hash()}";' in esm
    path = tmp_path / "bundle.mjs"
    path.write_text(esm, encoding="utf-8")
    proc = subprocess.run(
        [shutil.which("node"), "--check", str(path)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr


@pytest.mark.slow  # nbconvert runs the notebook in a kernel
def test_an_executed_notebook_saves_plotly_js_once(tmp_path):
    """nbconvert --execute stores the widget state of every model in the notebook's
    metadata (what nbconvert's HTML and a reopened notebook render from)."""
    import nbformat
    from nbconvert.preprocessors import ExecutePreprocessor

    cells = ["import kvwidgets as kw", "kw.UsersThatFit()", "kw.ContextVsUsers()", "kw.DecodeSpeed()"]
    nb = nbformat.from_dict(notebook(cells))
    ExecutePreprocessor(timeout=300, kernel_name="python3", store_widget_state=True).preprocess(
        nb, {"metadata": {"path": str(tmp_path)}}
    )
    models = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    holders = [m for m in models.values() if MARK in json.dumps(m)]
    assert len(holders) == 1 and holders[0]["model_name"] == "AnyModel"
    assert [m for m in models.values() if LIBRARY_MARK in json.dumps(m)] == holders
    bundle_id = next(k for k, m in models.items() if m is holders[0])
    views = [m for m in models.values() if m["state"].get("_shared_assets")]
    assert len(views) == 3 and {m["state"]["_shared_assets"] for m in views} == {f"IPY_MODEL_{bundle_id}"}
    size = len(nbformat.writes(nb).encode())
    # bundle + library once, then each widget's state: its own ESM (the loader and its render
    # code) and CSS, measured, plus its GPU table and other traits (under 10 KB) and one shape
    # per bundled preset, about 1 KB each as nbformat indents them. So the bound follows the
    # widgets' own code and the presets, and fails on any second copy of the 1.2 MB bundle or
    # of the library.
    shared = len(json.dumps(plotly_source()).encode()) + len(json.dumps(library_source()).encode())
    own = sum(
        len(json.dumps(str(cls._esm)).encode()) + len(json.dumps(cls._css).encode())
        for cls in (kw.UsersThatFit, kw.ContextVsUsers, kw.DecodeSpeed)
    )
    per_widget_data = 10_000 + 1_000 * len(kw.list_presets())
    assert size < shared + own + 3 * per_widget_data, (
        f"{size:,} bytes, shared texts {shared:,}, own code {own:,}"
    )
    assert len(json.dumps(plotly_source())) > 1_000_000  # the bound could not hide a second copy
