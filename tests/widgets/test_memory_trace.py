"""MemoryOverTrace: its `result` is core.allocator_trace's answer for the inputs, the lengths
it sends the browser are the requests that answer ran, and bad input is named."""

from __future__ import annotations

import dataclasses

import pytest

import kvwidgets as kw
from kvwidgets.core.allocator_trace import allocator_trace, kv_slots_for
from kvwidgets.core.request_lengths import sample_requests
from kvwidgets.data.reported import PAPER_KV_SLOTS_OPT13B_A100_40GB
from kvwidgets.widgets import browser_data


def core_result(w, **kwargs):
    return allocator_trace(
        w.dataset,
        num_requests=w.num_requests,
        seed=w.seed,
        block_size=w.block_size,
        points=200,
        **kwargs,
    )


def same_runs(result, trace):
    assert result["kv_slots"] == trace.kv_slots
    assert result["steps"] == list(trace.steps)
    assert result["runs"] == {p: dataclasses.asdict(r) for p, r in trace.runs.items()}


def test_default_is_the_papers_setting_and_matches_the_core():
    w = kw.MemoryOverTrace()
    assert w.error == ""
    assert w.kv_slots == PAPER_KV_SLOTS_OPT13B_A100_40GB and w.block_size == 16 and w.dataset == "sharegpt"
    same_runs(w.result, core_result(w, kv_slots=PAPER_KV_SLOTS_OPT13B_A100_40GB))
    runs = w.result["runs"]
    # the picture's point: the reserving policies hold tokens in 20-40% of the cache, paging in ~97%
    assert 0.95 < runs["paged"]["mean_token_states"] < 0.99
    assert all(0.15 < runs[p]["mean_token_states"] < 0.45 for p in ("max", "pow2", "oracle"))


def test_every_input_recomputes_as_the_core_does():
    w = kw.MemoryOverTrace()
    w.dataset = "alpaca"
    w.num_requests = 300
    w.block_size = 32
    same_runs(w.result, core_result(w, kv_slots=PAPER_KV_SLOTS_OPT13B_A100_40GB))
    w.kv_slots = 4000
    same_runs(w.result, core_result(w, kv_slots=4000))
    before = w.result
    w.view = "paged"  # which panels are drawn: the numbers stay
    assert w.result is before and w.error == ""


def test_a_model_and_gpu_size_the_memory():
    w = kw.MemoryOverTrace(model="llama-3-8b", gpu="H100", kv_dtype="fp8")
    assert w.kv_slots == 0 and w.error == ""
    m = browser_data.preset_model("llama-3-8b")
    slots = kv_slots_for(m, "H100-SXM", kv_dtype="fp8")
    same_runs(w.result, core_result(w, kv_slots=slots))
    # the paper's memory again, then a GPU change from Python asks for the model's memory
    w.kv_slots = PAPER_KV_SLOTS_OPT13B_A100_40GB
    w.gpu = "H200"
    assert w.kv_slots == 0
    same_runs(w.result, core_result(w, kv_slots=kv_slots_for(m, "H200", kv_dtype="fp8")))


def test_lengths_sent_are_the_requests_the_core_runs():
    w = kw.MemoryOverTrace(num_requests=300, seed=4)
    for name in ("sharegpt", "alpaca"):
        flat = w.lengths[name]
        pairs = list(zip(flat[0::2], flat[1::2]))
        assert len(pairs) == 3000  # every request count the browser offers
        assert tuple(pairs[:300]) == sample_requests(name, 300, seed=4)
        assert tuple(pairs) == sample_requests(name, 3000, seed=4)
    old = w.lengths
    w.seed = 5  # new lengths for both datasets, and a new result
    assert w.lengths != old and w.result["seed"] == 5
    w.num_requests = 5000  # more than the page held: Python draws more
    assert len(w.lengths["alpaca"]) == 10_000 and w.result["num_requests"] == 5000


def test_reference_carries_the_papers_figures_and_the_lengths_provenance():
    ref = kw.MemoryOverTrace().reference
    assert ref["paper_kv_use"]["paged"]["token_states"] == 0.963
    assert ref["paper_batch"]["sharegpt"]["max"] == 7.0
    assert ref["fits"]["sharegpt"]["input_mean"] == 161.31 and ref["fits"]["alpaca"]["output_mean"] == 58.45
    assert "Figure 11" in ref["source"] and "sigma" in ref["spread_assumption"]


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"dataset": "sharegtp"}, "dataset"),
        ({"block_size": 12}, "block_size"),
        ({"view": "fifo"}, "view"),
        ({"kv_slots": -1}, "kv_slots"),
        ({"model": "gpt-oss-120b"}, "sliding"),  # windows: no fixed slot size, refused by name
        ({"model": "llama-3.1-70b", "gpu": "H100"}, "leave no KV memory"),
        ({"kv_slots": 1500}, "never be admitted"),
    ],
)
def test_bad_input_is_named_and_the_last_result_kept(inputs, field):
    w = kw.MemoryOverTrace(num_requests=300)
    good = w.result
    for k, v in inputs.items():
        setattr(w, k, v)
    assert field in w.error
    assert w.result == good
