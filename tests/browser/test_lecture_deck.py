"""The lecture with no kernel: `python -m kvwidgets.export.deck OUT_DIR` writes
notebooks/lecture.ipynb as a reveal.js page with the widgets' saved state, the widget scripts
and reveal.js beside it. Opened from disk in Chromium at 1280x720 with every request that
is not file:// refused: every slide fits whole, every widget draws and redraws when a
control moves, the speaker notes are on the page, and nothing was asked of the network.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .conftest import PageWatch
from .jupyterlab import REPO_ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SLIDES = 13
# Each slide's figures once drawn: plotly SVGs and the explainers' own SVG diagrams
DRAWN = "() => Reveal.getCurrentSlide().querySelectorAll('.kv-plot svg.main-svg, .kv-diagram svg').length"
WIDGETS = "() => Reveal.getCurrentSlide().querySelectorAll('.kv-widget').length"
# How far anything on the current slide reaches past the slide's box, in CSS pixels of the
# page (reveal scales the 1280x720 slide to the window; at 1280x720 the two nearly agree).
OVERFLOW = """() => {
  const box = document.querySelector('.reveal .slides').getBoundingClientRect();
  const slide = Reveal.getCurrentSlide();
  let bottom = 0, right = 0;
  for (const el of slide.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;   // hidden (the scene buttons, folded text)
    if (el.ownerSVGElement) continue;  // inside an SVG: its clip paths (plotly's lines) are not in the box
    // what an ancestor clips (a folded line's ellipsis) is not shown, so it cannot overflow
    let b = r.bottom, rt = r.right;
    for (let a = el.parentElement; a && a !== slide; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX !== 'visible') rt = Math.min(rt, a.getBoundingClientRect().right);
      if (cs.overflowY !== 'visible') b = Math.min(b, a.getBoundingClientRect().bottom);
    }
    bottom = Math.max(bottom, b - box.bottom);
    right = Math.max(right, rt - box.right);
  }
  return { bottom, right, scrolls: slide.scrollHeight > slide.clientHeight + 1 };
}"""
# What each slide shows in words, its speaker notes left out
SLIDE_WORDS = """() => [...document.querySelectorAll('.reveal .slides > section')].map(s => {
  const c = s.cloneNode(true); c.querySelectorAll('aside.notes, .kv-widget, .kv-scene-picker, .widget-area, .jupyter-widgets').forEach(e => e.remove()); return c.textContent; })"""
OFFLOAD_SLIDE = 9
LEGEND_UNDER_TITLE = """() => { const p = Reveal.getCurrentSlide().querySelector('.kv-plot');
  const r = (sel) => p.querySelector(sel).getBoundingClientRect();
  const t = r('.xtitle'), l = r('.legend'), f = r('.main-svg');
  return [t.bottom, l.top, l.bottom, f.bottom]; }"""
PLOT = "() => { const p = Reveal.getCurrentSlide().querySelector('.kv-plot'); return p && p.data ? JSON.stringify(p.data) : null; }"


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    folder = tmp_path_factory.mktemp("deck")
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p),
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "kvwidgets.export.deck",
            str(folder),
            "--notebook",
            str(REPO_ROOT / "notebooks" / "lecture.ipynb"),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return folder / "lecture.html"


def test_the_deck_is_one_page_with_its_scripts_beside_it(deck):
    folder = deck.parent
    for name in (
        "require.js",
        "embed-amd.js",
        "anywidget.js",
        "jquery.js",
        "reveal.js/dist/reveal.js",
        "reveal.js/plugin/notes/notes.js",
        "reveal.js/dist/theme/white.css",
    ):
        assert (folder / name).is_file(), name
    page = deck.read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-state+json" in page
    assert page.count('<aside class="notes">') == SLIDES
    # the code is not on the slides, the widgets are
    assert "scenario.picker(reset=False)" not in page and "import kvwidgets" not in page


def test_every_slide_fits_1280x720_and_the_widgets_redraw_offline(browser, deck):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        page.set_default_timeout(60_000)
        page.goto(deck.as_uri())
        page.wait_for_function("() => window.Reveal && Reveal.isReady()")
        assert page.evaluate("Reveal.getTotalSlides()") == SLIDES
        # the page's widget manager renders every view from the saved state as the page loads;
        # count per slide only once all ten are there (a slide looked at earlier could miss one)
        page.wait_for_function("() => document.querySelectorAll('.kv-widget').length >= 10")
        widgets_seen = 0
        for i in range(SLIDES):
            page.evaluate(f"Reveal.slide({i})")
            widgets = page.evaluate(WIDGETS)
            widgets_seen += widgets
            if widgets:  # every widget draws its figures (2 for PerTokenBytes' formula and plot...)
                page.wait_for_function(f"({DRAWN})() >= {widgets}")
                page.wait_for_timeout(300)  # plotly's resize to the slide's width
            title = page.evaluate("Reveal.getCurrentSlide().querySelector('h1, h2').textContent")
            over = page.evaluate(OVERFLOW)
            assert over["bottom"] <= 1 and over["right"] <= 1 and not over["scrolls"], (
                f"slide {i} {title!r}: {over}"
            )
        assert widgets_seen == 10
        # the scene buttons need the kernel: hidden here, and no slide asks for one
        assert page.locator(".kv-scene-picker").first.is_hidden()
        slide_words = page.evaluate(SLIDE_WORDS)
        assert len(slide_words) == SLIDES and any("switch the model to Llama 3 70B" in w for w in slide_words)
        assert not [w for w in slide_words if "click" in w.lower() or "scene" in w.lower()], slide_words

        # the offload slide: the chart's legend sits under its axis title, inside the figure
        page.evaluate(f"Reveal.slide({OFFLOAD_SLIDE})")
        assert page.evaluate("Reveal.getCurrentSlide().querySelector('h2').textContent").startswith(
            "FP8 and offloading"
        )
        title_bottom, legend_top, legend_bottom, figure_bottom = page.evaluate(LEGEND_UNDER_TITLE)
        assert title_bottom <= legend_top and legend_bottom <= figure_bottom + 0.5

        # users that fit: the context slider redraws the figure in the browser, no kernel
        page.evaluate("Reveal.slide(3)")
        users = page.locator('section.present [data-kv-out="users"]')
        assert users.text_content().strip() == "52"
        before = page.evaluate(PLOT)
        page.locator('section.present [data-kv="context"]').fill("80")  # stop 80 = 32,768 tokens
        page.wait_for_function(f"({PLOT})() !== {json.dumps(before)}")
        assert page.locator('section.present [data-kv="context-box"]').input_value() == "32768"
        assert users.text_content().strip() == "13"
        page.locator('section.present [data-kv="reset"]').click()
        page.wait_for_function(
            "() => document.querySelector('section.present [data-kv-out=\"users\"]').textContent.trim() === '52'"
        )

        # the decode step: Step adds a token to the picture and the counters
        page.evaluate("Reveal.slide(1)")
        tokens = page.locator('section.present [data-kv-out="tokens"]')
        start = tokens.text_content()
        page.locator('section.present [data-kv="step"]').click()
        page.wait_for_function(
            f"() => document.querySelector('section.present [data-kv-out=\"tokens\"]').textContent !== {json.dumps(start)}"
        )
        assert tokens.text_content().startswith("101")

        watch.assert_clean()  # not one request left the machine, no console errors
    finally:
        context.close()
