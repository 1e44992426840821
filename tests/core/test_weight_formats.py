"""Weight formats that store parts of a model differently (gpt-oss: MXFP4 experts, bf16 rest)."""

import pytest

import kvwidgets as kw
from kvwidgets.core.errors import InputError


def test_mxfp4_counts_experts_at_4_25_bits_and_the_rest_at_16():
    m = kw.load_model("gpt-oss-120b")
    routed, rest = m.routed_expert_params, m.params - m.routed_expert_params
    assert rest > 0 and routed > 0
    # 32 four-bit values share one 8-bit scale: 4.25 bits = 17/32 bytes per expert weight
    assert m.weight_bytes("mxfp4") == -(-(routed * 17 + rest * 64) // 32)
    assert m.weight_bytes("mxfp4") > m.weight_bytes("int4")
    assert m.weight_bytes("mxfp4") < m.weight_bytes("fp8")


def test_gpt_oss_120b_at_128k_on_an_h100_fits_one_conversation_not_two():
    # The real checkpoint (about 61 GiB) leaves room for one; all weights at 4 bits, two.
    mx = kw.users_that_fit("gpt-oss-120b", "H100", context=131_072, weight_dtype="mxfp4")
    int4 = kw.users_that_fit("gpt-oss-120b", "H100", context=131_072, weight_dtype="int4")
    assert (mx.users, int4.users) == (1, 2)
    assert mx.weights_bytes == kw.load_model("gpt-oss-120b").weight_bytes("mxfp4")


def test_decode_reads_the_shared_part_at_16_bits_and_the_picked_experts_at_4_25():
    m = kw.load_model("gpt-oss-120b")
    d = kw.decode_ceiling(m, "H100", context=8192, batch=1, weight_dtype="mxfp4")
    shared = m.params - m.routed_expert_params
    read = m.decode_weight_params(1)
    assert d.weight_bytes_per_step == pytest.approx(shared * 2 + (read - shared) * 17 / 32, rel=1e-12)
    # the 4-bit reading would read fewer bytes, so a faster ceiling
    d4 = kw.decode_ceiling(m, "H100", context=8192, batch=1, weight_dtype="int4")
    assert d.tokens_per_s_per_user < d4.tokens_per_s_per_user


def test_a_mixed_format_on_a_dense_model_is_an_error_naming_the_field():
    with pytest.raises(InputError, match=r"weight_dtype 'mxfp4'.*llama-3-8b has no routed experts"):
        kw.users_that_fit("llama-3-8b", "H100", context=8192, weight_dtype="mxfp4")


def test_mxfp4_is_a_weight_format_not_a_kv_cache_dtype():
    with pytest.raises(kw.UnknownNameError, match="kv_dtype"):
        kw.load_model("gpt-oss-120b").kv_bytes_per_token("mxfp4")
    with pytest.raises(kw.UnknownNameError, match="weight_dtype.*mxfp4"):
        kw.load_model("gpt-oss-120b").weight_bytes("mxfp3")


def test_the_widget_offers_mxfp4_and_agrees_with_the_core():
    w = kw.UsersThatFit(model="gpt-oss-120b", gpu="H100", context=131_072, weight_dtype="mxfp4")
    assert not w.error and w.result["users"] == 1
    assert "mxfp4" in w.weight_formats
    w.model = "llama-3-8b"
    assert "weight_dtype 'mxfp4'" in w.error
