"""Laws the core must obey for any model, checked over generated ones (hypothesis).

Models are random mixes of every layer kind (full, sliding, chunked, cross-attention,
MLA with or without DeepSeek-V3.2's indexer cache, recurrent) with random heads, head
sizes, windows and parameter counts, so a law that only holds for the Llama shapes the
seeds use shows up here.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from kvwidgets.core import (
    GPUS,
    ChunkedLocalSpec,
    CrossAttentionSpec,
    FullAttentionSpec,
    InputError,
    LayerGroup,
    MLASpec,
    Model,
    RecurrentStateSpec,
    SlidingWindowSpec,
    max_context,
    users_that_fit,
)

# A loaded 2-core CI box: no per-example deadline, and few enough examples to stay quick.
settings.register_profile(
    "kvwidgets", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("kvwidgets")

KV_HEADS = st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128])
HEAD_DIMS = st.sampled_from([32, 63, 64, 80, 96, 128, 192, 256])  # 63: odd sizes reach half bytes at int4
WINDOWS = st.integers(min_value=1, max_value=65_536)
TOKENS = st.integers(min_value=0, max_value=2_000_000)
GPU_NAMES = st.sampled_from(sorted(GPUS))
KV_DTYPES = st.sampled_from(["bf16", "fp16", "fp8", "fp32", "int8"])


def full_specs():
    return st.builds(FullAttentionSpec, KV_HEADS, HEAD_DIMS, st.one_of(st.none(), HEAD_DIMS))


def sliding_specs():
    return st.builds(SlidingWindowSpec, KV_HEADS, HEAD_DIMS, st.one_of(st.none(), HEAD_DIMS), window=WINDOWS)


def chunked_specs():
    return st.builds(ChunkedLocalSpec, KV_HEADS, HEAD_DIMS, st.one_of(st.none(), HEAD_DIMS), chunk=WINDOWS)


def cross_specs():
    return st.builds(
        CrossAttentionSpec,
        KV_HEADS,
        HEAD_DIMS,
        st.one_of(st.none(), HEAD_DIMS),
        encoder_tokens=st.integers(min_value=1, max_value=20_000),
    )


def mla_specs():
    # index_bytes: 0, or DeepSeek-V3.2's 128 FP8 index keys + one float32 scale
    return st.builds(
        MLASpec,
        st.sampled_from([128, 256, 512]),
        st.sampled_from([0, 1, 32, 64]),
        st.sampled_from([0, 0, 132]),
    )


def recurrent_specs():
    split = st.integers(min_value=1, max_value=25_000_000).flatmap(
        lambda conv: st.integers(min_value=0, max_value=25_000_000).map(
            lambda ssm: RecurrentStateSpec(conv + ssm, conv, ssm, "fp32")
        )
    )
    return st.one_of(st.builds(RecurrentStateSpec, st.integers(min_value=1, max_value=50_000_000)), split)


ANY_SPEC = st.one_of(
    full_specs(), sliding_specs(), chunked_specs(), cross_specs(), mla_specs(), recurrent_specs()
)


def models(spec=ANY_SPEC, max_groups=4):
    groups = st.lists(
        st.builds(LayerGroup, spec, st.integers(min_value=1, max_value=96)), min_size=1, max_size=max_groups
    )
    return st.builds(
        lambda gs, p: Model("generated", tuple(gs), p),
        groups,
        st.integers(min_value=100_000_000, max_value=400_000_000_000),
    )


def has_kind(model: Model, *kinds: str) -> bool:
    return any(g.spec.kind in kinds for g in model.groups)


def _ok_tp(model: Model, tp: int) -> bool:
    """Whether the core accepts tensor parallelism tp for this model (heads split or copied evenly)."""
    try:
        model.kv_bytes(1, tp=tp)
        return True
    except InputError:
        return False


# ---- bytes ------------------------------------------------------------------------------


@given(models(), TOKENS, st.integers(min_value=1, max_value=100_000), KV_DTYPES)
def test_kv_bytes_never_fall_as_tokens_grow(model, tokens, more, kv_dtype):
    assert model.kv_bytes(tokens + more, kv_dtype) >= model.kv_bytes(tokens, kv_dtype)


@given(models(), TOKENS)
def test_fp8_cache_is_half_of_bf16_and_fp32_double(model, tokens):
    # Recurrent state and the indexer's FP8 keys keep their own format whatever the KV
    # dtype, so only the numbers stored in the KV dtype scale.
    fixed = sum(g.count * g.spec.fixed_bytes() for g in model.groups)
    fixed += sum(
        g.count * g.spec.tokens_held(tokens) * g.spec.index_bytes
        for g in model.groups
        if isinstance(g.spec, MLASpec)
    )
    index_per_token = sum(g.count * g.spec.index_bytes for g in model.groups if isinstance(g.spec, MLASpec))
    bf16 = model.kv_bytes(tokens, "bf16") - fixed
    assert 2 * (model.kv_bytes(tokens, "fp8") - fixed) == bf16
    assert model.kv_bytes(tokens, "fp32") - fixed == 2 * bf16
    assert model.kv_bytes(tokens, "fp16") == model.kv_bytes(tokens, "bf16")
    per_token = {d: model.kv_bytes_per_token(d) - index_per_token for d in ("fp8", "bf16", "fp32")}
    assert 2 * per_token["fp8"] == per_token["bf16"] and per_token["fp32"] == 2 * per_token["bf16"]


@given(models(spec=sliding_specs()), st.integers(min_value=0, max_value=1_000_000), KV_DTYPES)
def test_window_caps_a_pure_sliding_model(model, beyond, kv_dtype):
    window = max(g.spec.window for g in model.groups)
    assert model.kv_bytes(window + beyond, kv_dtype) == model.kv_bytes(window, kv_dtype)
    assert model.kv_bytes_per_token(kv_dtype) == 0  # nothing grows once past every window


@given(models(), st.integers(min_value=0, max_value=1_000_000), st.integers(min_value=1, max_value=10_000))
def test_past_every_window_each_token_costs_kv_bytes_per_token(model, beyond, more):
    caps = [g.spec.token_cap for g in model.groups if g.spec.token_cap is not None]
    t = max(caps, default=0) + beyond
    assert model.kv_bytes(t + more) - model.kv_bytes(t) == more * model.kv_bytes_per_token()


@given(models(), st.integers(min_value=0, max_value=100_000), KV_DTYPES)
def test_while_every_window_fills_each_token_costs_the_within_windows_figure(model, tokens, kv_dtype):
    caps = [g.spec.token_cap for g in model.groups if g.spec.token_cap]  # 0 = never grows
    assume(tokens + 1 <= min(caps, default=tokens + 1))
    step = model.kv_bytes(tokens + 1, kv_dtype) - model.kv_bytes(tokens, kv_dtype)
    assert step == model.kv_bytes_per_token_within_windows(kv_dtype)
    assert model.kv_bytes_per_token_within_windows(kv_dtype) >= model.kv_bytes_per_token(kv_dtype)
    by_kind = model.kv_bytes_per_token_by_kind(kv_dtype)
    assert sum(by_kind.values()) == model.kv_bytes_per_token_within_windows(kv_dtype)
    assert by_kind.get("recurrent", 0) == 0 and by_kind.get("cross", 0) == 0


@given(models(spec=cross_specs()), TOKENS, KV_DTYPES)
def test_cross_attention_holds_the_image_tokens_whatever_the_context(model, tokens, kv_dtype):
    size = {"bf16": 2, "fp16": 2, "fp8": 1, "fp32": 4, "int8": 1}[kv_dtype]
    images = sum(g.count * g.spec.encoder_tokens * g.spec.numbers_per_token() for g in model.groups) * size
    assert model.kv_bytes(tokens, kv_dtype) == images == model.kv_bytes(0, kv_dtype)
    assert model.kv_bytes_per_token(kv_dtype) == 0 == model.kv_bytes_per_token_within_windows(kv_dtype)
    assert model.as_full_attention().kv_bytes(tokens, kv_dtype) == images  # no window to remove


@given(models(), TOKENS, KV_DTYPES)
def test_bytes_by_kind_add_up_to_kv_bytes(model, tokens, kv_dtype):
    parts = model.bytes_by_kind(tokens, kv_dtype)
    # each kind is rounded up to whole bytes once: at most one byte over per kind
    assert 0 <= sum(parts.values()) - model.kv_bytes(tokens, kv_dtype) < len(parts)


@given(models(spec=st.one_of(full_specs(), sliding_specs())), TOKENS)
def test_mqa_le_gqa_le_mha_for_the_same_shape(model, tokens):
    heads = sorted({g.spec.num_kv_heads for g in model.groups})
    mqa = model.with_kv_heads(1).kv_bytes(tokens)
    mha = model.with_kv_heads(128).kv_bytes(tokens)  # 128 >= every generated KV-head count
    assert mqa <= model.kv_bytes(tokens) <= mha
    for fewer, more in zip(heads, heads[1:]):
        assert model.with_kv_heads(fewer).kv_bytes(tokens) <= model.with_kv_heads(more).kv_bytes(tokens)
    if len(heads) == 1 and tokens:
        # One head count: bytes scale exactly with it.
        assert model.with_kv_heads(128).kv_bytes(tokens) * heads[0] == model.kv_bytes(tokens) * 128


# ---- tensor parallelism -------------------------------------------------------------------


@given(models(), st.sampled_from([1, 2, 4, 8, 16, 32, 64, 256]), TOKENS)
def test_tp_shares_times_gpus_cover_the_whole(model, tp, tokens):
    assume(_ok_tp(model, tp))
    whole = model.kv_bytes(tokens)
    shares = tp * model.kv_bytes(tokens, tp=tp)
    assert shares >= whole
    even = all(
        (isinstance(g.spec, FullAttentionSpec) and g.spec.num_kv_heads % tp == 0)
        or (isinstance(g.spec, RecurrentStateSpec) and g.spec.state_bytes % tp == 0)
        for g in model.groups
    )
    if even:
        assert shares == whole


@given(models(spec=mla_specs()), st.sampled_from([2, 4, 8, 16]), TOKENS)
def test_mla_latent_is_copied_on_every_gpu(model, tp, tokens):
    assert model.kv_bytes(tokens, tp=tp) == model.kv_bytes(tokens)


@given(models(spec=full_specs()), st.integers(min_value=1, max_value=256))
def test_more_gpus_than_kv_heads_copies_one_head_per_gpu(model, factor):
    heads = max(g.spec.num_kv_heads for g in model.groups)
    tp = heads * factor
    assume(_ok_tp(model, tp))
    per_gpu = sum(g.count * (g.spec.head_size + g.spec.v_size) * 2 for g in model.groups)
    assert model.kv_bytes_per_token(tp=tp) == per_gpu


# ---- users that fit and its inverse ------------------------------------------------------------

FIT_ARGS = st.fixed_dictionaries(
    dict(
        num_gpus=st.sampled_from([1, 2, 4, 8]),
        weight_dtype=st.sampled_from(["bf16", "fp8", "int4"]),
        kv_dtype=st.sampled_from(["bf16", "fp8"]),
        utilization=st.sampled_from([0.5, 0.8, 0.9, 0.95, 1.0]),
    )
)


@given(
    models(),
    st.integers(min_value=1, max_value=500_000),
    st.integers(min_value=1, max_value=500_000),
    GPU_NAMES,
    FIT_ARGS,
)
def test_users_never_rise_as_context_grows(model, context, more, gpu, kw):
    assume(_ok_tp(model, kw["num_gpus"]))
    short = users_that_fit(model, gpu, context, **kw)
    long = users_that_fit(model, gpu, context + more, **kw)
    event("some users fit" if short.users else "no users fit")
    assert long.users <= short.users
    assert short.users >= 0 and short.kv_used_bytes <= max(short.kv_budget_bytes, 0)


@given(models(), st.integers(min_value=1, max_value=200), GPU_NAMES, FIT_ARGS)
def test_max_context_is_the_exact_inverse_of_users_that_fit(model, users, gpu, kw):
    assume(_ok_tp(model, kw["num_gpus"]))
    longest = max_context(model, gpu, users, **kw)
    event("unbounded" if longest is None else "nothing fits" if longest == 0 else "bounded")
    if longest is None:
        # No limit: every layer stops growing, and even a huge context fits `users`.
        assert model.kv_bytes_per_token() == 0
        assert users_that_fit(model, gpu, 1 << 40, **kw).users >= users
    elif longest == 0:
        assert users_that_fit(model, gpu, 1, **kw).users < users
    else:
        assert users_that_fit(model, gpu, longest, **kw).users >= users
        assert users_that_fit(model, gpu, longest + 1, **kw).users < users


@given(models(), st.integers(min_value=1, max_value=300_000), GPU_NAMES)
def test_users_fill_the_budget_without_passing_it(model, context, gpu):
    fit = users_that_fit(model, gpu, context)
    if fit.weights_fit:
        assert fit.kv_used_bytes <= fit.kv_budget_bytes < fit.kv_used_bytes + fit.kv_per_user_bytes
        assert fit.left_over_bytes == fit.kv_budget_bytes - fit.kv_used_bytes
    else:
        assert fit.users == 0
    budget = Fraction(fit.usable_bytes) - fit.weights_bytes
    assert fit.kv_budget_bytes == pytest.approx(float(budget), abs=1)


# ---- the integer fast paths equal the plain Fraction arithmetic they replace ------------------------


@given(models(), TOKENS, st.sampled_from(["bf16", "fp8", "fp32", "int4"]), st.sampled_from([1, 2, 4, 8]))
def test_kv_bytes_equals_the_sum_of_layer_fractions(model, tokens, kv_dtype, tp):
    assume(_ok_tp(model, tp))
    total = sum(g.count * g.spec.bytes_for(tokens, kv_dtype, tp) for g in model.groups)
    assert model.kv_bytes(tokens, kv_dtype, tp) == -(-total.numerator // total.denominator)  # ceil


@given(st.integers(min_value=1, max_value=10**12), st.sampled_from(["bf16", "fp8", "fp32", "int4", "int8"]))
def test_weight_bytes_is_params_times_bytes_rounded_up(params, dtype):
    from kvwidgets.core import dtype_bytes, uniform_model

    exact = params * dtype_bytes(dtype)
    assert uniform_model("w", 1, 1, 64, params).weight_bytes(dtype) == -(
        -exact.numerator // exact.denominator
    )


@given(
    models(),
    st.integers(min_value=1, max_value=300_000),
    GPU_NAMES,
    FIT_ARGS,
    st.integers(min_value=0, max_value=8 * 10**9),
)
def test_users_that_fit_is_the_series_formula(model, context, gpu, kw, working):
    """floor((memory x utilization - weights / GPUs - working) / per-GPU KV of one user), in Fractions."""
    from kvwidgets.core import get_gpu

    assume(_ok_tp(model, kw["num_gpus"]))
    g, n = get_gpu(gpu), kw["num_gpus"]
    budget = (
        g.memory_bytes * Fraction(repr(kw["utilization"]))
        - Fraction(model.weight_bytes(kw["weight_dtype"]), n)
        - working
    )
    per_user = model.kv_bytes(context, kw["kv_dtype"], tp=n)
    fit = users_that_fit(model, gpu, context, working_bytes=working, **kw)
    assert fit.users == max(0, budget // per_user)
    assert fit.kv_budget_bytes == (budget * n).__floor__()
    assert fit.usable_bytes == (g.memory_bytes * Fraction(repr(kw["utilization"])) * n).__floor__()


def test_half_bytes_round_up_once_per_sequence():
    # 513 numbers x 4 bits = 256.5 bytes per token: one token holds 257 bytes, three hold 770
    # (769.5 rounded up once for the whole sequence, not once per token or per layer).
    m = Model("odd", (LayerGroup(MLASpec(512, 1), 1),), 10**9)
    assert [m.kv_bytes(t, "int4") for t in (1, 2, 3)] == [257, 513, 770]
    assert Model("odd", (LayerGroup(MLASpec(512, 1), 3),), 10**9).kv_bytes(1, "int4") == 770
    assert m.weight_bytes("int4", params=3) == 2
