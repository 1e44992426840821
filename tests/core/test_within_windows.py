"""Model.kv_bytes_per_token_within_windows: what a token adds before any window is full.

kv_bytes_per_token() stays the long-context marginal cost (0 once every layer is capped);
this is the other figure a sliding-window model needs, so its readout is not "0 B".
"""

from __future__ import annotations

import pytest

import kvwidgets as kw
from kvwidgets.core import FullAttentionSpec, LayerGroup, MLASpec, RecurrentStateSpec, SlidingWindowSpec
from kvwidgets.core.errors import InputError
from kvwidgets.core.model import Model


def test_mistral_sliding_everywhere():
    m = kw.load_model("mistral-7b-v0.1")  # 32 layers x 8 KV heads x 128, window 4096 on every layer
    assert m.kv_bytes_per_token() == 0
    assert m.kv_bytes_per_token_within_windows() == 2 * 32 * 8 * 128 * 2 == 131_072
    assert m.kv_bytes_per_token_within_windows("fp8") == 65_536
    # below the window a conversation grows by exactly this much per token
    assert m.kv_bytes(4096) - m.kv_bytes(4095) == 131_072 and m.kv_bytes(4097) == m.kv_bytes(4096)


def test_gpt_oss_120b_hybrid_both_figures():
    m = kw.load_model("gpt-oss-120b")  # 18 sliding (128) + 18 full, 8 KV heads x 64
    assert m.kv_bytes_per_token_within_windows() == 73_728
    assert m.kv_bytes_per_token() == 36_864


def test_full_attention_equals_the_long_context_figure():
    m = kw.load_model("llama-3-8b")
    assert m.kv_bytes_per_token_within_windows() == m.kv_bytes_per_token() == 131_072


def test_recurrent_state_is_not_per_token_and_tp_splits_heads():
    m = Model(
        "t",
        (
            LayerGroup(RecurrentStateSpec(1_000_000), 4),
            LayerGroup(SlidingWindowSpec(8, 128, window=64), 2),
            LayerGroup(MLASpec(512, 64), 1),
        ),
        10**9,
    )
    assert m.kv_bytes_per_token_within_windows() == (2 * 2 * 8 * 128 + 576) * 2
    assert m.kv_bytes_per_token_within_windows(tp=2) == (2 * 2 * 4 * 128 + 576) * 2  # MLA latent not split
    assert (
        Model("h", (LayerGroup(FullAttentionSpec(1, 7, 6), 3),), 10).kv_bytes_per_token_within_windows("int4")
        == 20
    )  # 19.5 up


def test_bad_dtype_names_the_field():
    with pytest.raises(Exception, match="kv_dtype"):
        kw.load_model("llama-3-8b").kv_bytes_per_token_within_windows("fp7")
    with pytest.raises(InputError, match="num_gpus"):
        kw.load_model("llama-3-8b").kv_bytes_per_token_within_windows(tp=3)
