"""The browser's port of the allocator trace (js/calc/allocator_trace.js) against
kvwidgets.core.allocator_trace: every share and batch of every sampled step, the averages,
steps and preemptions, to the last bit, and the same errors (Node's built-in test runner).

The vectors are written fresh from the core on every run, so they cannot go stale.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from kvwidgets.core.allocator_trace import allocator_trace, kv_slots_for
from kvwidgets.core.errors import KVWidgetsError
from kvwidgets.core.request_lengths import sample_requests
from kvwidgets.data.reported import PAPER_KV_SLOTS_OPT13B_A100_40GB
from kvwidgets.widgets import browser_data

from .node_summary import assert_every_test_passed

ROOT = Path(__file__).resolve().parents[2]
NODE_TEST = ROOT / "tests" / "widgets" / "js" / "trace.test.mjs"


def _attempt(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs), None
    except KVWidgetsError as exc:
        return None, str(exc)


def build() -> dict:
    """Traces over both datasets, several budgets (the paper's, tight ones that preempt and
    fragment the buddy arena, one that holds everything), block sizes and switches."""
    cases = []
    settings = [
        ("sharegpt", 300, PAPER_KV_SLOTS_OPT13B_A100_40GB, 16, True, 0.01, 200),
        ("alpaca", 1000, PAPER_KV_SLOTS_OPT13B_A100_40GB, 16, True, 0.01, 200),
        ("sharegpt", 200, 3000, 8, True, 0.01, 150),
        ("sharegpt", 120, 4000, 32, False, 0.01, 50),
        ("alpaca", 300, 2500, 16, True, 0.0, 200),
        ("alpaca", 100, 1_000_000, 16, True, 0.01, 200),  # nobody ever waits
        ("sharegpt", 80, 2100, 16, True, 0.0, 300, ("paged", "oracle")),  # two policies only
        (
            "sharegpt",
            60,
            1200,
            16,
            True,
            0.01,
            300,
            ("paged", "pow2"),
        ),  # paged cannot finish: the core's error
        ("sharegpt", 50, 1500, 16, True, 0.01, 200),  # Max cannot admit: the core's error
    ]
    for seed, (ds, num, slots, bs, buddy, wm, points, *pols) in enumerate(settings):
        policies = list(pols[0]) if pols else ["max", "pow2", "oracle", "paged"]
        reqs = sample_requests(ds, num, seed=seed)
        got, err = _attempt(
            allocator_trace,
            reqs,
            kv_slots=slots,
            block_size=bs,
            buddy=buddy,
            watermark=wm,
            points=points,
            policies=policies,
        )
        expect = None
        if got is not None:
            expect = {
                "steps": list(got.steps),
                "watermark_blocks": got.watermark_blocks,
                "runs": {p: dataclasses.asdict(r) for p, r in got.runs.items()},
            }
        cases.append(
            {
                "requests": [list(r) for r in reqs],
                "kv_slots": slots,
                "block_size": bs,
                "buddy": buddy,
                "watermark": wm,
                "points": points,
                "policies": policies,
                "expect": expect,
                "error": err,
            }
        )
    # the KV budget in token slots from a model and a GPU (and the refusals by name)
    shapes = browser_data.preset_shapes()
    slots = []
    for name in sorted(shapes):
        for gpu in ("H100-SXM", "A100-40GB", "H200"):
            for kv in ("bf16", "fp8"):
                for n in (1, 2):
                    m = browser_data.preset_model(name)
                    got, err = _attempt(kv_slots_for, m, gpu, kv_dtype=kv, num_gpus=n)
                    slots.append(
                        {
                            "shape": name,
                            "gpu": gpu,
                            "kv_dtype": kv,
                            "num_gpus": n,
                            "expect": got,
                            "error": err,
                        }
                    )
    return {
        "cases": cases,
        "slots": slots,
        "shapes": shapes,
        "gpus": browser_data.gpu_rows(),
        "dtypes": browser_data.dtype_bits(),
    }


@pytest.fixture(scope="module")
def vectors():
    return build()


def test_vectors_reach_every_path(vectors):
    cases = vectors["cases"]
    ok = [c for c in cases if c["expect"]]
    assert any(c["expect"]["runs"]["paged"]["preemptions"] > 0 for c in ok)
    assert any(c["expect"]["runs"]["paged"]["saturated_steps"] == 0 for c in ok)
    assert any(not c["buddy"] for c in ok) and any(c["buddy"] for c in ok)
    errors = [c["error"] for c in cases if c["error"]]
    assert (
        len(errors) == 2
        and any("never finish" in e for e in errors)
        and any("never be admitted" in e for e in errors)
    )
    assert any(len(c["policies"]) == 2 for c in ok)
    assert any(s["error"] and "layers" in s["error"] for s in vectors["slots"])
    assert any(s["error"] and "leave no KV memory" in s["error"] for s in vectors["slots"])
    assert sum(1 for s in vectors["slots"] if s["expect"]) > 50


def test_allocator_trace_js_reproduces_core(tmp_path, vectors):
    node = shutil.which("node")
    assert node, "Node.js is needed to test the widgets' JavaScript (scripts/test.sh installs it)"
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(vectors), encoding="utf-8")
    import kvwidgets.widgets

    calc = Path(kvwidgets.widgets.__file__).parent / "js" / "calc" / "index.js"
    env = {"KV_GOLDEN": str(path), "KV_CALC": str(calc), "PATH": ""}
    proc = subprocess.run(
        [node, "--test", str(NODE_TEST)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    assert_every_test_passed(proc.stdout, NODE_TEST)
