"""The gallery (python -m kvwidgets.export.gallery): every widget in its default and telling
states, light and dark, written as pages that open offline. What each page shows is checked
in test_gallery_pages.py (texts that neither overlap nor leave their figure, axe-core,
legends under emulated colour-vision deficiencies), on one load of each page."""

from __future__ import annotations

import pytest

from kvwidgets.export import gallery

pytestmark = pytest.mark.browser

NAMES = list(gallery.gallery_widgets())


def test_the_index_links_every_widget_page(gallery_written):
    folder, index = gallery_written
    text = index.read_text()
    assert len(NAMES) == 11  # every widget that draws: all of kvwidgets' but Scenario, which links them
    for name in NAMES:
        assert f'href="{name}.html"' in text and (folder / f"{name}.html").is_file()
