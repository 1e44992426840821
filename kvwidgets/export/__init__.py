"""Standalone HTML pages of kvwidgets (any anywidget, in fact) for course pages.

    kvwidgets.export.to_html(widget, "page.html")        # one widget
    kvwidgets.export.to_html([w1, w2], "page.html")      # several, one after another

The page works from file:// with no kernel and no network: see page.py for what it
holds and runtime.js for the in-page model that stands in for the kernel.

    kvwidgets.export.offline_assets("site/")             # for nbconvert / Quarto pages

puts the widget scripts an nbconvert page loads beside it (offline.py).
"""

from .errors import ExportError, NotAWidgetError
from .offline import offline_assets
from .page import to_html

__all__ = ["ExportError", "NotAWidgetError", "offline_assets", "to_html"]
