"""The gallery (python -m kvwidgets.export.gallery): every widget in its default and telling
states, light and dark, written as pages that open offline, with figures whose texts neither
overlap nor leave the figure."""

from __future__ import annotations

import pytest

from kvwidgets.export import gallery

from .conftest import PageWatch, WarmPages, open_exported
from .text_layout import TEXT_PROBLEMS_JS

pytestmark = pytest.mark.browser

NAMES = list(gallery.gallery_widgets())


@pytest.fixture(scope="module")
def written(gallery_written):
    return gallery_written


def test_the_index_links_every_widget_page(written):
    folder, index = written
    text = index.read_text()
    assert len(NAMES) == 11  # every widget that draws: all of kvwidgets' but Scenario, which links them
    for name in NAMES:
        assert f'href="{name}.html"' in text and (folder / f"{name}.html").is_file()


@pytest.mark.parametrize("name", NAMES)
def test_every_state_draws_light_and_dark_and_no_text_collides(warm_context, written, name):
    folder, _ = written
    context = WarmPages(warm_context, viewport={"width": 1700, "height": 900})
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        page.set_default_timeout(30_000)
        open_exported(watch, folder / f"{name}.html")
        states = gallery._states()[name]
        # each state twice, under JupyterLab Light's and Dark's colours
        assert page.locator(".kv-widget").count() == 2 * len(states)
        themes = page.evaluate(
            "[...document.querySelectorAll('[data-theme-column] .kv-widget')].map(w => w.dataset.kvTheme)"
        )
        assert set(themes) == {"jupyter"}
        backgrounds = page.evaluate(
            """() => ['light', 'dark'].map(t => getComputedStyle(
                   document.querySelector(`[data-theme-column=${t}] .kv-widget`)).backgroundColor)"""
        )
        assert backgrounds[0] != backgrounds[1]
        page.wait_for_timeout(500)  # plotly's last relayout
        assert page.evaluate(TEXT_PROBLEMS_JS) == []
        watch.assert_clean()
    finally:
        context.close()
