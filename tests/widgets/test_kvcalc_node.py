"""The browser's closed forms (js/calc/) reproduce kvwidgets.core exactly (Node's built-in test runner).

The golden vectors are written fresh from Python on every run (tests/widgets/golden.py),
so they can never go stale against the core; kvcalc.test.mjs then checks every one.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from . import golden
from .node_summary import assert_every_test_passed

ROOT = Path(__file__).resolve().parents[2]
NODE_TEST = ROOT / "tests" / "widgets" / "js" / "kvcalc.test.mjs"


@pytest.fixture(scope="module")
def vectors():
    return golden.build()


def test_kvcalc_js_reproduces_core(tmp_path, vectors):
    node = shutil.which("node")
    assert node, "Node.js is needed to test the widgets' JavaScript (scripts/test.sh installs it)"
    path = tmp_path / "golden.json"
    path.write_text(json.dumps(vectors), encoding="utf-8")
    assert len(vectors["kv"]) > 10_000 and len(vectors["users"]) >= 3000 and len(vectors["decode"]) >= 3000
    import kvwidgets.widgets

    calc = (
        Path(kvwidgets.widgets.__file__).parent / "js" / "calc" / "index.js"
    )  # the modules the widgets build from
    env = {"KV_GOLDEN": str(path), "KV_CALC": str(calc), "PATH": ""}
    proc = subprocess.run(
        [node, "--test", str(NODE_TEST)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    assert_every_test_passed(proc.stdout, NODE_TEST)


def test_golden_vectors_reach_every_edge(vectors):
    data = vectors
    loaded = set(golden.browser_data.preset_shapes())
    kv_shapes = {c["shape"] for c in data["kv"]}
    assert loaded <= kv_shapes, "every preset that loads is in the vectors"
    assert {"t-mla", "t-recurrent", "t-chunked", "t-hybrid", "t-int4-half-byte"} <= kv_shapes
    tokens = {c["tokens"] for c in data["kv"]}
    assert {1, 128, 129, 8192, 131072, 1_048_576} <= tokens  # a window's edge and the 1M end
    assert {c["tp"] for c in data["kv"]} >= {1, 3, 16, 64}  # uneven splits and copies
    assert any(c["too_large"] for c in data["decode"])
    steps = data["step"]
    assert {c["shape"] for c in steps} >= {"t-mla", "t-recurrent", "t-chunked", "gpt-oss-120b"}
    assert any(c["expect"] and c["generated"] == 0 for c in steps) and any(c["error"] for c in steps)
    every_pair = {(n, g) for n in data["shapes"] for g in data["gpus"]}
    assert every_pair <= {(c["shape"], c["gpu"]) for c in data["users"]}
    assert every_pair <= {(c["shape"], c["gpu"]) for c in data["decode"]}
