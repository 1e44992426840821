"""The figure leads: at 800 px each widget's figure starts within 300 px of the widget's top
(450 px at scale 1.5), in every gallery state, and no monospace text stands above it
(issue 15, "one frame for every widget")."""

from __future__ import annotations

import pytest

from kvwidgets.export import gallery, to_html

from .conftest import PageWatch, open_exported

pytestmark = pytest.mark.browser

# widget -> the gallery's states are measured for these widgets
WIDGETS = ["DecodeStep", "PagedBlocks"]
LIMIT = {1: 300, 1.5: 450}

# Per widget on the page: how far below its top the figure starts, and the texts above the
# figure in a monospace font. A failure panel stands in for the figure when there is nothing
# true to draw, so the .kv-figure box is measured either way.
MEASURE_JS = """() => [...document.querySelectorAll('.kv-widget')].map((w) => {
    const fig = w.querySelector('.kv-figure').getBoundingClientRect();
    const mono = [];
    for (const e of w.querySelectorAll('*')) {
        if (e.closest('.kv-figure') || ![...e.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())) continue;
        const r = e.getBoundingClientRect();
        if (r.height && r.bottom <= fig.top + 0.5 && /mono/i.test(getComputedStyle(e).fontFamily)) mono.push(e.textContent.trim());
    }
    return { top: fig.top - w.getBoundingClientRect().top, height: fig.height, mono };
})"""


@pytest.mark.parametrize("scale", [1, 1.5])
@pytest.mark.parametrize("name", WIDGETS)
def test_the_figure_starts_high_and_no_monospace_text_above_it(browser, tmp_path, name, scale):
    states = gallery._states()[name]
    widgets = [make() for _state, make in gallery.gallery_widgets()[name]]
    for w in widgets:
        w.scale = scale
    path = tmp_path / f"{name}-{scale}.html"
    to_html(widgets, path)
    context = browser.new_context(viewport={"width": 800, "height": 900})
    try:
        watch = PageWatch(context.new_page())
        watch.page.set_default_timeout(30_000)
        open_exported(watch, path)
        found = watch.page.evaluate(MEASURE_JS)
        assert len(found) == len(states)
        for state, f in zip(states, found):
            assert f["height"] > 40, f"{name} {state.label}: no figure"
            assert f["top"] <= LIMIT[scale], (
                f"{name} {state.label} at scale {scale}: figure starts {f['top']:.0f} px down"
            )
            assert f["mono"] == [], f"{name} {state.label}: monospace text above the figure: {f['mono']}"
        watch.assert_clean()
    finally:
        context.close()
