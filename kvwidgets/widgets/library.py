"""The widgets' shared JavaScript (js/kvcalc.js + js/ui.js) as one ES module, once per page.

Every widget's render file calls the closed forms of kvcalc.js and the frame, controls,
theme and plotting of ui.js. Rather than carry those 55 KB in every widget's `_esm`,
they travel once per kernel in the shared PlotlyBundle model's `library` trait
(plotly_bundle.py), next to plotly.js. js/plotly_loader.js imports the text once per
page as a module whose exports are every top-level name the two files declare (the
promise is kept on globalThis under `library_hash()`, so two kvwidgets versions on one
page never mix), and each widget's render code, wrapped in a function by
base.build_esm, takes the names it uses from that module's namespace.

State the two files keep at top level is therefore shared by every widget of a page:
today that is only ui.js's `kvWarned` (each host-model warning is logged once per
page) and `kvPlotlyProblem` (why the page's one plotly.js load failed); everything
per widget lives on its `app` object (ui.js kvApp).
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

JS = Path(__file__).parent / "js"
LIBRARY_FILES = ("kvcalc.js", "ui.js")  # in this order: ui.js's helpers use kvcalc's

# A top-level declaration starts at column 0 (the files keep that style; see
# tests/widgets/test_shared_library.py, which checks no top-level name is missed).
_DECLARATION = re.compile(
    r"^(export\s+)?(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)", re.MULTILINE
)


def read_js(name: str) -> str:
    return (JS / name).read_text(encoding="utf-8")


def declared_names(text: str) -> list[tuple[str, bool]]:
    """(name, already exported) for each top-level declaration of `text`, in order."""
    return [(m.group(2), bool(m.group(1))) for m in _DECLARATION.finditer(text)]


@functools.cache
def library_code() -> str:
    """kvcalc.js then ui.js, as the widgets' standalone ESM inlines them."""
    return "\n;\n".join(read_js(name) for name in LIBRARY_FILES)


@functools.cache
def library_names() -> tuple[str, ...]:
    """Every top-level name of kvcalc.js and ui.js (what a render file may call)."""
    return tuple(name for name, _ in declared_names(library_code()))


@functools.cache
def library_source() -> str:
    """The shared module's text: the two files and an export of each name they do not
    export themselves (kvcalc.js exports its closed forms for the Node golden test)."""
    unexported = [name for name, exported in declared_names(library_code()) if not exported]
    return library_code() + "\n;\nexport { " + ", ".join(unexported) + " };\n"


@functools.cache
def library_hash() -> str:
    """Names this text on a page: a widget uses only the library it was built with."""
    return hashlib.sha256(library_source().encode()).hexdigest()[:16]


def names_used_by(render_text: str) -> list[str]:
    """The library names a render file refers to, minus any it declares itself."""
    own = {name for name, _ in declared_names(render_text)}
    return [
        n
        for n in library_names()
        if n not in own and re.search(rf"(?<![\w$]){re.escape(n)}(?![\w$])", render_text)
    ]


def loader_header(*, plotly_inlined: bool, library_inlined: bool) -> str:
    """The constants js/plotly_loader.js reads, for one ESM variant."""
    return (
        f"const KV_PLOTLY_INLINED = {'true' if plotly_inlined else 'false'};\n"
        f'const KV_LIBRARY_HASH = "{library_hash()}";\n'
        f"const KV_LIBRARY_INLINED = {'true' if library_inlined else 'false'};\n"
    )
