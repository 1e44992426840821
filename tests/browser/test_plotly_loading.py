"""How a widget's usual ESM (no plotly.js, no library inside) gets both, in Chromium, offline.

A small page stands in for a host: it imports two widgets' ESMs (two classes) from Blob
URLs, as anywidget does, and hands each a model with the parts of anywidget's model the
loader uses. Checked per door the host may open: through the widget manager (JupyterLab,
nbconvert, Voila) the bundle is imported once for both widgets; through the kernel (a host
without widget_manager) both draw; with neither, both still render their controls and
say in their error line why they could not load; with the library but without plotly.js
they render their controls and say why there is no plot. And an exported page with three widget
classes (three standalone ESMs, each starting with the bundle) runs plotly.js once.
"""

from __future__ import annotations

import json

import pytest

import kvwidgets as kw
from kvwidgets.export import to_html
from kvwidgets.export.page import script_safe_json
from kvwidgets.widgets.front_end import library_source

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>{css}</style></head><body>
<div id="w0"></div><div id="w1"></div>
<script type="application/json" id="data">{data}</script>
<script type="module">
const data = JSON.parse(document.getElementById("data").textContent);
let bigImports = 0;  // Blob URLs made from more than 1 MB of text: plotly.js imports
let libraryImports = 0;  // Blob URLs of the shared library's size
const makeUrl = URL.createObjectURL;
URL.createObjectURL = (blob) => {{
  if (blob.size > 1e6) bigImports += 1;
  if (blob.size === data.library_bytes) libraryImports += 1;
  return makeUrl(blob);
}};
class Model {{
  constructor(state) {{ this.state = state; this.handlers = []; }}
  get(k) {{ return this.state[k]; }}
  set(k, v) {{ this.state[k] = v; for (const [e, f] of this.handlers) if (e === "change:" + k) f(this, v); }}
  on(e, f) {{ this.handlers.push([e, f]); }}
  off(e, f) {{ this.handlers = this.handlers.filter(([e2, f2]) => !(e2 === e && (!f || f2 === f))); }}
  save_changes() {{}}
  send(msg) {{
    if (data.door !== "kernel") throw new Error("no kernel here");
    setTimeout(() => {{ for (const [e, f] of this.handlers) if (e === "msg:custom") f({{ kvw: "shared-assets", ...data.shared }}); }}, 10);
  }}
}}
const bundle = new Model({{ ...data.shared }});
const models = data.widgets.map((w) => {{
  const m = new Model(w.state);
  if (data.door === "manager") m.widget_manager = {{ get_model: async (id) => {{ if (id !== data.bundle_id) throw new Error("no model " + id); return bundle; }} }};
  return m;
}});
await Promise.all(data.widgets.map(async (w, i) => {{
  const url = makeUrl(new Blob([w.esm], {{ type: "text/javascript" }}));
  const mod = await import(url);
  const el = document.getElementById("w" + i);
  mod.default.initialize?.({{ model: models[i] }});
  await mod.default.render({{ model: models[i], el }});
}}));
window.bigImports = bigImports;
window.libraryImports = libraryImports;
document.documentElement.dataset.done = "yes";
</script></body></html>"""


def write_page(tmp_path, door: str):
    widgets = [kw.UsersThatFit(), kw.DecodeSpeed()]
    shared = widgets[0]._shared_assets.get_state()
    data = {
        "door": door,
        "shared": {k: shared[k] for k in ("plotly", "plotly_version", "library", "library_hash")},
        "library_bytes": len(library_source().encode()),
        "bundle_id": widgets[0]._shared_assets.model_id,
        "widgets": [
            {"esm": w._esm, "state": {k: v for k, v in w.get_state().items() if k not in ("_esm", "_css")}}
            for w in widgets
        ],
    }
    path = tmp_path / f"{door}.html"
    path.write_text(PAGE.format(css=kw.UsersThatFit._css, data=script_safe_json(data)), encoding="utf-8")
    return path


def plots(page):
    return page.evaluate(
        "[...document.querySelectorAll('.kv-plot')].map(p => !!p.querySelector('svg.main-svg'))"
    )


@pytest.mark.parametrize("door", ["manager", "kernel"])
def test_both_widgets_draw_with_plotly_js_and_the_library_imported_once(watched, tmp_path, door):
    page = watched.page
    page.goto(write_page(tmp_path, door).as_uri())
    page.wait_for_selector("html[data-done='yes']", state="attached")
    assert plots(page) == [True, True]
    assert page.evaluate("window.bigImports") == 1
    assert page.evaluate("window.libraryImports") == 1
    assert page.evaluate("[...document.querySelectorAll('.kv-error')].map(e => e.textContent)") == ["", ""]
    # and the first widget still redraws from its slider
    before = page.evaluate("JSON.stringify(document.querySelector('.kv-plot').data)")
    page.locator('#w0 [data-kv="more"]').click()  # utilization sits in the "More" fold
    page.locator('#w0 [data-kv="utilization"]').fill("0.7")
    page.wait_for_function(
        f"JSON.stringify(document.querySelector('.kv-plot').data) !== {json.dumps(before)}"
    )
    watched.assert_clean()


def test_with_no_way_to_the_shared_code_the_widgets_say_why(watched, tmp_path):
    page = watched.page
    page.goto(write_page(tmp_path, "none").as_uri())
    page.wait_for_selector("html[data-done='yes']", state="attached")
    assert plots(page) == [] and page.locator('[data-kv="context"]').count() == 0
    errors = page.evaluate("[...document.querySelectorAll('.kv-error')].map(e => e.textContent)")
    assert len(errors) == 2
    for text in errors:
        assert text.startswith(
            "kvwidgets could not load its shared code: this page gives widgets no access to other widget models"
        )
        assert "no kernel here" in text
    # the loader logs why for each widget; nothing else went wrong
    watched.assert_clean(allow_errors=("plotly.js could not be loaded", "shared code could not be loaded"))


def test_without_plotly_js_the_widgets_render_and_say_why(watched, tmp_path):
    """The library arrived but plotly.js did not: controls work, the plot's place says why."""
    path = write_page(tmp_path, "manager")
    html = path.read_text(encoding="utf-8").replace(
        "const bundle = new Model({ ...data.shared });",
        'const bundle = new Model({ ...data.shared, plotly: "throw new Error(\\"plotly broke\\")" });',
    )
    path.write_text(html, encoding="utf-8")
    page = watched.page
    page.goto(path.as_uri())
    page.wait_for_selector("html[data-done='yes']", state="attached")
    assert plots(page) == [False, False]
    assert page.locator('[data-kv="context"]').count() == 2  # the controls are there
    for text in page.evaluate("[...document.querySelectorAll('.kv-error')].map(e => e.textContent)"):
        assert text.startswith("plotly.js did not load: plotly broke"), text
    watched.assert_clean(
        allow_errors=("plotly.js could not be loaded", "plotly.js did not load", "plotly broke")
    )


# Counts assignments to window.Plotly (the bundle's last statement), from page start.
COUNT_PLOTLY_RUNS = """(() => {
    let value;
    window.kvwPlotlyRuns = 0;
    Object.defineProperty(window, "Plotly", {
        configurable: true,
        get() { return value; },
        set(v) { window.kvwPlotlyRuns += 1; value = v; },
    });
})();"""


def test_an_exported_page_with_three_widget_classes_runs_plotly_js_once(watched, tmp_path):
    page = watched.page
    page.add_init_script(COUNT_PLOTLY_RUNS)
    path = tmp_path / "three.html"
    to_html([kw.UsersThatFit(), kw.ContextVsUsers(), kw.DecodeSpeed()], path)
    page.goto(path.as_uri())
    page.wait_for_selector("html[data-kvw-export='ready']", state="attached")
    assert plots(page) == [True, True, True]
    assert page.evaluate("window.kvwPlotlyRuns") == 1
    watched.assert_clean()
