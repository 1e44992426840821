"""The shared library (library.py: kvcalc.js + ui.js) travels once per page, not per widget.

Checked through the mechanism: which names the library module exports (Node imports
it), that no top-level declaration escapes the name scan, what each widget's ESM still
holds. Sizes are bounds on text, not timings; bench_widgets.py prints the figures.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

import kvwidgets as kw
from kvwidgets.widgets import library

ALL = (
    kw.PerTokenBytes,
    kw.UsersThatFit,
    kw.ContextVsUsers,
    kw.DecodeSpeed,
    kw.AttentionDesigns,
    kw.DecodeStep,
    kw.PagedBlocks,
    kw.OffloadOrRecompute,
)


def test_the_library_module_exports_every_top_level_name(tmp_path):
    node = shutil.which("node")
    assert node, "Node.js is needed to test the widgets' JavaScript"
    path = tmp_path / "library.mjs"
    path.write_text(library.library_source(), encoding="utf-8")
    script = (
        f"const m = await import({json.dumps(path.as_uri())});"
        "console.log(JSON.stringify(Object.keys(m).sort()));"
    )
    proc = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout) == sorted(library.library_names())
    assert {"kvApp", "kvEl", "kvPlot", "kvNotePlotlyProblem", "kvBytes", "KVInputError"} <= set(
        library.library_names()
    )


def test_the_name_scan_misses_no_top_level_declaration():
    """library.py finds names with a regex over lines that start at column 0; every
    such code line of kvcalc.js and ui.js must be a declaration it reads, one name each."""
    for name in library.LIBRARY_FILES:
        for n, line in enumerate(library.read_js(name).splitlines(), 1):
            if not line or line[0] in " \t/*}])":
                continue
            assert library.declared_names(line), (
                f"{name}:{n} is top-level code the name scan does not read: {line}"
            )
            assert not re.match(r"(export\s+)?(const|let|var)\s+\w+\s*=.*,\s*\w+\s*=", line), (
                f"{name}:{n} declares two names"
            )


def test_render_files_take_no_mutable_library_state():
    """A render file binds library names by destructuring, a copy: a top-level `let` of
    the library would be frozen at its first value, so no render file may use one."""
    mutable = {m.group(1) for m in re.finditer(r"^let\s+([A-Za-z_$][\w$]*)", library.library_code(), re.M)}
    assert "kvPlotlyProblem" in mutable
    for cls in ALL:
        used = library.names_used_by(library.read_js(cls._render_file))
        assert "kvApp" in used and not mutable & set(used), cls.__name__


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_each_widget_esm_is_the_loader_and_its_render_code(cls):
    esm = cls._esm
    size = len(esm.encode())
    assert size < 30_000, f"{cls.__name__}._esm is {size:,} bytes"
    assert (
        library.library_code() not in esm and "function kvApp(" not in esm and "function kvBytes(" not in esm
    )
    assert library.read_js(cls._render_file) in esm and library.read_js("plotly_loader.js") in esm
    assert f'const KV_LIBRARY_HASH = "{library.library_hash()}";' in esm
    standalone = cls.standalone_esm()
    assert standalone.count("function kvApp(") == 1 and "function kvInlinedLibrary()" in standalone


def test_the_library_hash_names_the_text():
    assert re.fullmatch(r"[0-9a-f]{16}", library.library_hash())
    assert library.library_source().endswith(" };\n") and library.library_source().startswith(
        library.library_code()
    )
