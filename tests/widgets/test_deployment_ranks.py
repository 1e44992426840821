"""DeploymentRanks: the kernel's table of layouts is core.placement's numbers for every offered
layout and context, a layout switch reads it, and bad input is said under the widget.

Hand-worked numbers (H100: 80e9 x 0.9 = 72e9 usable; Llama 3.1 70B weights per stage as in
tests/core/test_placement.py, split [27, 27, 26]):
  stage 0: 72e9 - 48,306,689,434 = 23,693,310,566 / (27 x 4,096 x 32,768 = 3,623,878,656) = 6.5 -> 6
  stage 1: 72e9 - 46,205,343,130 = 25,794,656,870 / 3,623,878,656 = 7.1 -> 7
  stage 2: 72e9 - 46,595,380,429 = 25,404,619,571 / (26 x 4,096 x 32,768 = 3,489,660,928) = 7.3 -> 7
"""

from __future__ import annotations

import pytest

import kvwidgets as kw
from kvwidgets.core.placement import Deployment, placement
from kvwidgets.widgets.deployment_ranks import CONTEXTS, layout_key, offered_layouts


@pytest.fixture(scope="module")
def llama_pp3():
    return kw.DeploymentRanks()  # the default: Llama 3.1 70B, PP 3 on H100s, 32,768 tokens


@pytest.fixture(scope="module")
def deepseek():
    return kw.DeploymentRanks(model="deepseek-v3", gpu="H200", tp=8, pp=1, weight_dtype="fp8")


def test_default_is_llama_pp3_with_the_first_stage_full_first(llama_pp3):
    w = llama_pp3
    assert w.error == ""
    r = w.result
    assert [x["conversations"] for x in r["ranks"]] == [6, 7, 7]
    assert r["conversations"] == 6 and list(r["full_ranks"]) == [0]
    assert r["ranks"][0]["holds_embedding"] and not r["ranks"][1]["holds_embedding"]
    # vLLM cuts every stage to the smallest pool: 6 too
    assert r["vllm_conversations"] == 6
    assert r["gpu_memory_bytes"] == 80_000_000_000


def test_the_table_is_the_cores_placement_for_every_layout_and_context(llama_pp3):
    w = llama_pp3
    model = kw.load_model("llama-3.1-70b")
    # three GPUs: all TP, all PP, all data-parallel (a dense model: no EP)
    assert w.layouts_for["order"] == ["tp3-pp1-dp1-ep0", "tp1-pp3-dp1-ep0", "tp1-pp1-dp3-ep0"]
    assert w.layouts_for["contexts"] == list(CONTEXTS) and 32768 in CONTEXTS
    for key, entry in w.layouts.items():
        d = Deployment(entry["tp"], entry["pp"], entry["dp"], entry["ep"])
        if "error" in entry:
            continue
        for context in (1024, 32768, 1_048_576):
            p = placement(model, "H100-SXM", context, deployment=d)
            row = entry["by_context"][str(context)]
            assert row["conversations"] == p.conversations, (key, context)
            assert row["rank_conversations"] == [r.conversations for r in p.ranks]
            assert row["full_ranks"] == list(p.full_ranks)
            assert row["vllm_conversations"] == p.vllm_conversations
            assert row["summed_conversations"] == p.summed_conversations
        assert [r["weights_bytes"] for r in entry["ranks"]] == [r.weights_bytes for r in p.ranks]
    # 8 KV heads do not split over TP 3: the layout stays offered with the core's reason
    assert "num_key_value_heads=8" in w.layouts["tp3-pp1-dp1-ep0"]["error"]
    # every GPU holding the whole 141 GB model: the weights do not load on an 80 GB H100
    dp3 = w.layouts["tp1-pp1-dp3-ep0"]
    assert dp3["weights_fit"] is False
    assert dp3["by_context"]["32768"]["conversations"] == 0
    assert dp3["by_context"]["32768"]["message"].startswith("The weights do not load")


def test_deepseek_tp8_against_dp_attention(deepseek):
    w = deepseek
    # TP 8: every rank holds the whole latent, 18 each (tests/core/test_placement.py)
    assert w.result["conversations"] == 18 and w.result["vllm_conversations"] == 18
    assert set(w.layouts) == {"tp8-pp1-dp1-ep0", "tp1-pp8-dp1-ep0", "tp1-pp1-dp8-ep1"}
    row = w.layouts["tp1-pp1-dp8-ep1"]["by_context"]["32768"]
    # DP 8 with EP 8: 12 per replica, eight replicas
    assert row["replica_conversations"] == [12] * 8 and row["conversations"] == 96
    table = w.layouts
    with w.hold_trait_notifications():
        w.tp, w.dp, w.ep = 1, 8, True
    # the switch reads the same table (no recompute) and result follows the core
    assert w.layouts is table
    assert w.result["conversations"] == 96 and w.error == ""
    assert w.result["deployment"]["label"] == "TP 1 x DP 8 x EP 8 (8 GPUs)"


def test_a_context_off_the_stops_is_added_and_changes_recompute():
    w = kw.DeploymentRanks(context=30_000)
    assert 30_000 in w.layouts_for["contexts"]
    p = placement(kw.load_model("llama-3.1-70b"), "H100", 30_000, pp=3)
    assert w.layouts["tp1-pp3-dp1-ep0"]["by_context"]["30000"]["conversations"] == p.conversations
    w.gpu = "H200"  # a new GPU: a new table
    assert w.layouts_for["gpu"] == "H200"
    h200 = placement(kw.load_model("llama-3.1-70b"), "H200", 30_000, pp=3)
    assert w.result["conversations"] == h200.conversations > p.conversations


def test_bad_input_is_said_and_the_last_result_stays():
    w = kw.DeploymentRanks()
    before = w.result
    w.gpu = "H900"
    assert "H900" in w.error and w.result == before
    w.gpu = "H100"
    assert w.error == ""
    with w.hold_trait_notifications():
        w.tp, w.pp = 3, 1
    assert "num_key_value_heads=8" in w.error
    assert w.result == before
    w.pp = 0
    assert "pp" in w.error


def test_offered_layouts_keep_a_mixed_choice():
    got = offered_layouts(4, 2, 1, False, num_layers=80, has_experts=False)
    assert [layout_key(d.tp, d.pp, d.dp, d.ep) for d in got] == [
        "tp8-pp1-dp1-ep0",
        "tp1-pp8-dp1-ep0",
        "tp1-pp1-dp8-ep0",
        "tp4-pp2-dp1-ep0",
    ]
    # one GPU: one layout; more stages than layers: no PP button
    assert len(offered_layouts(1, 1, 1, False, num_layers=80, has_experts=False)) == 1
    assert [d.pp for d in offered_layouts(4, 1, 1, False, num_layers=2, has_experts=True)] == [1, 1]


# Each step sets one input; the run revisits earlier values, so a kept table would be reused
# exactly where a stale one could slip through.
RUN = [
    ("context", 65536),
    ("gpu", "H200"),
    ("kv_dtype", "fp8"),
    ("pp", 2),
    ("utilization", 0.8),
    ("model", "llama-3.1-8b"),
    ("tp", 2),
    ("pp", 1),
    ("context", 32768),
    ("model", "llama-3.1-70b"),
    ("gpu", "H100"),
]


def test_every_change_gives_what_a_fresh_widget_computes():
    w = kw.DeploymentRanks()
    inputs: dict = {}
    for name, value in RUN:
        setattr(w, name, value)
        inputs[name] = value
        fresh = kw.DeploymentRanks(**inputs)
        assert w.error == fresh.error
        assert (w.result, w.layouts, w.layouts_for) == (fresh.result, fresh.layouts, fresh.layouts_for), (
            inputs
        )


def test_a_model_replaced_under_the_same_name_is_placed_again():
    config = dict(
        model_type="llama",
        num_hidden_layers=32,
        num_attention_heads=32,
        num_key_value_heads=8,
        hidden_size=4096,
        intermediate_size=14336,
        vocab_size=128256,
        tie_word_embeddings=False,
        torch_dtype="bfloat16",
    )
    first = kw.load_model(dict(config), name="mine-ranks")
    # twice the KV heads: every rank's cache per conversation doubles
    second = kw.load_model(dict(config, num_key_value_heads=16), name="mine-ranks")
    w = kw.DeploymentRanks(model=first, gpu="L4", pp=2, context=4096)
    assert w.error == ""
    before = w.layouts["tp1-pp2-dp1-ep0"]["by_context"]["8192"]["kv_bytes_per_conversation"]
    w.model = second
    # a change of context recomputes; both contexts are slider stops, so by name the table's
    # inputs are the same and only the Model object differs
    w.context = 8192
    after = w.layouts["tp1-pp2-dp1-ep0"]["by_context"]["8192"]["kv_bytes_per_conversation"]
    # 16 layers x 8 heads x 128 x 2 x 2 B x 8,192 tokens = 536,870,912 B a stage; doubled with 16 heads
    assert before == [536_870_912, 536_870_912] and after == [1_073_741_824, 1_073_741_824]
