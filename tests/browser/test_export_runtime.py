"""The exported page's runtime in Chromium, with small widgets of our own.

These pin down the in-page model (anywidget's render contract, Backbone-style
change events, bytes as DataViews, several widgets, failures shown in place) so the
kvwidgets widget tests can rely on it.
"""

from __future__ import annotations

import pytest

from kvwidgets.export import to_html

from ..export.toy import Factory, NamedRender, Toy
from .conftest import open_exported

pytestmark = pytest.mark.browser


def readout(page, name: str, nth: int = 0) -> str:
    return page.locator(f'[data-kv-out="{name}"]').nth(nth).text_content()


def test_toy_renders_offline_and_its_slider_changes_the_model(watched, tmp_path):
    page = watched.page
    open_exported(watched, to_html_file(Toy(value=10, blob=bytes([7, 8, 9])), tmp_path))
    assert readout(page, "value") == "10"
    assert readout(page, "blob") == "3:7"  # the bytes trait arrived as a DataView
    assert readout(page, "marks") == "</script><!-- <script>"  # the ESM's strings unchanged
    assert page.evaluate("window.kvwExport.models[0].get('initialized')") is True
    page.locator('[data-kv="value"]').fill("64")  # a range input: fill sets and fires input
    assert readout(page, "value") == "64"
    assert readout(page, "count") == "1"
    assert page.evaluate("window.kvwExport.models[0].get('value')") == 64
    watched.assert_clean()


def test_model_events_follow_backbone(watched, tmp_path):
    page = watched.page
    open_exported(watched, to_html_file(Toy(), tmp_path))
    events = page.evaluate(
        """() => {
        const m = window.kvwExport.models[0];
        const seen = [];
        const ctx = {};
        m.on("change:value", (model, value) => seen.push(["change:value", value, model.previous("value")]), ctx);
        m.on("change", (model) => seen.push(["change", Object.keys(model.changed).sort().join(",")]), ctx);
        m.set("value", 33);
        m.set("value", 33);                       // no change, no event
        m.set({ value: 34, initialized: false });  // one "change" for both
        m.on("change:initialized", () => m.set("value", 35), ctx);  // nested set joins the round
        m.set("initialized", true);
        m.off(null, null, ctx);
        m.set("value", 1);                        // nobody listening any more
        return seen;
    }"""
    )
    assert events == [
        ["change:value", 33, 10],
        ["change", "value"],
        ["change:value", 34, 33],
        ["change", "initialized,value"],
        ["change:value", 35, 34],
        ["change", "initialized,value"],
    ]
    # the view's own handler saw every change too
    assert readout(page, "value") == "1"
    watched.assert_clean()


def test_every_esm_convention_renders_and_widgets_keep_their_own_state(watched, tmp_path):
    page = watched.page
    open_exported(
        watched,
        to_html_file([Toy(value=5), NamedRender(label="n1"), Toy(value=90), Factory(label="f1")], tmp_path),
    )
    assert [readout(page, "value", i) for i in range(2)] == ["5", "90"]
    assert [readout(page, "label", i) for i in range(2)] == ["n1", "f1"]
    page.locator('[data-kv="value"]').nth(1).fill("12")
    assert [readout(page, "value", i) for i in range(2)] == ["5", "12"]
    # one module for both Toys: the page imported three distinct ESMs
    assert page.evaluate("JSON.parse(document.getElementById('kvw-export-data').textContent).esm.length") == 3
    # anywidget warns that a named render export is deprecated; we do not, so no noise
    watched.assert_clean()


def test_a_failing_widget_shows_why_and_the_others_still_draw(watched, tmp_path):
    page = watched.page
    broken = NamedRender()
    broken._esm = 'export default { render() { throw new Error("bad shape: context < 0"); } };'
    open_exported(watched, to_html_file([broken, Toy(value=3)], tmp_path), expect="failed")
    assert "bad shape: context < 0" in page.locator("#kvw-widget-0 .kvw-export-error").text_content()
    assert readout(page, "value") == "3"
    assert any("bad shape" in e for e in watched.errors)
    watched.assert_clean(allow_errors=("bad shape",))


def test_blocked_network_is_reported(watched, tmp_path):
    """The guard itself: a page that reaches out is caught, so a clean run means offline."""
    leaky = NamedRender()
    leaky._esm = 'export default { render({ el }) { fetch("http://example.com/x").catch(() => {}); el.textContent = "ok"; } };'
    open_exported(watched, to_html_file(leaky, tmp_path))
    watched.page.wait_for_timeout(300)
    assert watched.blocked == ["http://example.com/x"]


def to_html_file(widgets, folder):
    path = folder / "page.html"
    to_html(widgets, path)
    return path
