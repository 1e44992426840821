"""The widgets' JavaScript is built, linted and type-checked (bash scripts/js.sh check).

The committed build (kvwidgets/widgets/static) must be exactly what scripts/build_js.mjs
makes from kvwidgets/widgets/js; eslint (eslint.config.mjs) and tsc (jsconfig.json, JSDoc
types and @anywidget/types) must report nothing. The tools come from package-lock.json:
`bash scripts/js.sh install` (scripts/test.sh runs it) puts them in node_modules.
"""

from __future__ import annotations

import filecmp
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "kvwidgets" / "widgets" / "static"
BIN = ROOT / "node_modules" / ".bin"


@pytest.fixture(scope="module")
def node() -> str:
    node = shutil.which("node")
    assert node, "Node.js is needed to build and check the widgets' JavaScript (scripts/test.sh installs it)"
    missing = [tool for tool in ("esbuild", "eslint", "tsc") if not (BIN / tool).exists()]
    assert not missing, (
        f"{', '.join(missing)} missing from node_modules: run `bash scripts/js.sh install` "
        "(npm ci from package-lock.json; scripts/test.sh does it)"
    )
    return node


def run(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)


def differences(a: Path, b: Path) -> list[str]:
    cmp = filecmp.dircmp(a, b)
    out = [f"only in the committed build: {n}" for n in cmp.left_only]
    out += [f"only in a fresh build: {n}" for n in cmp.right_only]
    out += [f"differs: {n}" for n in cmp.diff_files]
    for name in cmp.common_files:  # dircmp compares sizes and times first: compare the bytes
        if name not in cmp.diff_files and (a / name).read_bytes() != (b / name).read_bytes():
            out.append(f"differs: {name}")
    return out


def test_the_committed_build_is_the_build_of_the_sources(node, tmp_path):
    proc = run([node, "scripts/build_js.mjs", "--out", str(tmp_path / "static")])
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = differences(STATIC, tmp_path / "static")
    assert not found, (
        "kvwidgets/widgets/static is not the build of kvwidgets/widgets/js "
        f"({'; '.join(found)}): run `bash scripts/js.sh build` and commit the result"
    )
    widgets = sorted(p.name for p in (ROOT / "kvwidgets" / "widgets" / "js" / "widgets").glob("*.js"))
    built = {p.name for p in STATIC.glob("*.js")}
    assert (
        set(widgets) | {"library.js", "shared_assets.js", "standalone_prelude.js", "all_widgets.js"} == built
    )


def test_eslint_finds_nothing(node):
    proc = run([str(BIN / "eslint"), "--max-warnings", "0"])
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


def test_tsc_finds_no_type_error(node):
    proc = run([str(BIN / "tsc"), "--noEmit", "-p", "jsconfig.json"])
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


def test_tsc_strict_finds_no_type_error_in_the_strict_files(node):
    proc = run([node, "scripts/tsc_strict.mjs", "jsconfig.strict.json"])
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
