"""Standalone HTML pages of kvwidgets (any anywidget, in fact) for course pages.

    kvwidgets.export.to_html(widget, "page.html")        # one widget
    kvwidgets.export.to_html([w1, w2], "page.html")      # several, one after another
    kvwidgets.export.to_myst(widget, "widgets")          # files for MyST's {anywidget}

The page works from file:// with no kernel and no network: see page.py for what it
holds and runtime.js for the in-page model that stands in for the kernel; myst.py for
the files of a MyST / Jupyter Book 2 page.

    kvwidgets.export.offline_assets("site/")             # for nbconvert / Quarto pages
    kvwidgets.export.localize_page("site/page.html")     # a Quarto page: use them

put the widget scripts an nbconvert or Quarto page loads beside it (offline.py).

    python -m kvwidgets.export.deck OUT_DIR              # the lecture, no kernel (deck.py)
"""

from .errors import ExportError, NotAWidgetError
from .myst import MystFiles, to_myst
from .offline import localize_page, offline_assets
from .page import AUTOSIZE_SCRIPT, iframe_snippet, to_html

__all__ = [
    "AUTOSIZE_SCRIPT",
    "ExportError",
    "MystFiles",
    "NotAWidgetError",
    "iframe_snippet",
    "localize_page",
    "offline_assets",
    "to_html",
    "to_myst",
]
