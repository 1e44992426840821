"""One standalone HTML page holding one or more anywidgets, working from file:// offline.

The page carries everything in itself: each distinct ESM and CSS once (and a long
start the ESMs share, such as a bundled plotly.js, once), each widget's state, and runtime.js (beside this module), which plays the kernel's and anywidget's
part. All of that data sits in one ``<script type="application/json">`` block whose
``<``, ``>`` and ``&`` are written as JSON \\u escapes, so no text a widget holds
(``</script>``, ``<!--``) can end the block early; the runtime imports each ESM from
a Blob URL, exactly as anywidget does in JupyterLab.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Iterable
from pathlib import Path

from ..core.errors import InputError
from .errors import ExportError
from .snapshot import WidgetSnapshot, snapshot

_RUNTIME = Path(__file__).with_name("runtime.js")

# Just enough layout for a course page; the widgets bring their own CSS.
_PAGE_CSS = """
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #fff; }
main.kvw-export { max-width: 1100px; margin: 0 auto; padding: 16px 24px 32px; }
main.kvw-export > h1 { font-size: 1.4rem; font-weight: 600; }
.kvw-export-widget { margin: 0 0 32px; }
html[data-kvw-framed] main.kvw-export { padding-bottom: 0; }
html[data-kvw-framed] main.kvw-export > :last-child { margin-bottom: 0; }
.kvw-export-error { color: #b42318; white-space: pre-wrap; }
.kvw-caption { font-size: 1.05rem; white-space: pre-line; margin: 0 0 16px; }
@media (prefers-color-scheme: dark) { body { color: #e8e8e8; background: #1e1e1e; } }
"""


def to_html(
    widget, path=None, *, title: str | None = None, controls=None, models=None, caption: str | None = None
) -> str:
    """Write one standalone HTML page showing ``widget`` (or a list of widgets), and return it.

    The page needs no kernel, no server and no network: open it from disk and the
    controls keep working, because each widget's ESM draws from its synced state.
    Changes made on the page stay on the page. ``path`` may be None to only get the
    text back; missing folders are created.

    For a course page:
      controls  the controls to show, by their data-kv names ("model", "context",
                "kv_dtype", "reset", ...); the others are hidden (their values still
                apply). None shows them all.
      models    the names the model menu offers (the widget's own model among them).
      caption   a line of text (a caption or a task) shown above the widgets.
    The page also tells a parent page its height, so an iframe can fit it: see
    iframe_snippet().
    """
    widgets = _as_list(widget)
    snapshots = [snapshot(w) for w in widgets]
    snapshots = [apply_options(s, w, controls=controls, models=models) for s, w in zip(snapshots, widgets)]
    page = build_page(snapshots, title=title, caption=caption, links=scenario_links(widgets))
    if path is not None:
        write_page(page, path)
    return page


# Controls a kvwidgets widget draws besides its input traits (js/ui/controls.js, widgets/README.md):
# control -> the input it comes with.
_EXTRA_CONTROLS = {"context-box": "context", "play": "generated", "step": "generated"}


def _names(value, field: str) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str) or not hasattr(value, "__iter__"):
        raise InputError(f"{field} must be a list of names, got {type(value).__name__} {value!r:.60}")
    names = list(value)
    for n in names:
        if not isinstance(n, str):
            raise InputError(f"{field} must hold names (strings), got {n!r}")
    if not names:
        raise InputError(f"{field} must name at least one, got an empty list (None shows them all)")
    return names


def apply_options(snap: WidgetSnapshot, widget, *, controls=None, models=None) -> WidgetSnapshot:
    """The snapshot with the page options applied: which controls show, which models the menu offers."""
    controls = _names(controls, "controls")
    models = _names(models, "models")
    state = dict(snap.state)
    options: dict = {}
    if controls is not None:
        inputs = tuple(getattr(widget, "_inputs", ()))
        if not inputs:
            raise InputError(f"controls= needs a kvwidgets widget; {snap.name} declares no input controls")
        known = [i for i in inputs if i != "generated"]  # DecodeStep's position: Play and Step move it
        known += [c for c, needs in _EXTRA_CONTROLS.items() if needs in inputs] + ["reset"]
        unknown = [c for c in controls if c not in known]
        if unknown:
            raise InputError(
                f"controls: {', '.join(map(repr, unknown))} is not a control of {snap.name}. "
                f"Its controls: {', '.join(known)}"
            )
        options["controls"] = controls
    if models is not None:
        shapes = state.get("shapes")
        if "model" not in state or not isinstance(shapes, dict):
            raise InputError(f"models= restricts a model menu, and {snap.name} has none")
        unknown = [m for m in models if m not in shapes]
        if unknown:
            raise InputError(
                f"models: {', '.join(map(repr, unknown))} is not a model {snap.name} knows. "
                f"Known models: {', '.join(sorted(shapes))}"
            )
        for trait in ("model",):
            for where, value in (
                ("shows", state.get(trait)),
                ("resets to", (state.get("initial") or {}).get(trait)),
            ):
                if value is not None and value not in models:
                    raise InputError(f"models must include {value!r}: {snap.name} {where} it")
        state["shapes"] = {k: v for k, v in shapes.items() if k in models}
        if isinstance(state.get("presets"), list):
            state["presets"] = [p for p in state["presets"] if p in models]
        if isinstance(state.get("more_models"), list):
            # the menu offers every model named: those the series does not list go in its
            # "more models" group, whether or not the full menu's group has them
            series = state.get("series_models") or []
            state["more_models"] = [
                m for m in models if m in state.get("presets", models) and m not in series
            ]
        options["models"] = models
    if not options:
        return snap
    state["_page_options"] = options
    return WidgetSnapshot(
        name=snap.name, model_id=snap.model_id, esm=snap.esm, css=snap.css, state=state, buffers=snap.buffers
    )


# For the page that embeds an exported page in an iframe: the exported page posts its
# height ({"kvwidgets": "height", "height": px}) whenever it changes; this resizes the
# iframe that sent it. Any number of such iframes on one page.
AUTOSIZE_SCRIPT = """<script>
addEventListener("message", (e) => {
  if (!e.data || e.data.kvwidgets !== "height") return;
  for (const f of document.querySelectorAll("iframe[data-kvw-autosize]")) {
    if (f.contentWindow === e.source) f.style.height = Math.ceil(e.data.height) + "px";
  }
});
</script>"""


def iframe_snippet(src: str, *, title: str = "kvwidgets explainer") -> str:
    """HTML for a course page: an iframe of an exported page that takes the page's height.

    Paste it where the widget should appear (the <script> once per page is enough).
    """
    if not isinstance(src, str) or not src:
        raise InputError(f"src must be the exported page's URL or path, got {src!r}")
    return (
        f'<iframe src="{html.escape(src)}" title="{html.escape(title)}" data-kvw-autosize '
        f'style="width: 100%; height: 480px; border: 0;" loading="lazy"></iframe>\n' + AUTOSIZE_SCRIPT
    )


def scenario_links(widgets: list) -> list[dict]:
    """Widgets on the page that one kvwidgets Scenario drives, and the inputs they share with
    it: the page ties those inputs together, as the kernel's traitlets.link did."""
    from ..widgets.traits import INPUT_TRAITS

    groups: dict[int, tuple[object, list[int]]] = {}
    for i, w in enumerate(widgets):
        scenario = getattr(w, "_kv_scenario", None)
        if scenario is not None and any(w is x for x in getattr(scenario, "_widgets", ())):
            groups.setdefault(id(scenario), (scenario, []))[1].append(i)
    links = []
    for scenario, members in groups.values():
        if len(members) < 2:
            continue
        shared = [
            t
            for t in INPUT_TRAITS
            if scenario.has_trait(t) and sum(widgets[i].has_trait(t) for i in members) >= 2
        ]
        links.append({"widgets": members, "traits": shared})
    return links


def build_page(
    snapshots: list[WidgetSnapshot],
    *,
    title: str | None = None,
    caption: str | None = None,
    links: list[dict] | None = None,
    body=None,
    css: str = "",
) -> str:
    """The page's HTML. `body(ids)` may lay out the widgets' sections itself (the gallery
    does): it gets the element ids in snapshot order and must hold an element with each."""
    if caption is not None and not isinstance(caption, str):
        raise InputError(f"caption must be a string or None, got {type(caption).__name__}")
    if title is None:
        title = "kvwidgets: " + ", ".join(dict.fromkeys(s.name for s in snapshots))
    elif not isinstance(title, str):
        raise InputError(f"title must be a string or None, got {type(title).__name__}")
    esm_index = _dedupe(s.esm for s in snapshots)
    css_index = _dedupe(s.css for s in snapshots if s.css)
    prefix = shared_prefix(list(esm_index))
    payload = {
        "esm_prefix": prefix,
        "esm": [text[len(prefix) :] for text in esm_index],
        "css": list(css_index),
        "links": links or [],
        "widgets": [
            {
                "el": f"kvw-widget-{i}",
                "name": s.name,
                "model_id": s.model_id,
                "esm": esm_index[s.esm],
                "state": s.state,
                "buffers": s.buffers,
            }
            for i, s in enumerate(snapshots)
        ],
    }
    if body is not None:
        sections = body([f"kvw-widget-{i}" for i in range(len(snapshots))])
    else:
        sections = "\n".join(
            f'<section class="kvw-export-widget" id="kvw-widget-{i}" data-widget="{html.escape(s.name)}"></section>'
            for i, s in enumerate(snapshots)
        )
    caption_html = f'<p class="kvw-caption">{html.escape(caption)}</p>\n' if caption else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="kvwidgets {_version()}">
<title>{html.escape(title)}</title>
<style>{_PAGE_CSS}{css}</style>
</head>
<body>
<main class="kvw-export">
<noscript><p class="kvw-export-error">These widgets are drawn by JavaScript; turn it on to see them.</p></noscript>
{caption_html}{sections}
</main>
<script type="application/json" id="kvw-export-data">{script_safe_json(payload)}</script>
<script type="module">
{_runtime_source()}
</script>
</body>
</html>
"""


# Below this, a prefix shared by the ESMs is not worth splitting out.
MIN_SHARED_PREFIX = 4096


def shared_prefix(texts: list[str]) -> str:
    """The start all the distinct ESMs have in common, when it is long enough to matter.

    kvwidgets' widgets each inline the same 1.2 MB plotly.js bundle ahead of their own
    code, so a page with all five would carry it five times; the page stores it once
    and the runtime puts each ESM back together before importing it.
    """
    if len(texts) < 2:
        return ""
    prefix = os.path.commonprefix(texts)
    return prefix if len(prefix) >= MIN_SHARED_PREFIX else ""


def script_safe_json(value) -> str:
    """JSON that can sit inside a <script> element whatever strings it holds.

    ``<``, ``>`` and ``&`` only occur inside JSON strings, where \\u003c etc. mean
    the same characters, so JSON.parse gives back exactly the original text.
    """
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def write_page(page: str, path) -> Path:
    try:
        target = Path(path).expanduser()
    except TypeError as exc:
        raise InputError(
            f"path must be a file path (str or pathlib.Path) or None, got {type(path).__name__}"
        ) from exc
    if target.is_dir():
        raise ExportError(
            f"cannot write the page to {target}: that is a folder; give a file name such as page.html"
        )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise ExportError(f"cannot write the page to {target}: {exc.strerror or exc}") from exc
    return target


def _as_list(widget) -> list:
    if isinstance(widget, (list, tuple)):
        if not widget:
            raise InputError("to_html needs at least one widget, got an empty list")
        return list(widget)
    return [widget]


def _dedupe(texts: Iterable[str]) -> dict[str, int]:
    """Each distinct text once, in first-seen order, mapped to its index."""
    index: dict[str, int] = {}
    for text in texts:
        index.setdefault(text, len(index))
    return index


def _runtime_source() -> str:
    source = _RUNTIME.read_text(encoding="utf-8")
    # The runtime is inlined as code, not JSON, so it must never close its own tag.
    if "</script" in source.lower() or "<!--" in source:
        raise RuntimeError(f"{_RUNTIME} must not contain '</script' or '<!--': it is inlined in a <script>")
    return source


def _version() -> str:
    from .. import __version__

    return __version__
