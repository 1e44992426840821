"""Every bad input the core can get raises a clear error naming the field and what was expected.

A widget shows these messages under itself and a notebook prints them, so each test
checks the error class (callers catch ValueError / KeyError) and that the message names
the field and the range or the close matches.
"""

from __future__ import annotations

import re

import pytest

import kvwidgets as kw
from kvwidgets.core import InputError, UnknownNameError


@pytest.fixture(scope="module")
def m8():
    return kw.load_model("llama-3-8b")


def raises(exc, *fragments):
    """pytest.raises whose message must contain every fragment (regex-escaped)."""
    return pytest.raises(exc, match="(?s)" + "".join(f"(?=.*{re.escape(f)})" for f in fragments))


# ---- context, batch and other counts ----------------------------------------------------


@pytest.mark.parametrize("context", [-1, 0, 1.5, "8000", None, float("nan"), float("inf"), True])
def test_bad_context(m8, context):
    with raises(InputError, "context", "whole number >= 1", repr(context)):
        kw.users_that_fit(m8, "H100", context)
    with raises(InputError, "context", "whole number >= 1"):
        kw.decode_ceiling(m8, "H100", context)


@pytest.mark.parametrize("tokens", [-5, 2.5, "x"])
def test_bad_tokens_for_kv_bytes(m8, tokens):
    with raises(InputError, "context", "whole number >= 0"):
        m8.kv_bytes(tokens)


@pytest.mark.parametrize("batch", [0, -3, 1.5])
def test_bad_batch(m8, batch):
    with raises(InputError, "batch", "whole number >= 1", repr(batch)):
        kw.decode_ceiling(m8, "H100", 8192, batch)


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda m: kw.max_context(m, "H100", 0), "users"),
        (lambda m: kw.prefix_sharing(m, 0, 4000), "users"),
        (lambda m: kw.prefix_sharing(m, 50, 0), "prefix_tokens"),
        (lambda m: kw.offload_vs_recompute(m, "H100", 0), "tokens"),
        (lambda m: kw.prefill_seconds(m, "H100", -1), "tokens"),
        (lambda m: kw.paged_vs_reserved(m, "H100", 0), "used_tokens"),
        (lambda m: kw.paged_vs_reserved(m, "H100", 8000, 131072, block_size=0), "block_size"),
        (lambda m: kw.vllm_report_from_tokens(m, 0, max_model_len=16384), "gpu_kv_cache_tokens"),
        (lambda m: kw.vllm_report_from_tokens(m, 396272, max_model_len=0), "max_model_len"),
        (lambda m: kw.vllm_report_from_tokens(m, 396272, max_model_len=16384, block_size=0), "block_size"),
        (lambda m: kw.vllm_kv_report(m, "H100", block_size=0), "block_size"),
        (lambda m: kw.users_that_fit(m, "H100", 8000, params=0), "params"),
        (lambda m: m.with_params(-1), "params"),
        (lambda m: m.with_kv_heads(0), "num_key_value_heads"),
        (lambda m: kw.uniform_model("x", 0, 8, 128, 10**9), "num_hidden_layers"),
        (lambda m: kw.uniform_model("x", 32, 8, 0, 10**9), "head_dim"),
        (lambda m: kw.uniform_model("x", 32, 8, 128, 10**9, window=-4), "sliding_window"),
    ],
)
def test_bad_counts_name_their_field(m8, call, field):
    with raises(InputError, field, "whole number >="):
        call(m8)


def test_reserved_shorter_than_used_says_so(m8):
    with raises(InputError, "reserved_tokens", ">= 8000", "4000"):
        kw.paged_vs_reserved(m8, "H100", 8000, 4000)


# ---- names: dtypes, GPUs, storage tiers -----------------------------------------------------


@pytest.mark.parametrize("field", ["kv_dtype", "weight_dtype"])
def test_unknown_dtype_lists_close_matches(m8, field):
    with raises(UnknownNameError, f"unknown {field} 'bf8'", "Did you mean", "'bf16'", "'fp8'", "fp32"):
        kw.users_that_fit(m8, "H100", 8000, **{field: "bf8"})
    with pytest.raises(KeyError):  # callers that catch KeyError still do
        kw.users_that_fit(m8, "H100", 8000, **{field: "bf8"})


def test_unknown_dtype_without_close_match_still_lists_the_known(m8):
    with raises(UnknownNameError, "unknown kv_dtype 'x'", "bf16, fp16, fp32, fp8, int4, int8"):
        m8.kv_bytes_per_token("x")


@pytest.mark.parametrize(
    "name, close", [("H10", "H100-SXM"), ("MI300", "MI300X"), ("rtx4080", "RTX-4090"), ("L40", "L40S")]
)
def test_unknown_gpu_lists_close_matches(m8, name, close):
    with raises(
        UnknownNameError, f"unknown GPU {name!r}", "Did you mean", repr(close), "Known GPUs:", "H200"
    ):
        kw.users_that_fit(m8, name, 8000)


def test_unknown_gpu_none(m8):
    with raises(UnknownNameError, "unknown GPU None", "Known GPUs:"):
        kw.decode_ceiling(m8, None)


def test_unknown_storage_tier(m8):
    with raises(UnknownNameError, "unknown storage tier 'tape'", "cpu-pinned"):
        kw.reload_seconds(m8, 8000, "tape")


def test_unknown_reload_speed(m8):
    with raises(InputError, "speed", "'low', 'typical' or 'high'", "'fast'"):
        kw.reload_seconds(m8, 8000, "cpu-pinned", speed="fast")


# ---- utilization, GPUs, working memory, memory kind -------------------------------------------


@pytest.mark.parametrize("utilization", [0, 1.5, -0.1, float("nan"), float("inf"), float("-inf")])
def test_utilization_out_of_range(m8, utilization):
    with raises(InputError, "utilization", "(0, 1]", repr(utilization)):
        kw.users_that_fit(m8, "H100", 8000, utilization=utilization)


@pytest.mark.parametrize("utilization", ["x", None, True, [0.9]])
def test_utilization_not_a_number(m8, utilization):
    with raises(InputError, "utilization must be a number in (0, 1]", repr(utilization)):
        kw.users_that_fit(m8, "H100", 8000, utilization=utilization)


@pytest.mark.parametrize(
    "call",
    [
        lambda m: kw.users_that_fit(m, "H100", 8000, num_gpus=0),
        lambda m: kw.decode_ceiling(m, "H100", 8192, num_gpus=0),
        lambda m: kw.prefill_seconds(m, "H100", 8000, num_gpus=-1),
        lambda m: m.kv_bytes(8000, tp=0),
    ],
)
def test_zero_gpus(m8, call):
    with raises(InputError, "num_gpus", "whole number >= 1"):
        call(m8)


def test_gpus_that_do_not_divide_kv_heads(m8):
    with raises(InputError, "num_gpus=3", "num_key_value_heads=8", "divide"):
        kw.users_that_fit(m8, "H100", 8000, num_gpus=3)
    with raises(InputError, "num_gpus=12", "num_key_value_heads=8", "multiple"):
        kw.decode_ceiling(m8, "H100", 8192, num_gpus=12)


def test_negative_working_bytes(m8):
    with raises(InputError, "working_bytes", "whole number >= 0", "-1"):
        kw.users_that_fit(m8, "H100", 8000, working_bytes=-1)


def test_device_memory_where_none_is_recorded(m8):
    with raises(InputError, "memory='device'", "H100-SXM", "memory='marketed'"):
        kw.users_that_fit(m8, "H100", 8000, memory="device")
    # ...and where it is recorded it works.
    assert kw.users_that_fit(m8, "H200", 8000, memory="device").memory_bytes == 150_109_880_320


def test_unknown_memory_kind(m8):
    with raises(InputError, "memory must be 'marketed' or 'device'", "'hbm'"):
        kw.users_that_fit(m8, "H100", 8000, memory="hbm")


@pytest.mark.parametrize("bandwidth", [0, -1, float("nan"), float("inf"), "fast"])
def test_bad_bandwidth_override(m8, bandwidth):
    with raises(InputError, "bandwidth_gbps", "> 0", repr(bandwidth)):
        kw.decode_ceiling(m8, "H100", 8192, bandwidth_gbps=bandwidth)


# ---- vLLM log ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "INFO  Model loading took 14.99 GiB memory\n",
        None,
        "Maximum concurrency for 16,384 tokens per request: 24.19x",
    ],
)
def test_vllm_log_without_the_line(text):
    with raises(InputError, "vLLM log", "GPU KV cache size: N tokens"):
        kw.parse_vllm_log(text)


# ---- a model that holds nothing per token cannot be divided into users ----------------------------


def test_model_with_no_kv_bytes():
    from kvwidgets.core import LayerGroup, Model, RecurrentStateSpec

    empty = Model("stateless", (LayerGroup(RecurrentStateSpec(0), 4),), 10**9)
    with raises(InputError, "context=8000", "no KV bytes", "stateless"):
        kw.users_that_fit(empty, "H100", 8000)
