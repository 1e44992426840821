"""Errors the exporter raises, in the family of kvwidgets.core.errors.

They subclass the built-in errors a caller would already catch for the same
trouble: a wrong kind of object is a TypeError, a page that cannot be written (or
could not work offline) an OSError.
"""

from __future__ import annotations

from ..core.errors import KVWidgetsError


class NotAWidgetError(KVWidgetsError, TypeError):
    """to_html was given something that is not a live anywidget."""


class ExportError(KVWidgetsError, OSError):
    """The page cannot be written, or the widget needs something an offline page lacks."""

    def __str__(self) -> str:  # OSError(msg) prints just msg; keep it so
        return str(self.args[0]) if self.args else ""
