"""The figure leads (issue 15): on an 800 px page each widget's figure starts within 300 px
of the widget's top (450 px at scale 1.5), in every gallery state, and no monospace text
(a formula, a table, a derivation) stands above it: those belong in the fold under it."""

from __future__ import annotations

import pytest

from kvwidgets.export import gallery, to_html

from .conftest import PageWatch, open_exported

pytestmark = pytest.mark.browser

# The calculators whose figures were reworked to lead; the other widgets join this list as
# their figures move up.
WIDGETS = ["PerTokenBytes", "UsersThatFit", "ContextVsUsers"]
LIMIT_PX = {1.0: 300, 1.5: 450}

# Per widget on the page: where its figure starts below its top, and every visible text
# above the figure set in a monospace font.
POSITION_JS = """() => [...document.querySelectorAll('.kv-widget')].map((w) => {
  const figure = w.querySelector('.kv-figure');
  const visible = (e) => {
    for (let n = e; n && n !== w.parentNode; n = n.parentNode) {
      const cs = getComputedStyle(n);
      if (cs.display === 'none' || cs.visibility === 'hidden') return false;
    }
    return e.getBoundingClientRect().height > 0;
  };
  const mono = [];
  for (const e of w.querySelectorAll('*')) {
    if (!(figure.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING) || e.contains(figure)) continue;
    const own = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
    if (own && /mono/i.test(getComputedStyle(e).fontFamily) && visible(e)) mono.push(own);
  }
  return { below: figure.getBoundingClientRect().top - w.getBoundingClientRect().top, mono };
})"""


@pytest.mark.parametrize("scale", sorted(LIMIT_PX))
@pytest.mark.parametrize("name", WIDGETS)
def test_the_figure_starts_near_the_top_with_no_monospace_above(browser, tmp_path, name, scale):
    rows = gallery.gallery_widgets()[name]
    widgets = []
    for _state, make in rows:
        w = make()
        w.scale = scale
        widgets.append(w)
    path = tmp_path / f"{name}-{scale}.html"
    to_html(widgets, path)
    context = browser.new_context(viewport={"width": 800, "height": 900})
    try:
        watch = PageWatch(context.new_page())
        open_exported(watch, path)
        found = watch.page.evaluate(POSITION_JS)
        assert len(found) == len(rows)
        for (state, _), where in zip(rows, found, strict=True):
            assert where["mono"] == [], f"{name} ({state.label}) at scale {scale}: monospace above the figure"
            assert 0 < where["below"] <= LIMIT_PX[scale], (
                f"{name} ({state.label}) at scale {scale}: the figure starts {where['below']:.0f} px "
                f"below the widget's top (at most {LIMIT_PX[scale]})"
            )
        watch.assert_clean()
    finally:
        context.close()
