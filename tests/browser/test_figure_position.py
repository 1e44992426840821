"""The figure leads: on an 800 px page each widget's figure starts within 300 px of the
widget's top (450 px at scale 1.5), in every gallery state, and no monospace text stands
between the widget's top and its figure (formulas and tables live in the closed fold)."""

from __future__ import annotations

import pytest

from kvwidgets.export import gallery
from kvwidgets.export.page import build_page, write_page
from kvwidgets.export.snapshot import snapshot

from .conftest import PageWatch, WarmPages, open_exported

pytestmark = pytest.mark.browser

# Every widget of the gallery: a figure placed past the first screen is missed by a
# reader of any of them.
WIDGETS = tuple(gallery.gallery_widgets())
LIMIT_PX = {1.0: 300, 1.5: 450}

# Per widget on the page: the figure's offset from the widget's top, and every visible
# text above the figure set in a monospace font.
MEASURE_JS = """() => [...document.querySelectorAll('.kv-widget')].map((w) => {
  const top = w.getBoundingClientRect().top;
  const fig = w.querySelector('.kv-figure').getBoundingClientRect().top;
  const mono = [];
  for (const el of w.querySelectorAll('*')) {
    if (el.closest('.kv-figure') || el.closest('details.kv-how')) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.top >= fig) continue;
    if (/mono/i.test(getComputedStyle(el).fontFamily)) mono.push(el.textContent.trim().slice(0, 60));
  }
  return { offset: fig - top, mono };
})"""


@pytest.fixture(scope="module")
def measured(warm_context, tmp_path_factory):
    """Per scale, the page of every gallery state of every widget (at that scale) measured
    once: scale -> widget -> one measurement per state. Each widget's figure offset is from
    its own top, so the widgets above it on the page change nothing; one page per scale
    instead of one per widget and scale saves about 20 page loads."""
    folder = tmp_path_factory.mktemp("figure-position")
    found = {}
    for scale in sorted(LIMIT_PX):
        made = []
        for name in WIDGETS:
            for _state, make in gallery.gallery_widgets()[name]:
                w = make()
                w.scale = scale
                made.append((name, w))
        path = write_page(build_page([snapshot(w) for _, w in made]), folder / f"scale-{scale}.html")
        context = WarmPages(warm_context, viewport={"width": 800, "height": 900})
        try:
            watch = PageWatch(context.new_page())
            watch.page.set_default_timeout(60_000)
            open_exported(watch, path)
            rows = watch.page.evaluate(MEASURE_JS)
            watch.assert_clean()
        finally:
            context.close()
        assert len(rows) == len(made)
        found[scale] = {
            name: [m for (n, _), m in zip(made, rows, strict=True) if n == name] for name in WIDGETS
        }
    return found


@pytest.mark.parametrize("scale", sorted(LIMIT_PX))
@pytest.mark.parametrize("name", WIDGETS)
def test_the_figure_starts_near_the_top_with_no_monospace_above(measured, name, scale):
    rows = gallery.gallery_widgets()[name]
    got = measured[scale][name]
    assert len(got) == len(rows)
    for (state, _), m in zip(rows, got, strict=True):
        where = f"{name} '{state.label}' at scale {scale}"
        assert m["mono"] == [], f"{where}: monospace text above the figure: {m['mono']}"
        assert 0 < m["offset"] <= LIMIT_PX[scale], f"{where}: figure starts {m['offset']:.0f} px down"
