"""The built front end (front_end.py, static/): the shared library travels once per page,
each widget ESM holds only its own code, and the standalone ESM holds everything.

Checked through the mechanism: what Node imports from the built files, what each widget's
ESM holds. Sizes are bounds on text, not timings; bench_widgets.py prints the figures.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

import kvwidgets as kw
from kvwidgets.widgets import front_end

ALL = (
    kw.PerTokenBytes,
    kw.UsersThatFit,
    kw.ContextVsUsers,
    kw.DecodeSpeed,
    kw.AttentionDesigns,
    kw.DecodeStep,
    kw.PagedBlocks,
    kw.OffloadOrRecompute,
    kw.DeploymentRanks,
    kw.CacheTransfer,
)
LIBRARY_MARK = "function createApp("  # the widget frame's builder (js/ui/app.js), once per library copy


def node_eval(tmp_path, files: dict[str, str], script: str) -> str:
    node = shutil.which("node")
    assert node, "Node.js is needed to test the widgets' JavaScript (scripts/test.sh installs it)"
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    proc = subprocess.run(
        [node, "--input-type=module", "-e", script], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_the_library_module_exports_what_the_render_code_calls(tmp_path):
    out = node_eval(
        tmp_path,
        {"library.mjs": front_end.library_source()},
        'const m = await import("./library.mjs"); console.log(JSON.stringify(Object.keys(m)));',
    )
    names = set(json.loads(out))
    assert {"createApp", "element", "drawPlot", "notePlotlyProblem", "kvBytes", "KVInputError"} <= names
    assert {"fitMessage", "limitLines", "fmtGB"} <= names  # the messages live beside the closed forms


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_each_widget_esm_is_its_own_code_and_the_loader(cls, tmp_path):
    esm = cls._esm
    size = len(esm.encode())
    # the widget's own code only: DecodeStep, two diagrams, is about 33 KB; the library
    # (over 45 KB) bundled in would pass 40 KB
    assert size < 40_000, f"{cls.__name__}._esm is {size:,} bytes"
    assert LIBRARY_MARK not in esm and "function kvBytes(" not in esm
    assert f'LIBRARY_HASH = "{front_end.library_hash()}";' in esm
    # The library's names are bound at the first render: the module itself must evaluate
    # without them (a render file that used a library name at its top level fails here).
    out = node_eval(
        tmp_path,
        {"widget.mjs": esm},
        'const m = await import("./widget.mjs"); console.log(Object.keys(m.default).sort().join(","));',
    )
    assert out.strip() == "initialize,render"
    standalone = cls.standalone_esm()
    assert standalone.count(LIBRARY_MARK) == 1 and standalone.endswith(esm)


def test_the_library_hash_names_the_text():
    assert re.fullmatch(r"[0-9a-f]{16}", front_end.library_hash())
    prelude = front_end.read_built("standalone_prelude.js")
    assert f'"{front_end.library_hash()}"' in prelude and prelude.count(LIBRARY_MARK) == 1


def test_dev_mode_gives_anywidget_a_file_to_watch(monkeypatch, tmp_path):
    """KVW_DEV=1: `_esm` is the development build's path (anywidget hot reload), with a
    clear error when that build is missing."""
    monkeypatch.setenv("KVW_DEV", "1")
    monkeypatch.setenv("KVW_DEV_DIR", str(tmp_path))
    with pytest.raises(
        FileNotFoundError, match=r"KVW_DEV=1 but .*per_token\.js is missing: run `bash scripts/js.sh watch`"
    ):
        front_end.widget_esm("per_token.js")
    (tmp_path / "per_token.js").write_text("export default {};\n", encoding="utf-8")
    assert front_end.widget_esm("per_token.js") == tmp_path / "per_token.js"
    assert front_end.widget_css() == front_end.CSS
    assert front_end.standalone_esm("per_token.js").endswith("export default {};\n")
    monkeypatch.delenv("KVW_DEV")
    assert front_end.widget_esm("per_token.js") == front_end.read_built("per_token.js")


def test_a_saved_development_build_reaches_a_live_widget(monkeypatch, tmp_path):
    """KVW_DEV=1 ANYWIDGET_HMR=1: anywidget watches the development build's file and sends
    its new text to the front end (the `_esm` trait) when the watch rebuild writes it."""
    import time

    monkeypatch.setenv("KVW_DEV", "1")
    monkeypatch.setenv("ANYWIDGET_HMR", "1")
    monkeypatch.setenv("KVW_DEV_DIR", str(tmp_path))
    built = tmp_path / "per_token.js"
    built.write_text("export default { render() {} }; // first build\n", encoding="utf-8")

    class DevPerTokenBytes(kw.PerTokenBytes):
        _render_file = "per_token.js"

    w = DevPerTokenBytes()
    assert w._esm.endswith("// first build\n")
    built.write_text("export default { render() {} }; // saved again\n", encoding="utf-8")
    deadline = time.monotonic() + 10
    while not w._esm.endswith("// saved again\n") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert w._esm.endswith("// saved again\n")
    w.close()
