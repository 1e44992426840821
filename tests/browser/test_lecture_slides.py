"""The lecture as slides: notebooks/lecture.ipynb in a live JupyterLab, shown with
jupyterlab-rise (View > Render as Reveal Slideshow), with live widgets on the slides.

Run all cells, save, render as slides; then on the "How many conversations fit" slide:
the widget has drawn its figure, moving its context slider redraws it at once (in the
browser), and clicking a scene button goes through the kernel and back (the users
shown become 0 for the 70B in FP8 on one H100).
"""

from __future__ import annotations

import json
import shutil

import pytest

from .conftest import NOTEBOOK7_EXTENSION_ELSEWHERE, PageWatch
from .jupyterlab import REPO_ROOT, LabServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "lecture.ipynb"

# What jupyterlab-rise itself logs on a healthy run (none of it comes from kvwidgets):
RISE_NOISE = (
    # its Reveal.js theme asks Google Fonts for News Cycle and Lato (blocked: no network)
    "net::ERR_INTERNET_DISCONNECTED",
    "fonts.googleapis.com",
    # it looks for an optional folder-wide stylesheet, rise.css, beside the notebook
    "rise.css",
    # a recursion inside the RISE app's own bundle, logged with or without widgets on the page
    "RangeError: Maximum call stack size exceeded",
    # Notebook 7's lab extension, which the slideshow app loads but cannot serve (conftest)
    NOTEBOOK7_EXTENSION_ELSEWHERE,
)

PRESENT = "section.present"
PLOT_DATA = (
    "() => { const p = document.querySelector('section.present .kv-plot');"
    " return p && p.data ? JSON.stringify(p.data) : null; }"
)


def rise_frame(page, timeout_ms: int = 120_000):
    """The slideshow's iframe, once it has loaded the RISE page."""
    for _ in range(timeout_ms // 500):
        found = [f for f in page.frames if "/rise/" in f.url]
        if found:
            return found[0]
        page.wait_for_timeout(500)
    raise TimeoutError("the RISE slideshow did not open")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    server = LabServer(tmp_path_factory.mktemp("lecture"))
    shutil.copy(REPO_ROOT / "notebooks" / NOTEBOOK, server.root / NOTEBOOK)
    shutil.copy(REPO_ROOT / "notebooks" / "lecture.css", server.root / "lecture.css")  # hides code on slides
    with server:
        yield server


def test_a_slide_shows_a_live_widget(browser, lab):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = None
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        lab.open_and_run_all(page, NOTEBOOK)
        page.wait_for_function(
            "document.querySelectorAll('.jp-OutputArea .kv-plot svg.main-svg').length >= 5", timeout=180_000
        )
        page.keyboard.press("Control+s")  # the slideshow reads the saved notebook, outputs included
        page.wait_for_function("!document.querySelector('.jp-mod-dirty')")

        # the slideshow opens at the notebook's active cell: select the users-that-fit slide
        page.locator(".jp-Notebook .jp-MarkdownCell", has_text="How many conversations fit").first.click()
        page.locator(".lm-MenuBar-itemLabel", has_text="View").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Render as Reveal Slideshow").first.click()
        frame = rise_frame(page)
        frame.wait_for_selector(".reveal .slides section", state="attached", timeout=120_000)

        frame.wait_for_function(
            "() => document.querySelector('section.present')?.innerText.includes('How many conversations fit')"
        )
        frame.wait_for_selector(f"{PRESENT} .kv-plot svg.main-svg", timeout=120_000)
        frame.wait_for_function(f"({PLOT_DATA})() !== null && JSON.parse(({PLOT_DATA})()).length > 0")
        users = frame.locator(f'{PRESENT} [data-kv-out="users"]')
        # the code that displays the widget is not on the slide (lecture.css), the widget is
        assert frame.locator(f"{PRESENT} .jp-CodeCell .jp-Cell-inputWrapper").first.is_hidden()
        assert frame.locator(f"{PRESENT} .jp-CodeCell .jp-OutputArea").first.is_visible()
        frame.wait_for_function(
            "() => document.querySelector('section.present [data-kv-out=\"users\"]')?.textContent.trim() === '53'"
        )

        # the slider redraws the widget on the slide, in the browser
        before = frame.evaluate(PLOT_DATA)
        frame.locator(f'{PRESENT} [data-kv="context"]').fill("80")  # stop 80 = 32,768 tokens
        frame.wait_for_function(f"({PLOT_DATA})() !== {json.dumps(before)}")
        assert frame.locator(f'{PRESENT} [data-kv="context-box"]').input_value() == "32768"
        assert users.text_content().strip() == "13"

        # a scene button reaches the kernel, and the kernel's answer comes back to the slide
        frame.locator(f"{PRESENT} .kv-scene-picker button", has_text="70B in FP8 on one H100").click()
        frame.wait_for_function(
            "() => document.querySelector('section.present [data-kv-out=\"users\"]')?.textContent.trim() === '0'"
        )

        assert all("fonts.googleapis.com" in u for u in watch.blocked), watch.blocked
        watch.blocked.clear()
        watch.assert_clean(allow_errors=RISE_NOISE)
    except Exception:
        lab.show_failure(page)
        raise
    finally:
        context.close()
    assert lab.log_errors() == [], "\n".join(lab.log_errors())
