"""What an exported page needs from one live widget: its ESM, its CSS and its synced state.

The state is a copy of what the kernel would send JupyterLab (``widget.get_state()``,
which already applies each trait's ``to_json``), less the keys that only make sense
inside a Jupyter front end. Binary values are pulled out with their paths, the way
ipywidgets sends them as buffers, so the page can hand the widget DataViews where
JupyterLab would.
"""

from __future__ import annotations

import base64
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ExportError, NotAWidgetError

# Keys the page does not carry: the ESM and CSS are inlined separately (once per
# page, however many widgets share them), _anywidget_id only names the CSS for hot
# reload, and layout / _dom_classes point at other Jupyter widget models or classes
# that only JupyterLab's widget manager applies.
DROPPED_KEYS = frozenset({"_esm", "_css", "_anywidget_id", "layout", "_dom_classes"})

# A static or dynamic import of a remote module: the page would need the network. The
# pattern starts with its literal word so that re scans for it quickly (a widget's ESM
# holds plotly.js, 1.3 MB: a pattern that starts with a character class tries every
# position, 50 ms a page); _remote_import checks what stands before the word.
_REMOTE_IMPORT = re.compile(r"""import\s*(?:[\w$*{}\s,]+from\s*|\(\s*)["'](https?:)?//""")


def _remote_import(esm: str) -> bool:
    """Whether the ESM imports a module over the network: an import statement or call
    (at the start of a line, or after ;, } or white space) of an http(s):// or // URL."""
    for found in _REMOTE_IMPORT.finditer(esm):
        at = found.start()
        if at == 0 or esm[at - 1] in ";}" or esm[at - 1].isspace():
            return True
    return False


@dataclass(frozen=True)
class WidgetSnapshot:
    name: str  # the widget's class, for messages and the page's labels
    model_id: str
    esm: str
    css: str
    state: dict
    buffers: list = field(default_factory=list)  # [{"path": [...], "base64": "..."}]


def snapshot(widget) -> WidgetSnapshot:
    """Copy what the page needs out of a live anywidget, or say why it cannot."""
    _check_is_anywidget(widget)
    name = type(widget).__name__
    full_state = widget.get_state()
    esm = _source_text(_page_esm(widget, full_state), "_esm", name)
    css = _source_text(full_state.get("_css", "") or "", "_css", name)
    if _remote_import(esm):
        raise ExportError(
            f"{name}._esm imports a module over the network (an http(s):// import); "
            "an exported page must work offline, so bundle that module into the ESM"
        )
    state = {k: v for k, v in full_state.items() if k not in DROPPED_KEYS}
    buffers: list = []
    state = _separate_buffers(state, [], buffers)
    for key, value in state.items():
        _check_json(value, f"{name}.{key}")
    return WidgetSnapshot(
        name=name, model_id=str(widget.model_id), esm=esm, css=css, state=state, buffers=buffers
    )


def _page_esm(widget, full_state: dict):
    """The ESM a page with only this widget's state can run.

    A widget whose usual ESM leans on another widget model for a library (kvwidgets'
    widgets share one plotly.js model per kernel) offers `standalone_esm()`, the ESM
    with that library inside; the page stores the part such ESMs share once anyway
    (page.shared_prefix).
    """
    standalone = getattr(type(widget), "standalone_esm", None)
    if callable(standalone):
        return standalone()
    return full_state.get("_esm", "")


def _check_is_anywidget(widget) -> None:
    try:
        import anywidget
    except ImportError as exc:  # pragma: no cover - anywidget is a dependency
        raise NotAWidgetError("kvwidgets.export needs the anywidget package") from exc
    if isinstance(widget, type) and issubclass(widget, anywidget.AnyWidget):
        raise NotAWidgetError(
            f"to_html needs a widget instance, got the class {widget.__name__}; did you mean {widget.__name__}()?"
        )
    if not isinstance(widget, anywidget.AnyWidget):
        raise NotAWidgetError(
            f"to_html exports anywidget widgets (anywidget.AnyWidget instances) or a list of them; "
            f"got {type(widget).__name__}: {widget!r:.80}"
        )
    if getattr(widget, "comm", None) is None:
        # A closed widget has no comm (so no model id) and its state may be half torn down.
        raise NotAWidgetError(
            f"this {type(widget).__name__} was closed (widget.close()); export it before closing"
        )


def _source_text(value, key: str, name: str) -> str:
    """The ESM or CSS text: inline text as it is, or the contents of a file path."""
    if isinstance(value, Path):
        return _read(value, key, name)
    text = str(value)
    if text.startswith(("http://", "https://")):
        raise ExportError(
            f"{name}.{key} is a URL ({text[:80]}); an exported page must work offline, "
            f"so give the widget its {key} as text or a local file"
        )
    # anywidget turns a class-level path into file contents, but an instance may
    # still have been handed a path string; treat a one-line existing file as one.
    if text and "\n" not in text and len(text) < 4096 and text.endswith((".js", ".mjs", ".css")):
        path = Path(text).expanduser()
        if path.is_file():
            return _read(path, key, name)
    return text


def _read(path: Path, key: str, name: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ExportError(f"cannot read {name}.{key} from {path}: {exc.strerror or exc}") from exc


def _separate_buffers(value, path: list, buffers: list):
    """Replace bytes-like values by None and record them (path + base64) in buffers."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        buffers.append({"path": list(path), "base64": base64.b64encode(bytes(value)).decode("ascii")})
        return None
    if isinstance(value, dict):
        return {k: _separate_buffers(v, [*path, k], buffers) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_separate_buffers(v, [*path, i], buffers) for i, v in enumerate(value)]
    return value


def _check_json(value, where: str) -> None:
    """Fail on values JSON.parse would not give back as they are, naming the trait."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ExportError(f"{where} is {value}, which JSON cannot carry; use None or a finite number")
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise ExportError(f"{where} has a non-string key {k!r}; JSON object keys must be strings")
            _check_json(v, f"{where}[{k!r}]")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_json(v, f"{where}[{i}]")
    elif value is not None and not isinstance(value, (str, int, float, bool)):
        try:
            json.dumps(value)
        except (TypeError, ValueError) as exc:
            raise ExportError(f"{where} holds a {type(value).__name__}, which JSON cannot carry") from exc
