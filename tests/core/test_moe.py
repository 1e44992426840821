"""Mixture of experts: the cache ignores experts, but compute and small-batch reads do not.

A token runs only experts_per_token of the routed experts, so prefill/recompute FLOPs
follow the active parameters and a batch-1 decode step reads only those; a large batch
touches nearly every expert and reads nearly everything held in memory.
"""

import pytest

import kvwidgets as kw
from kvwidgets.core import ConfigError, FullAttentionSpec, LayerGroup, Model


def test_dense_models_are_unchanged():
    m = kw.load_model("llama-3-8b")
    assert m.num_experts == 0
    assert m.active_params() == m.params
    assert all(m.decode_weight_params(b) == m.params for b in (1, 8, 256))
    d = kw.decode_ceiling(m, "H100", 8192, 4)
    assert d.weight_bytes_per_step == m.weight_bytes("bf16")


@pytest.mark.parametrize(
    "name, low, high",
    [
        ("deepseek-v3", 36e9, 39e9),  # "37B activated" in the DeepSeek-V3 report
        (
            "gpt-oss-120b",
            5.0e9,
            6.0e9,
        ),  # 5.1 B active per OpenAI, which leaves out the 0.58 B input embedding
        ("gpt-oss-20b", 3.5e9, 4.3e9),  # 3.6 B active per OpenAI, same convention
    ],
)
def test_active_params_of_moe_presets(name, low, high):
    m = kw.load_model(name)
    assert m.num_experts and m.experts_per_token
    assert low <= m.active_params() <= high
    assert m.active_params() < m.params / 4


def test_decode_reads_grow_with_batch_from_active_to_total():
    m = kw.load_model("deepseek-v3")
    reads = [m.decode_weight_params(b) for b in (1, 2, 8, 32, 128, 512)]
    assert reads[0] == pytest.approx(m.active_params(), rel=1e-12)
    assert reads == sorted(reads)
    assert reads[-1] <= m.params and reads[-1] > 0.99 * m.params


def test_decode_and_prefill_use_the_routed_parameters():
    m = kw.load_model("deepseek-v3")
    one = kw.decode_ceiling(m, "H200", 8192, 1, weight_dtype="fp8", num_gpus=8)
    assert one.weight_bytes_per_step == pytest.approx(m.active_params() / 8, rel=1e-12)
    big = kw.decode_ceiling(m, "H200", 8192, 256, weight_dtype="fp8", num_gpus=8)
    assert big.weight_bytes_per_step > 10 * one.weight_bytes_per_step
    assert one.crossover_batch == big.crossover_batch  # measured against all the weights
    t = kw.prefill_seconds(m, "H200", 8000)
    assert t == pytest.approx(2 * m.active_params() * 8000 / (989e12), rel=1e-12)


def test_params_override_keeps_the_routed_share():
    m = kw.load_model("deepseek-v3")
    assert m.active_params(params=m.params + 10**9) == m.active_params() + 10**9


def test_more_experts_per_token_than_experts_is_refused():
    with pytest.raises(ConfigError, match="experts_per_token=9 is more than num_experts=8"):
        Model(
            "bad",
            (LayerGroup(FullAttentionSpec(8, 128), 2),),
            10**9,
            num_experts=8,
            experts_per_token=9,
            routed_expert_params=10**8,
        )


def test_config_without_routing_width_is_treated_as_dense_reads():
    cfg = {
        "model_type": "mixtral",
        "num_hidden_layers": 2,
        "hidden_size": 256,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "intermediate_size": 512,
        "num_local_experts": 8,
        "vocab_size": 1000,
    }
    assert kw.load_model(cfg).active_params() == kw.load_model(cfg).params
    cfg["num_experts_per_tok"] = 2
    m = kw.load_model(cfg)
    assert m.experts_per_token == 2 and m.active_params() < m.params
