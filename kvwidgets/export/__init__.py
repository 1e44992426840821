"""Standalone HTML pages of kvwidgets (any anywidget, in fact) for course pages.

    kvwidgets.export.to_html(widget, "page.html")        # one widget
    kvwidgets.export.to_html([w1, w2], "page.html")      # several, one after another

The page works from file:// with no kernel and no network: see page.py for what it
holds and runtime.js for the in-page model that stands in for the kernel.

    kvwidgets.export.offline_assets("site/")             # for nbconvert / Quarto pages
    kvwidgets.export.localize_page("site/page.html")     # a Quarto page: use them

put the widget scripts an nbconvert or Quarto page loads beside it (offline.py).
"""

from .errors import ExportError, NotAWidgetError
from .offline import localize_page, offline_assets
from .page import to_html

__all__ = ["ExportError", "NotAWidgetError", "localize_page", "offline_assets", "to_html"]
