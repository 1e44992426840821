"""The mechanism explainers from Python (DecodeStep, PagedBlocks, OffloadOrRecompute):
inputs are synced traits, `result` is kvwidgets.core's numbers, bad input lands in `error`
and never raises, loaded models work, and the state stays small."""

from __future__ import annotations

import dataclasses
import json

import pytest

import kvwidgets as kw
from kvwidgets.core import (
    FullAttentionSpec,
    LayerGroup,
    Model,
    RecurrentStateSpec,
    SlidingWindowSpec,
    decode_step_bytes,
)


def synced_state(w) -> dict:
    return json.loads(json.dumps(w.get_state(), default=str))


# ---- DecodeStep ---------------------------------------------------------------------------


def test_decode_step_result_is_the_core_step():
    w = kw.DecodeStep(model="gpt-oss-120b", prompt_tokens=100, generated=60)
    core = decode_step_bytes(kw.load_model("gpt-oss-120b"), 100, 60)
    assert w.error == ""
    for key in ("tokens", "phase", "stored_bytes", "read_bytes", "written_bytes"):
        assert w.result[key] == getattr(core, key)
    assert w.result["groups"] == [dataclasses.asdict(g) for g in core.groups]
    sliding = w.result["groups"][0]
    assert (sliding["kind"], sliding["held_tokens"], sliding["dropped_tokens"]) == ("sliding", 128, 32)
    assert w.result["num_layers"] == 36


@pytest.mark.parametrize(
    "name,value",
    [
        ("model", "deepseek-v3"),
        ("kv_dtype", "fp8"),
        ("prompt_tokens", 4096),
        ("generated", 12),
        ("attention_layer", "full"),
    ],
)
def test_decode_step_inputs_are_synced_and_change_the_result(name, value):
    w = kw.DecodeStep()
    before = w.result
    setattr(w, name, value)
    assert w.error == "" and synced_state(w)[name] == value
    assert w.result != before


def test_decode_step_speed_is_synced_and_checked():
    w = kw.DecodeStep()
    w.speed = 30
    assert synced_state(w)["speed"] == 30 and w.error == ""
    good = dict(w.result)
    w.speed = 7  # not on the menu
    assert "speed must be one of 1, 2, 5, 10, 30, 100" in w.error and w.result == good


@pytest.mark.parametrize(
    "name,value,words",
    [
        ("prompt_tokens", 0, "prompt_tokens must be a whole number >= 1"),
        ("generated", -3, "generated must be a whole number >= 0"),
        ("model", "llama-9", "unknown model 'llama-9'"),
        ("kv_dtype", "fp7", "unknown kv_dtype 'fp7'"),
        ("attention_layer", "middle", "attention_layer must be 'windowed' or 'full', got 'middle'"),
    ],
)
def test_decode_step_bad_input_is_a_message(name, value, words):
    w = kw.DecodeStep()
    good = dict(w.result)
    setattr(w, name, value)  # must not raise
    assert words in w.error and w.result == good
    setattr(w, name, w.initial[name])
    assert w.error == "" and w.result == good


def test_decode_step_default_drops_sliding_rows_within_a_few_steps():
    """The default (gpt-oss-20b, a 125-token prompt) fills its 128-token window at the 3rd
    step and drops a row at the 4th, so the window shows before a reader tires of Play."""
    w = kw.DecodeStep()
    sliding = lambda: next(g for g in w.result["groups"] if g["kind"] == "sliding")  # noqa: E731
    w.generated = 3
    assert (sliding()["held_tokens"], sliding()["dropped_tokens"]) == (128, 0)
    w.generated = 4
    assert (sliding()["held_tokens"], sliding()["dropped_tokens"]) == (128, 1)


def test_decode_step_attention_layer_picks_a_windowed_or_a_full_layer():
    w = kw.DecodeStep(generated=10)  # 135 tokens; gpt-oss-20b: sliding (128) and full layers
    assert (w.result["attention_kind"], w.result["attention_scored"]) == ("sliding", 128)
    w.attention_layer = "full"
    assert (w.result["attention_kind"], w.result["attention_scored"]) == ("full", 135)
    w.model = "llama-3-8b"  # no windowed layer: a full one either way
    w.attention_layer = "windowed"
    assert (w.result["attention_kind"], w.result["attention_scored"]) == ("full", 135)
    w.model = "deepseek-v3"
    assert (w.result["attention_kind"], w.result["attention_scored"]) == ("mla", 135)
    only_state = Model("state-only", (LayerGroup(RecurrentStateSpec(1000), 4),), 10**9)
    w.model = only_state
    assert w.error == "" and (w.result["attention_kind"], w.result["attention_scored"]) == (None, 0)


def test_decode_step_attention_menu_names_a_kind_the_model_has():
    # Llama 3 8B has no windowed layer: the menu starts, and resets, at a full layer
    w = kw.DecodeStep(model="llama-3-8b", prompt_tokens=40)
    assert (w.attention_layer, w.initial["attention_layer"], synced_state(w)["attention_layer"]) == (
        "full",
    ) * 3
    assert w.result["attention_kind"] == "full"
    # a model with windows keeps the windowed default
    w = kw.DecodeStep()
    assert (w.model, w.attention_layer) == ("gpt-oss-20b", "windowed")
    # a swap to a model without windows moves the menu to the kind it has; a swap back keeps
    # it there (gpt-oss-20b has full layers too)
    w.model = "llama-3.1-8b"
    assert w.attention_layer == "full" and w.result["attention_kind"] == "full"
    w.model = "gpt-oss-20b"
    assert w.attention_layer == "full" and w.result["attention_kind"] == "full"
    # every layer windowed: "full" moves to "windowed"
    w.model = Model("windows-only", (LayerGroup(SlidingWindowSpec(8, 128, window=512), 4),), 10**9)
    assert w.attention_layer == "windowed" and w.result["attention_kind"] == "sliding"
    # no layer keeps keys: the choice stays, and nothing is drawn
    w.model = Model("state-only", (LayerGroup(RecurrentStateSpec(1000), 4),), 10**9)
    assert w.attention_layer == "windowed" and w.result["attention_kind"] is None
    w.reset()
    assert (w.model, w.attention_layer) == ("gpt-oss-20b", "windowed")


def test_decode_step_loaded_model_with_a_recurrent_state():
    m = Model(
        "my-hybrid",
        (LayerGroup(RecurrentStateSpec(1_000_000), 6), LayerGroup(FullAttentionSpec(2, 128), 2)),
        10**9,
    )
    w = kw.DecodeStep(model=m, prompt_tokens=10, generated=1)
    assert w.error == "" and "my-hybrid" in w.shapes
    state = w.result["groups"][0]
    assert (state["kind"], state["bytes"], state["held_tokens"]) == ("recurrent", 6_000_000, 0)
    assert w.result["written_bytes"] == 2 * 2 * 256 * 2 + 6_000_000


def test_decode_step_warns_past_the_model_maximum():
    w = kw.DecodeStep(model="llama-3-8b", prompt_tokens=8000, generated=100)
    assert w.result["max_context"] == 8192 and not w.result["beyond_max_context"]
    w.generated = 200
    assert w.result["beyond_max_context"]
    assert w.shapes["llama-3-8b"]["max_context"] == 8192  # the browser warns from the same number


def test_decode_step_reset_goes_back_to_the_prefill():
    w = kw.DecodeStep(generated=0)
    w.generated, w.speed, w.attention_layer = 50, 100, "full"
    w.reset()
    assert (w.generated, w.speed, w.attention_layer) == (0, 5, "windowed") and w.result["phase"] == "prefill"


def test_decode_step_state_is_small_and_the_page_exports(tmp_path):
    w = kw.DecodeStep()
    assert len(json.dumps(w.get_state()).encode()) <= 1_500_000
    html = w.to_html(tmp_path / "step.html")
    assert "DecodeStep" in html and "decodeStepBytes" in html


# ---- PagedBlocks --------------------------------------------------------------------------


def test_paged_blocks_result_is_the_core_plan():
    from kvwidgets.core import block_plan

    w = kw.PagedBlocks(
        model="llama-3-8b", gpu="H100", used_tokens=1000, context=8192, users=4, prefix_tokens=500
    )
    core = block_plan(kw.load_model("llama-3-8b"), "H100", 1000, 8192, users=4, prefix_tokens=500)
    assert w.error == ""
    for key, value in dataclasses.asdict(core).items():
        assert w.result[key] == value, key
    assert (w.result["users_reserved"], w.result["paged_blocks"], w.result["shared_blocks"]) == (52, 63, 31)
    assert not w.result["has_windows"]


@pytest.mark.parametrize(
    "name,value",
    [
        ("model", "qwen3-8b"),
        ("gpu", "H200"),
        ("weight_dtype", "fp8"),
        ("kv_dtype", "fp8"),
        ("context", 32768),
        ("used_tokens", 3000),
        ("users", 8),
        ("prefix_tokens", 900),
        ("block_size", 32),
    ],
)
def test_paged_blocks_inputs_are_synced_and_change_the_result(name, value):
    w = kw.PagedBlocks()
    before = w.result
    setattr(w, name, value)
    assert w.error == "" and synced_state(w)[name] == value
    assert w.result != before


@pytest.mark.parametrize(
    "name,value,words",
    [
        ("block_size", 12, "block_size must be one of 8, 16, 32"),
        # conflicts: the browser's failure panel says the same sentence (paged_blocks.js)
        (
            "prefix_tokens",
            1000,
            "The shared prefix (prefix_tokens, 1,000) must be shorter than the tokens used (used_tokens, 1,000)",
        ),
        (
            "context",
            999,
            "The tokens used (used_tokens, 1,000) must fit in the maximum length a reservation holds (context, 999).",
        ),
        ("users", 0, "users must be a whole number >= 1"),
        ("gpu", "H900", "unknown GPU 'H900'"),
    ],
)
def test_paged_blocks_bad_input_is_a_message(name, value, words):
    w = kw.PagedBlocks()
    good = dict(w.result)
    setattr(w, name, value)
    assert words in w.error and w.result == good
    setattr(w, name, w.initial[name])
    assert w.error == "" and w.result == good


def test_paged_blocks_state_is_small_and_the_page_exports(tmp_path):
    w = kw.PagedBlocks()
    assert len(json.dumps(w.get_state()).encode()) <= 1_500_000
    assert "blockPlan" in w.to_html(tmp_path / "blocks.html")


# ---- OffloadOrRecompute -------------------------------------------------------------------


def test_offload_result_is_the_core_and_the_measured_data():
    from kvwidgets.core import prefill_seconds, recompute_crossover, reload_seconds
    from kvwidgets.data import measured

    w = kw.OffloadOrRecompute(model="llama-3-8b", gpu="H200", context=8192)
    m = kw.load_model("llama-3-8b")
    r = w.result
    assert w.error == "" and r["kv_bytes"] == 8192 * 131_072
    assert (
        r["reload_seconds"]["cpu-pinned"]["typical"]
        == reload_seconds(m, 8192, "cpu-pinned")
        == 8192 * 131_072 / 55e9
    )
    assert r["recompute_seconds"] == prefill_seconds(m, "H200", 8192) == 2 * m.params * 8192 / 989e12
    assert (
        r["shows_measured"] and r["measured_seconds"] == measured.h200_prefill()[2]["seconds"]
    )  # 8,192 is measured
    assert r["fastest"] == "reload from cpu-pinned"
    # Llama: cache and ideal prefill both grow linearly, so they never cross
    assert all(c["ideal"] is None for c in r["crossovers"].values())
    w.speed = "low"
    # a slow SSD (3.5 GB/s) is slower than the measured prefill at short context, and faster from
    # between 16K and 32K on, where attention's square term makes the prefill grow faster
    x = w.result["crossovers"]["nvme-ssd"]["measured"]
    assert 16384 < x < 32768
    rows = measured.h200_prefill()
    assert reload_seconds(m, x - 1, "nvme-ssd", speed="low") >= measured.interpolate_log(rows, x - 1)
    assert reload_seconds(m, x, "nvme-ssd", speed="low") < measured.interpolate_log(rows, x)
    # Gemma 3: sliding layers flatten the cache, so a slow tier crosses the ideal recompute
    w.model = "gemma-3-27b"
    assert w.result["crossovers"]["cpu-pageable"]["ideal"] == recompute_crossover(
        kw.load_model("gemma-3-27b"), "H200", "cpu-pageable", speed="low"
    )
    assert not w.result["shows_measured"] and w.result["measured_seconds"] is None


@pytest.mark.parametrize(
    "name,value",
    [
        ("model", "gemma-3-27b"),
        ("gpu", "B200"),
        ("kv_dtype", "fp8"),
        ("context", 32768),
        ("speed", "high"),
        ("params", 70_000_000_000),
    ],
)
def test_offload_inputs_are_synced_and_change_the_result(name, value):
    w = kw.OffloadOrRecompute()
    before = w.result
    setattr(w, name, value)
    assert w.error == "" and synced_state(w)[name] == value
    assert w.result != before


@pytest.mark.parametrize(
    "name,value,words",
    [
        ("speed", "warp", "speed must be 'low', 'typical' or 'high'"),
        ("context", 0, "context must be a whole number >= 1"),
        ("gpu", "H900", "unknown GPU"),
    ],
)
def test_offload_bad_input_is_a_message(name, value, words):
    w = kw.OffloadOrRecompute()
    good = dict(w.result)
    setattr(w, name, value)
    assert words in w.error and w.result == good


def test_measured_prefill_interpolation_stays_inside_the_data():
    from kvwidgets.data import measured

    rows = measured.h200_prefill()
    assert [r["tokens"] for r in rows] == [1024, 4096, 8192, 16384, 32768]
    assert measured.interpolate_log(rows, 100) is None and measured.interpolate_log(rows, 65536) is None
    mid = measured.interpolate_log(rows, 12000)
    assert rows[2]["seconds"] < mid < rows[3]["seconds"]


def test_offload_state_is_small_and_the_page_exports(tmp_path):
    w = kw.OffloadOrRecompute()
    assert len(json.dumps(w.get_state()).encode()) <= 1_500_000
    assert "recomputeCrossover" in w.to_html(tmp_path / "offload.html")


# ---- AttentionDesigns: head sharing and the linear axis -------------------------------------


def test_attention_designs_head_sharing_and_axis():
    w = kw.AttentionDesigns()
    assert w.result["query_heads_per_kv_head"] == {"MHA": 1, "GQA": 4, "MQA": 32}
    # linear by default (on a log axis the 4x from MHA to GQA is a small part of a bar)
    assert w.result["x_scale"] == "linear"
    w.x_scale = "log"
    assert w.error == "" and w.result["x_scale"] == "log"
    w.x_scale = "cubic"
    assert "x_scale must be 'log' or 'linear'" in w.error
    # what the diagram draws comes from the synced shapes
    assert w.shapes["GQA"]["query_heads"] == 32 and w.shapes["GQA"]["groups"][0]["kv_heads"] == 8
    assert w.shapes["MLA"]["groups"][0]["latent"] == 576


def test_attention_designs_names_real_models_drawn_past_their_trained_length():
    # the real models are drawn at 128K by default, which all of them were built for (the 3.1
    # Llamas, not Llama 3's 8,192): no warning inside a lesson's task
    assert kw.AttentionDesigns().result["past_max_context"] == []
    assert kw.AttentionDesigns().real[:2] == ["llama-3.1-8b", "llama-3.1-70b"]
    # past 131,072 the page names them (designs.js pastTrainedLength); DeepSeek-V3 holds 163,840
    assert kw.AttentionDesigns(context=150_000).result["past_max_context"] == [
        "llama-3.1-8b",
        "llama-3.1-70b",
        "gpt-oss-120b",
        "gemma-3-27b",
    ]


def test_shapes_say_the_maximum_context_and_whether_params_are_estimated():
    shapes = kw.UsersThatFit().shapes
    assert shapes["llama-3-8b"]["max_context"] == 8192 and not shapes["llama-3-8b"]["params_estimated"]
    assert shapes["falcon-7b"]["params_estimated"]  # the loader's estimate from its config
