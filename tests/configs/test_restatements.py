"""Fields that restate what the reader already took, counts given another way, and refusals
that name their true cause first, each on a real config from tests/configs/layouts/.

Expected figures are worked by hand: per layer K and V, KV heads x head size x 2 bytes (bf16).
"""

import pytest

import kvwidgets as kw
from kvwidgets.configs.presets import get_preset
from kvwidgets.core.errors import ConfigError, MissingFieldError

from .layout_files import config, kinds


def test_gemma2_sliding_window_size_restates_sliding_window_and_passes():
    m = kw.load_model(config("gemma-2-9b"))
    assert kinds(m) == {"sliding": 21, "full": 21}
    # 21 full layers x 8 KV heads x 256 x K and V x 2 B
    assert m.kv_bytes_per_token() == 21 * 8 * 256 * 2 * 2 == 172_032
    assert "restates" in m.provenance["sliding_window_size"]


def test_gemma2_sliding_window_size_that_disagrees_is_refused_naming_both():
    cfg = config("gemma-2-9b")
    cfg["sliding_window_size"] = 2048
    with pytest.raises(ConfigError) as e:
        kw.load_model(cfg)
    msg = str(e.value)
    assert msg.startswith("config dict: sliding_window_size = 2048 contradicts sliding_window")
    assert "4096" in msg


def test_qwen35_full_attention_interval_agrees_with_layer_types():
    m = kw.load_model(config("qwen3.5-0.8b"))
    assert kinds(m) == {"recurrent": 18, "full": 6}
    # 6 full layers x 2 KV heads x 256 x 2 x 2 B: the notes file's own 12,288 B per token
    assert m.kv_bytes_per_token() == 6 * 2 * 256 * 2 * 2 == 12_288


def test_qwen35_full_attention_interval_that_disagrees_names_the_first_layer_that_differs():
    cfg = config("qwen3.5-0.8b")
    cfg["text_config"]["full_attention_interval"] = 3
    with pytest.raises(
        ConfigError,
        match=r"text_config\.full_attention_interval = 3 contradicts text_config\.layer_types: it makes layer 2 full, layer_types makes it recurrent",
    ):
        kw.load_model(cfg)


def test_qwen2_max_window_layers_beside_layer_types_passes():
    m = kw.load_model(config("qwen2.5-1.5b"))
    assert kinds(m) == {"full": 28}
    assert m.kv_bytes_per_token() == 28 * 2 * 128 * 2 * 2 == 28_672


def test_qwen2_window_switched_on_against_an_all_full_layer_types_is_refused():
    cfg = config("qwen2.5-1.5b")
    cfg.update(use_sliding_window=True, sliding_window=4096, max_window_layers=14)
    with pytest.raises(
        ConfigError, match="max_window_layers = 14 contradicts layer_types: it makes layer 14 sliding"
    ):
        kw.load_model(cfg)


def test_attention_head_dim_equal_to_the_derived_head_size_passes_and_a_different_one_does_not():
    # HunYuan and Nemotron-H write attention_head_dim beside a head size that is hidden / heads
    cfg = config("qwen2.5-1.5b")
    cfg["attention_head_dim"] = 1536 // 12
    assert kw.load_model(cfg).kv_bytes_per_token() == 28_672
    cfg["attention_head_dim"] = 64
    with pytest.raises(
        ConfigError, match="attention_head_dim = 64 contradicts hidden_size / num_attention_heads"
    ):
        kw.load_model(cfg)


def test_openelm_per_layer_kv_heads():
    m = kw.load_model(config("openelm-1.1b-instruct-4bit"))
    assert m.extra["layer_plan"] == ("full",) * 28
    heads = [4] * 3 + [5] * 7 + [6] * 8 + [7] * 6 + [8] * 4
    assert sorted((g.spec.num_kv_heads, g.count) for g in m.groups) == [
        (4, 3),
        (5, 7),
        (6, 8),
        (7, 6),
        (8, 4),
    ]
    assert m.kv_bytes_per_token() == sum(heads) * 64 * 2 * 2 == 43_264
    assert any("does not register OpenELMForCausalLM" in n for n in m.engine_notes)


def nemotron_with_block_types():
    """Nemotron 3 Nano's preset written the way Nemotron-3-Ultra ships its config: a
    layers_block_type list and num_hidden_layers null."""
    cfg = dict(get_preset("nemotron-3-nano-30b-a3b")[1])
    letters = {"M": "mamba", "*": "attention", "-": "mlp", "E": "moe"}
    cfg["layers_block_type"] = [letters[c] for c in cfg.pop("hybrid_override_pattern")]
    cfg["num_hidden_layers"] = None
    return cfg


def test_null_layer_count_is_the_length_of_layers_block_type():
    m = kw.load_model(nemotron_with_block_types())
    reference = kw.load_model("nemotron-3-nano-30b-a3b")
    assert kinds(m) == kinds(reference) == {"recurrent": 23, "full": 6}
    assert m.kv_bytes(10_000) == reference.kv_bytes(10_000)
    assert "52 entries" in m.provenance["num_hidden_layers"]


def test_no_layer_count_at_all_names_the_count_first_not_the_mamba_fields():
    cfg = nemotron_with_block_types()
    del cfg["layers_block_type"]
    with pytest.raises(MissingFieldError) as e:
        kw.load_model(cfg)
    msg = str(e.value)
    assert msg.startswith("config dict: the layer count is missing")
    assert msg.index("num_hidden_layers") < msg.index("mamba_num_heads")
