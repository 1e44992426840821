"""The five widgets from Python: inputs are synced traits, `result` is the core's numbers,
bad input lands in `error` (never raised out of an observer), models loaded from Python
work, linking and Scenario work, and the synced state stays small."""

from __future__ import annotations

import json
import statistics

import pytest
import traitlets

import kvwidgets as kw
from kvwidgets.data import measured
from kvwidgets.widgets import browser_data, designs, front_end

WIDGETS = [kw.PerTokenBytes, kw.UsersThatFit, kw.ContextVsUsers, kw.DecodeSpeed, kw.AttentionDesigns]

# A Llama-3-8B-shaped config as a user would paste it; named so it cannot clash with a preset.
MY_CONFIG = dict(
    model_type="llama",
    num_hidden_layers=32,
    num_attention_heads=32,
    num_key_value_heads=8,
    hidden_size=4096,
    intermediate_size=14336,
    vocab_size=128256,
    torch_dtype="bfloat16",
)

# One new valid value per input trait (different from every widget's default).
NEW_VALUES = {
    "model": "llama-3-70b",
    "gpu": "H200",
    "num_gpus": 2,
    "context": 32768,
    "batch": 32,
    "weight_dtype": "fp8",
    "kv_dtype": "fp8",
    "utilization": 0.8,
    "memory": "device",
    "working_bytes": 2_000_000_000,
    "window": 128,
    "short_context": 4096,
    "params": 70_000_000_000,
    "y_scale": "linear",
    "x_scale": "log",  # AttentionDesigns draws linear by default, so log is a change
}


def my_model():
    return kw.load_model(dict(MY_CONFIG), name="my-llama")


def synced_state(w) -> dict:
    return json.loads(json.dumps(w.get_state(), default=str))


@pytest.mark.parametrize("cls", WIDGETS, ids=lambda c: c.__name__)
def test_every_input_is_synced_and_changes_the_result(cls):
    w = cls(gpu="H100-SXM") if cls is kw.DecodeSpeed else cls()
    assert w.error == "", w.error
    for name in cls._inputs:
        before = w.result
        setattr(w, name, NEW_VALUES[name])
        assert w.error == "", f"{name}: {w.error}"
        assert synced_state(w)[name] == NEW_VALUES[name], f"{name} is not in the synced state"
        assert w.result != before, f"changing {name} did not change the result"


def test_every_listed_preset_is_in_the_model_menu():
    # state skips a preset that fails to load (so one bad file cannot break every widget);
    # this is where such a failure shows up
    names = set(browser_data.preset_names())
    assert names == set(kw.PerTokenBytes().shapes)
    assert {"llama-3-8b", "llama-3-70b", "deepseek-v3", "gpt-oss-120b", "gemma-3-27b"} <= names


def test_python_assignments_canonicalize_names():
    w = kw.UsersThatFit(gpu="h100", kv_dtype="bfloat16")
    assert (w.gpu, w.kv_dtype) == ("H100-SXM", "bf16")


# ---- outputs are the core's (and the seed's) numbers -------------------------------------


def test_per_token_bytes_seed_numbers():
    w = kw.PerTokenBytes(model="llama-3-8b", context=8192)
    r = w.result
    assert r["bytes_per_token"] == 131_072
    assert r["mha_bytes_per_token"] == 524_288 and r["mha_ratio"] == 4.0  # query heads by mistake
    assert r["per_context"] == {
        str(t): kw.load_model("llama-3-8b").kv_bytes(t) for t in (1024, 8192, 32768, 131072)
    }
    w.kv_dtype = "fp8"
    assert w.result["bytes_per_token"] == 65_536


def test_per_token_bytes_splits_hybrids_by_kind():
    w = kw.PerTokenBytes(model="gpt-oss-120b", context=131072)
    m = kw.load_model("gpt-oss-120b")
    assert w.result["bytes_per_token"] == m.kv_bytes_per_token() == 36_864
    assert w.result["kv_bytes_by_kind"] == m.bytes_by_kind(131072)
    assert w.result["kv_bytes_by_kind"]["sliding"] == 4_718_592  # 18 x 128 x 2,048, capped
    assert set(w.result["bytes_per_token_by_kind"]) == {"sliding", "full"}


def seed_70b():
    """The series counts Llama 3 70B as 70 B parameters (70 GB of FP8 weights)."""
    return kw.load_model("llama-3-70b", params=70_000_000_000)


@pytest.mark.parametrize(
    "gpu,weight_dtype,kv_dtype,model,users",
    [
        ("H100", "bf16", "bf16", "llama-3-8b", 53),
        ("H200", "bf16", "bf16", "llama-3-8b", 105),
        ("H200", "fp8", "bf16", "seed-70b", 21),
        ("H200", "fp8", "fp8", "seed-70b", 43),
    ],
)
def test_users_that_fit_seed_numbers(gpu, weight_dtype, kv_dtype, model, users):
    if model == "seed-70b":
        model = seed_70b()  # registered under its name, in place of the preset
    w = kw.UsersThatFit(model=model, gpu=gpu, context=8000, weight_dtype=weight_dtype, kv_dtype=kv_dtype)
    assert w.result["users"] == users
    core = kw.users_that_fit(model, gpu, 8000, weight_dtype=weight_dtype, kv_dtype=kv_dtype)
    for key in (
        "users",
        "weights_bytes",
        "kv_budget_bytes",
        "kv_per_user_bytes",
        "left_over_bytes",
        "reserve_bytes",
    ):
        assert w.result[key] == getattr(core, key)


def test_loads_but_cannot_serve_and_does_not_load():
    w = kw.UsersThatFit(model=seed_70b(), gpu="H100", context=8000, weight_dtype="fp8")
    assert w.result["users"] == 0 and w.result["loads_but_cannot_serve"]
    assert w.result["message"].startswith("Loads but cannot serve")
    w.weight_dtype = "bf16"
    assert not w.result["weights_fit"] and "does not even load" in w.result["message"]
    assert w.error == ""  # a model that does not fit is an answer, not an error


def test_users_across_gpu_counts_and_device_memory():
    w = kw.UsersThatFit(model="llama-3-70b", gpu="H200", context=8000)
    for n in (1, 2, 4, 8):
        assert (
            w.result["by_gpus"][str(n)]["users"]
            == kw.users_that_fit("llama-3-70b", "H200", 8000, num_gpus=n).users
        )
    w.memory = "device"
    assert w.result["memory_bytes"] == 150_109_880_320
    w.gpu = "H100"  # no device-reported size recorded: a message, the last result kept
    assert "device-reported" in w.error and w.result["memory_bytes"] == 150_109_880_320


def test_context_vs_users_matches_core():
    w = kw.ContextVsUsers(model="llama-3-8b", gpu="H100", context=8000)
    assert w.result["users"] == 53
    for t in ("8192", "32768", "131072"):
        for kv in ("bf16", "fp8"):
            assert (
                w.result["marks"][t][kv] == kw.users_that_fit("llama-3-8b", "H100", int(t), kv_dtype=kv).users
            )
    assert w.result["max_context_one_user"] == kw.max_context("llama-3-8b", "H100", 1)


def test_decode_speed_matches_core_and_shows_measured_h200():
    w = kw.DecodeSpeed(model="llama-3-8b", gpu="H200", context=8192, batch=8)
    core = kw.decode_ceiling("llama-3-8b", "H200", 8192, 8)
    assert w.result["tokens_per_s_per_user"] == core.tokens_per_s_per_user
    assert w.result["tokens_per_s_total"] == core.tokens_per_s_total
    assert w.result["crossover_batch"] == core.crossover_batch
    for b in (1, 8, 32, 64, 128, 256):
        assert (
            w.result["by_batch"][str(b)]["step_s"] == kw.decode_ceiling("llama-3-8b", "H200", 8192, b).step_s
        )
    assert w.result["shows_measured"]
    rows = w.measured["rows"]
    assert rows and all(r["batch"] >= 1 for r in rows)
    assert [(r["batch"], r["context"]) for r in rows] == [
        (r["batch"], r["context"]) for r in measured.h200_decode()
    ]
    assert "random" in w.measured["provenance"]
    w.gpu = "H100"
    assert not w.result["shows_measured"]


def test_attention_designs_on_the_llama_shape():
    w = kw.AttentionDesigns(kv_dtype="bf16", context=131072)
    d = w.result["designs"]
    assert d["MHA"]["bytes_per_token"] == 524_288
    assert d["GQA"]["bytes_per_token"] == 131_072
    assert d["MQA"]["bytes_per_token"] == 16_384
    assert d["MLA"]["bytes_per_token"] == 32 * (512 + 64) * 2
    hybrid = d["Sliding hybrid 1024"]
    assert hybrid["bytes_per_token"] == 65_536
    assert hybrid["long"] == 16 * 131072 * 4096 + 16 * 1024 * 4096  # sliding half capped
    for name in w.real:
        assert w.result["models"][name]["long"] == kw.load_model(name).kv_bytes(131072)
    assert set(w.real) == set(designs.REAL_MODELS) & set(browser_data.preset_shapes())
    w.window = 128
    assert "Sliding hybrid 128" in w.result["designs"]


# ---- models loaded from Python ------------------------------------------------------------


@pytest.mark.parametrize(
    "cls", [kw.PerTokenBytes, kw.UsersThatFit, kw.ContextVsUsers, kw.DecodeSpeed], ids=lambda c: c.__name__
)
def test_model_loaded_from_a_config_dict(cls):
    m = my_model()
    w = cls(model=m)
    assert w.model == "my-llama" and "my-llama" in w.shapes and w.error == ""
    assert w.shapes["my-llama"]["groups"] == m.shape()["groups"]
    w2 = cls()
    w2.model = m  # a Model assigned later is registered too
    assert w2.model == "my-llama" and "my-llama" in w2.get_state()["shapes"]
    assert w2.result == w.result
    w2.model = dict(MY_CONFIG)  # a config dict is loaded on the spot
    assert w2.error == "" and w2.model in w2.shapes


def test_loaded_model_result_is_the_core_one():
    m = my_model()
    w = kw.UsersThatFit(model=m, gpu="H100", context=8000)
    assert w.result["users"] == kw.users_that_fit(m, "H100", 8000).users == 53


# ---- linking ------------------------------------------------------------------------------


def test_traitlets_link_ties_two_widgets():
    a, b = kw.UsersThatFit(), kw.DecodeSpeed()
    traitlets.link((a, "context"), (b, "context"))
    a.context = 32768
    assert b.context == 32768 and b.result["context"] == 32768


def test_linking_carries_a_loaded_model_to_the_other_widget():
    a, b = kw.PerTokenBytes(), kw.UsersThatFit()
    traitlets.link((a, "model"), (b, "model"))
    a.model = kw.load_model(dict(MY_CONFIG), name="linked-llama")
    assert b.model == "linked-llama" and b.error == "" and "linked-llama" in b.shapes
    assert b.result["kv_per_user_bytes"] == 131_072 * b.context


def test_a_preset_name_still_means_the_preset_after_a_same_named_model():
    kw.UsersThatFit(model=seed_70b())  # a Model called "llama-3-70b" with 70 B params
    w = kw.UsersThatFit(model="llama-3-70b")
    assert w.result["weights_bytes"] == kw.load_model("llama-3-70b").weight_bytes()


def test_scenario_drives_several_widgets():
    s = kw.Scenario(model="llama-3-70b", gpu="H200", context=16384)
    u, c, d = kw.UsersThatFit(), kw.ContextVsUsers(), kw.DecodeSpeed(scenario=s)
    s.link(u, c)
    for w in (u, c, d):
        assert (w.model, w.gpu, w.context) == ("llama-3-70b", "H200", 16384)
    s.context = 131072
    assert all(w.result["context"] == 131072 for w in (u, c, d))
    u.kv_dtype = "fp8"  # a widget's control moves the scenario, and so the others
    assert s.kv_dtype == "fp8" and d.kv_dtype == "fp8"
    m = my_model()
    s.model = m  # registered in every linked widget before the name arrives
    assert all(w.model == "my-llama" and w.error == "" for w in (u, c, d))
    p = kw.PerTokenBytes()
    s.link(p)  # linked later: gets the scenario's loaded model too
    assert p.model == "my-llama" and p.error == ""
    s.unlink()
    s.context = 1024
    assert u.context == 131072


# ---- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,value,words",
    [
        ("context", -5, "context must be a whole number >= 1"),
        ("num_gpus", 3, "does not divide num_key_value_heads=8"),
        ("gpu", "H900", "unknown GPU 'H900'"),
        ("model", "llama-9", "unknown model 'llama-9'"),
        ("utilization", 1.5, "utilization must be in (0, 1]"),
        ("kv_dtype", "fp7", "unknown kv_dtype 'fp7'"),
    ],
)
def test_bad_input_sets_error_and_keeps_the_result(name, value, words):
    w = kw.UsersThatFit()
    good = dict(w.result)
    setattr(w, name, value)  # must not raise
    assert words in w.error
    assert w.result == good
    assert synced_state(w)["error"] == w.error
    setattr(w, name, w.initial[name])
    assert w.error == "" and w.result == good


def test_reset_restores_the_initial_inputs():
    w = kw.DecodeSpeed(context=4096)
    w.context, w.batch = 65536, 64
    w.reset()
    assert (w.context, w.batch) == (4096, 1) and w.result["context"] == 4096


def test_scale_is_synced():
    w = kw.PerTokenBytes(scale=1.5)
    assert synced_state(w)["scale"] == 1.5


@pytest.mark.parametrize("cls", [kw.PerTokenBytes, kw.UsersThatFit, kw.DecodeStep, kw.PagedBlocks])
def test_compact_is_synced_and_off_by_default(cls):
    assert synced_state(cls())["compact"] is False
    assert synced_state(cls(compact=True))["compact"] is True
    # the class the JS puts on the root has its rules in the widget's CSS
    assert ".kv-compact .kv-readouts" in cls._css


# ---- payload and speed --------------------------------------------------------------------


@pytest.mark.parametrize("cls", WIDGETS, ids=lambda c: c.__name__)
def test_synced_state_is_at_most_0_5_mb_with_plotly_js_shared(cls):
    """Each widget's own state (its ESM and CSS included) leaves plotly.js and the shared
    library to the one SharedAssets model it names; the standalone ESM carries both itself."""
    w = cls()
    state = w.get_state()
    size = len(json.dumps(state).encode())
    assert size <= 100_000, f"{cls.__name__}: {size:,} bytes"
    assert "window.Plotly = Plotly" not in json.dumps(state)
    assert state["_shared_assets"] == f"IPY_MODEL_{w._shared_assets.model_id}"
    standalone = cls.standalone_esm()
    # the standalone variant: plotly.js first, then the library put on the page, then the
    # very module the widget's _esm is
    assert standalone == (
        front_end.plotly_prelude() + front_end.read_built("standalone_prelude.js") + ";\n" + w._esm
    )
    assert front_end.library_source() not in w._esm
    # plotly.js runs only when this version is not on the page already
    assert front_end.plotly_prelude() == (
        f'if (!(globalThis.Plotly && globalThis.Plotly.version === "{front_end.plotly_version()}")) {{\n'
        + front_end.plotly_source()
        + "\n}\n"
    )


@pytest.mark.parametrize("cls", WIDGETS, ids=lambda c: c.__name__)
def test_python_recompute_is_quick(cls):
    w = cls()
    times = []
    for i in range(20):
        w.context = 4096 + 1024 * (i % 5)
        times.append(w.compute_ms)
    # a generous bound for a shared CI machine; the report quotes the measured medians
    assert statistics.median(times) < 50, times


def test_to_html_writes_a_standalone_page(tmp_path):
    w = kw.PerTokenBytes()
    path = tmp_path / "w.html"
    w.to_html(str(path))
    html = path.read_text()
    assert "PerTokenBytes" in html and "kv-plot" in html


# ---- any input: the core's answer or a message, never an exception -----------------------

import functools  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@functools.cache
def shared_users_widget():
    """One widget across examples, so each example starts from the last one's state."""
    return kw.UsersThatFit()


@settings(max_examples=150, deadline=None)
@given(
    model=st.sampled_from(sorted(browser_data.preset_shapes())),
    gpu=st.sampled_from(sorted(kw.GPUS)),
    num_gpus=st.sampled_from([1, 2, 3, 4, 8, 16, 0, -1]),
    context=st.integers(min_value=-10, max_value=2_000_000),
    weight_dtype=st.sampled_from(["bf16", "fp8", "int4", "fp32"]),
    kv_dtype=st.sampled_from(["bf16", "fp8", "int4"]),
    utilization=st.sampled_from([0.9, 0.5, 1.0, 0.0, 1.2]),
)
def test_users_widget_is_the_core_or_a_message(
    model, gpu, num_gpus, context, weight_dtype, kv_dtype, utilization
):
    w = shared_users_widget()
    with w.hold_trait_notifications():
        w.model, w.gpu, w.num_gpus, w.context = model, gpu, num_gpus, context
        w.weight_dtype, w.kv_dtype, w.utilization = weight_dtype, kv_dtype, utilization
    try:
        core = kw.users_that_fit(
            model,
            gpu,
            context,
            num_gpus=num_gpus,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            utilization=utilization,
        )
    except kw.KVWidgetsError as e:
        assert w.error == str(e)
    else:
        assert w.error == ""
        assert w.result["users"] == core.users and w.result["kv_budget_bytes"] == core.kv_budget_bytes


# ---- follow-ups: windows, memory limits on decode lines, params -------------------------


def test_per_token_bytes_sliding_everywhere_shows_the_window_filling_cost():
    r = kw.PerTokenBytes(model="mistral-7b-v0.1").result
    assert r["bytes_per_token"] == 0  # past every 4,096-token window
    assert r["bytes_per_token_within_windows"] == 131_072  # 128 KiB while the window fills
    assert r["mha_bytes_per_token"] == 524_288 and r["mha_ratio"] == 4.0


def test_per_token_bytes_hybrid_has_both_figures():
    r = kw.PerTokenBytes(model="gpt-oss-120b").result
    assert (r["bytes_per_token_within_windows"], r["bytes_per_token"]) == (73_728, 36_864)


def test_decode_speed_says_whether_the_batch_fits_in_memory():
    # 256 x 1M tokens of Llama 3 8B is ~34 TB of cache: not one 1M conversation fits on an H200
    w = kw.DecodeSpeed(model="llama-3-8b", gpu="H200", context=1_048_576, batch=256)
    r = w.result
    assert r["fits"] is False and r["max_batch"] == 0
    w.context, w.batch = 8192, 32
    fit = kw.users_that_fit("llama-3-8b", "H200", 8192, utilization=0.9)
    assert w.result["max_batch"] == fit.users and w.result["fits"] is True
    w.batch = fit.users + 1
    assert w.result["fits"] is False
    # each batch line is solid up to the longest context at which that batch fits
    for b, row in w.result["by_batch"].items():
        assert row["fits_up_to"] == kw.max_context("llama-3-8b", "H200", int(b))
    assert w.result["by_batch"]["256"]["fits_up_to"] < 4096 < w.result["by_batch"]["1"]["fits_up_to"]


def test_params_input_reproduces_the_seed_70b_assumption():
    w = kw.UsersThatFit(
        model="llama-3-70b",
        weight_dtype="fp8",
        params=70_000_000_000,
        gpu="H200",
        kv_dtype="fp8",
        context=8_000,
    )
    assert w.result["users"] == 43 and w.result["weights_bytes"] == 70_000_000_000
    w.params = 0  # the model's own count (70.55 B) leaves room for one user fewer
    assert w.result["users"] == 42
    w.params = -1
    assert "params must be a whole number >= 0" in w.error and w.result["users"] == 42


@pytest.mark.parametrize("cls", [kw.ContextVsUsers, kw.DecodeSpeed])
def test_params_input_reaches_the_other_widgets(cls):
    base = cls(model="llama-3-70b", gpu="H200", weight_dtype="fp8", kv_dtype="fp8").result
    r = cls(model="llama-3-70b", gpu="H200", weight_dtype="fp8", kv_dtype="fp8", params=70_000_000_000).result
    if cls is kw.DecodeSpeed:
        assert r["weight_bytes_per_step"] == 70_000_000_000 != base["weight_bytes_per_step"]
    else:
        assert r["kv_budget_bytes"] > base["kv_budget_bytes"]


def test_scenario_carries_params():
    s = kw.Scenario(model="llama-3-70b", gpu="H200", weight_dtype="fp8", kv_dtype="fp8", context=8_000)
    u = kw.UsersThatFit(scenario=s)
    s.params = 70_000_000_000
    assert u.params == 70_000_000_000 and u.result["users"] == 43


def test_context_vs_users_y_scale_and_mark_counts():
    w = kw.ContextVsUsers(model="llama-3-8b", gpu="H100-SXM")
    assert w.y_scale == "log" and w.result["y_scale"] == "log"
    for t in ("8192", "32768", "131072"):  # the numbers the marks' labels show (16-bit line)
        assert w.result["marks"][t]["bf16"] == kw.users_that_fit("llama-3-8b", "H100-SXM", int(t)).users
    w.y_scale = "linear"
    assert w.result["y_scale"] == "linear" and w.error == ""
    w.y_scale = "sqrt"
    assert "y_scale must be 'log' or 'linear'" in w.error and w.result["y_scale"] == "linear"
