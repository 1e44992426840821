"""core.step.decode_step_bytes: the cache after the prefill and each decode step, by hand."""

from __future__ import annotations

import pytest

from kvwidgets.configs import load_model
from kvwidgets.core import (
    FullAttentionSpec,
    InputError,
    LayerGroup,
    MLASpec,
    Model,
    RecurrentStateSpec,
    decode_step_bytes,
)


def test_prefill_writes_the_prompt_and_reads_nothing():
    m = load_model("llama-3-8b")  # 32 layers x 8 KV heads x 128 x (K + V) x 2 B = 131,072 B per token
    s = decode_step_bytes(m, 100, 0)
    assert s.phase == "prefill" and s.tokens == 100
    assert s.stored_bytes == s.written_bytes == 100 * 131_072
    assert s.read_bytes == 0


def test_a_decode_step_appends_one_row_per_layer_and_reads_them_all():
    m = load_model("llama-3-8b")
    s = decode_step_bytes(m, 100, 7)
    assert s.phase == "decode" and s.tokens == 107
    assert s.stored_bytes == s.read_bytes == 107 * 131_072
    assert s.written_bytes == 131_072  # one K and one V row in each of 32 layers
    assert decode_step_bytes(m, 100, 8).stored_bytes - s.stored_bytes == s.written_bytes
    assert decode_step_bytes(m, 100, 7, "fp8").written_bytes == 65_536


def test_sliding_layers_drop_their_oldest_rows_full_layers_keep_all():
    m = load_model(
        "gpt-oss-20b"
    )  # 12 sliding (window 128) + 12 full, 8 KV heads x 64: 2,048 B per layer-token
    s = decode_step_bytes(m, 100, 60)
    sliding, full = s.groups
    assert (sliding.kind, sliding.held_tokens, sliding.dropped_tokens, sliding.bytes) == (
        "sliding",
        128,
        32,
        12 * 128 * 2048,
    )
    assert (full.kind, full.held_tokens, full.dropped_tokens, full.bytes) == ("full", 160, 0, 12 * 160 * 2048)
    assert s.stored_bytes == sliding.bytes + full.bytes == m.kv_bytes(160)
    # past the window a step still writes a row in every layer (the oldest is overwritten)
    assert s.written_bytes == 24 * 2048
    # but the cache grows by the full layers' rows only
    assert decode_step_bytes(m, 100, 61).stored_bytes - s.stored_bytes == 12 * 2048


def test_mla_stores_one_latent_row_per_layer():
    m = load_model("deepseek-v3")  # 61 layers x (512 + 64) x 2 B = 70,272 B per token
    s = decode_step_bytes(m, 20, 5)
    assert s.written_bytes == 61 * 576 * 2 == 70_272
    assert s.stored_bytes == 25 * 70_272
    assert s.groups[0].kind == "mla" and s.groups[0].dropped_tokens == 0


def test_a_recurrent_state_is_fixed_and_rewritten_every_step():
    m = Model(
        "hybrid", (LayerGroup(RecurrentStateSpec(1_000), 3), LayerGroup(FullAttentionSpec(2, 4), 1)), 10**9
    )
    s0, s1, s9 = (decode_step_bytes(m, 10, g) for g in (0, 1, 9))
    state, attn = s1.groups
    assert (state.held_tokens, state.dropped_tokens, state.bytes) == (0, 0, 3_000)
    row = 2 * (4 + 4) * 2  # 2 KV heads x (K 4 + V 4) numbers x 2 B
    assert s0.stored_bytes == 3_000 + 10 * row and s9.groups[0].bytes == 3_000
    assert s1.written_bytes == row + 3_000  # one row and every state rewritten
    assert s9.stored_bytes - s1.stored_bytes == 8 * row


@pytest.mark.parametrize(
    "args,field", [((0, 0), "prompt_tokens"), ((10, -1), "generated"), ((10, 1.5), "generated")]
)
def test_bad_input_names_the_field(args, field):
    with pytest.raises(InputError, match=field):
        decode_step_bytes(Model("m", (LayerGroup(MLASpec(4, 2), 1),), 10), *args)
