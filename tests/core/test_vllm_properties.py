"""Laws vLLM's accounting obeys for any model it accepts, over generated hybrids (hypothesis).

From the rules (v1/core/kv_cache_utils.py, kv_cache_planning.py of 0.11.0 / 0.33.0):
blocks are whole and the memory they take never exceeds the pool; every layer that stores
something is in exactly one group; hybrid groups are all group_size slots wide; the
concurrency is blocks over the blocks a request needs; the token count follows the
version's rule; more memory never means fewer blocks.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kvwidgets as kw
from kvwidgets.core import (
    ChunkedLocalSpec,
    FullAttentionSpec,
    InputError,
    LayerGroup,
    MLASpec,
    Model,
    RecurrentStateSpec,
    SlidingWindowSpec,
)

PROFILE = settings(deadline=None, max_examples=80, suppress_health_check=[HealthCheck.too_slow])

HEADS = st.sampled_from([1, 2, 4, 8, 16])
DIMS = st.sampled_from([64, 128, 256])
SPEC = st.one_of(
    st.builds(FullAttentionSpec, HEADS, DIMS),
    st.builds(SlidingWindowSpec, HEADS, DIMS, window=st.integers(1, 40_000)),
    st.builds(ChunkedLocalSpec, HEADS, DIMS, chunk=st.sampled_from([2048, 8192])),
    st.builds(MLASpec, st.sampled_from([256, 512]), st.sampled_from([0, 64])),
    st.builds(RecurrentStateSpec, st.integers(10_000, 4_000_000)),
)
MODELS = st.builds(
    lambda gs: Model("generated", tuple(gs), 1_000_000_000),
    st.lists(st.builds(LayerGroup, SPEC, st.integers(1, 64)), min_size=2, max_size=3),
)
SETTINGS = st.fixed_dictionaries(
    {
        "vllm_version": st.sampled_from(["0.11", "0.33"]),
        "max_model_len": st.integers(1, 300_000),
        "kv_cache_memory_bytes": st.integers(0, 200 * 2**30),
        "kv_dtype": st.sampled_from(["bf16", "fp8"]),
        "hybrid_kv_cache_manager": st.sampled_from([None, True, False]),
        "max_num_batched_tokens": st.sampled_from([2048, 8192]),
    }
)


def plan(model, s):
    try:
        return kw.vllm_kv_report(model, **s)
    except InputError:  # vLLM refuses this mix (pages it cannot unify, mamba without the allocator)
        return None


@PROFILE
@given(MODELS, SETTINGS)
def test_laws(model, s):
    r = plan(model, s)
    if r is None:
        return
    assert r.num_blocks * r.bytes_per_block <= r.available_bytes < (r.num_blocks + 1) * r.bytes_per_block
    assert r.kv_cache_bytes == r.num_blocks * r.bytes_per_block
    assert sum(g.layers for g in r.groups) == model.num_layers
    if r.layout == "hybrid":
        assert all(g.layers + g.padding == r.group_size for g in r.groups)
        assert r.bytes_per_block == r.group_size * r.page_size_bytes
        assert len({g.page_bytes for g in r.groups}) == 1
    assert r.blocks_per_request == sum(g.blocks_per_request for g in r.groups)
    assert r.max_concurrency == r.num_blocks / r.blocks_per_request
    if s["vllm_version"] == "0.11":
        assert r.gpu_kv_cache_tokens == r.num_blocks // len(r.groups) * min(g.block_size for g in r.groups)
    else:
        assert r.gpu_kv_cache_tokens == int(r.max_concurrency * s["max_model_len"])


@PROFILE
@given(MODELS, SETTINGS, st.integers(1, 50 * 2**30))
def test_more_memory_never_fewer_blocks_or_tokens(model, s, more):
    a = plan(model, s)
    if a is None:
        return
    b = kw.vllm_kv_report(model, **{**s, "kv_cache_memory_bytes": s["kv_cache_memory_bytes"] + more})
    assert b.num_blocks >= a.num_blocks and b.gpu_kv_cache_tokens >= a.gpu_kv_cache_tokens


@PROFILE
@given(MODELS, SETTINGS)
def test_worked_back_from_tokens_logs_the_same_tokens(model, s):
    r = plan(model, s)
    if r is None or r.gpu_kv_cache_tokens == 0:
        return
    args = {k: v for k, v in s.items() if k != "kv_cache_memory_bytes"}
    back = kw.vllm_report_from_tokens(model, r.gpu_kv_cache_tokens, **args)
    assert back.gpu_kv_cache_tokens == r.gpu_kv_cache_tokens and back.num_blocks <= r.num_blocks


@pytest.mark.parametrize("version", ["0.11", "0.33"])
def test_windows_never_cost_a_request_more_blocks_than_full(version):
    for window in (1, 127, 1024, 8191, 100_000):
        m = Model(
            "m",
            (
                LayerGroup(SlidingWindowSpec(8, 128, window=window), 8),
                LayerGroup(FullAttentionSpec(8, 128), 8),
            ),
            1_000_000_000,
        )
        r = kw.vllm_kv_report(m, max_model_len=32_768, kv_cache_memory_bytes=2**34, vllm_version=version)
        sliding, full = (next(g for g in r.groups if g.kind == k) for k in ("sliding", "full"))
        assert sliding.blocks_per_request <= full.blocks_per_request + 1
