"""Layouts the attention reader alone got wrong, each to the byte of its engine's rule.

The configs are in tests/configs/layouts/, each with a "_source" line saying where its
numbers come from. Expected figures are worked by hand from the rules cited in
kvwidgets/configs/families.py, not read back from the code.
"""

import pytest

import kvwidgets as kw
from kvwidgets.configs.presets import get_preset
from kvwidgets.core.errors import ConfigError
from kvwidgets.core.layers import FullAttentionSpec, RecurrentStateSpec, SlidingWindowSpec

from .layout_files import config, kinds


def test_kimi_linear_is_seven_mla_layers_and_twenty_kda_states():
    m = kw.load_model(config("kimi-linear-48b-a3b"))
    assert kinds(m) == {"recurrent": 20, "mla": 7}
    # MLA: latent 512 + rope 64, bf16, 7 layers
    assert m.kv_bytes_per_token() == 7 * (512 + 64) * 2 == 8_064
    state = next(g.spec for g in m.groups if isinstance(g.spec, RecurrentStateSpec))
    # KDA: conv (3 x 32 x 128) x 3 in bf16 + state 32 x 128 x 128 in float32
    assert state.conv_bytes == 3 * 32 * 128 * 3 * 2 == 73_728
    assert state.ssm_bytes == 32 * 128 * 128 * 4 == 2_097_152
    t = 131_072
    assert m.kv_bytes(t) == 8_064 * t + 20 * (73_728 + 2_097_152)
    # the old all-MLA reading was 3.7x too much at 131K
    assert round(27 * 1152 * t / m.kv_bytes(t), 1) == 3.7


def test_kimi_k3_text_config_loads_with_heads_that_do_not_divide_hidden():
    cfg = config("kimi-linear-48b-a3b")
    cfg.update(hidden_size=7168, num_attention_heads=96)
    del cfg["head_dim"]
    m = kw.load_model({"model_type": "kimi_k3", "text_config": cfg})
    assert kinds(m) == {"recurrent": 20, "mla": 7}


def test_kimi_linear_unknown_kda_field_is_named():
    cfg = config("kimi-linear-48b-a3b")
    cfg["linear_attn_config"]["num_v_heads"] = 16
    with pytest.raises(ConfigError, match="num_v_heads"):
        kw.load_model(cfg)


def test_mimo_v2_full_layers_and_swa_layers_with_their_own_heads():
    m = kw.load_model(config("mimo-v2-flash"))
    assert kinds(m) == {"full": 9, "sliding": 39}
    # 9 full layers x 4 KV heads x (192 + 128) x 2 B: 23,040 B per token at long context
    # (the sliding layers keep 128 tokens at most, so they add a fixed amount, not bytes per token)
    assert m.kv_bytes_per_token() == 9 * 4 * (192 + 128) * 2 == 23_040
    swa = next(g.spec for g in m.groups if isinstance(g.spec, SlidingWindowSpec))
    assert (swa.num_kv_heads, swa.head_size, swa.v_size, swa.window) == (8, 192, 128, 128)
    assert m.kv_bytes(1000) == 23_040 * 1000 + 39 * 8 * 320 * 2 * 128


def test_mimo_pattern_ignored_would_be_refused_for_an_unknown_model_type():
    cfg = config("mimo-v2-flash")
    cfg["model_type"] = "somebody_new"
    with pytest.raises(ConfigError, match="hybrid_layer_pattern"):
        kw.load_model(cfg)


def test_nemotron_super_block_configs_no_op_layers_and_per_layer_kv_heads():
    m = kw.load_model(config("llama-3.3-nemotron-super-49b"))
    assert kinds(m) == {"full": 49}
    assert m.groups[0].spec == FullAttentionSpec(8, 128)
    assert m.kv_bytes_per_token() == 49 * 8 * 128 * 2 * 2 == 200_704
    # num_key_value_heads: null read as MHA over 80 layers was 13x this
    assert 80 * 64 * 128 * 4 // m.kv_bytes_per_token() == 13
    # parameters counted block by block, as the model card rounds them: 49.9 B
    assert m.params == 49_867_145_216 and "ESTIMATE" in m.params_source


def test_nemotron_ultra_64_attention_layers_of_8_kv_heads():
    m = kw.load_model(config("llama-3.1-nemotron-ultra-253b"))
    assert kinds(m) == {"full": 64}
    assert m.groups[0].spec == FullAttentionSpec(128 // 16, 16384 // 128)
    assert m.kv_bytes_per_token() == 64 * 8 * 128 * 2 * 2 == 262_144
    assert round(m.params / 1e9) == 253


def test_nemotron_sink_tokens_are_refused_by_name():
    cfg = config("llama-3.3-nemotron-super-49b")
    cfg["block_configs"][0]["attention"]["num_sink_tokens"] = 4
    with pytest.raises(ConfigError, match="num_sink_tokens"):
        kw.load_model(cfg)


def test_zamba2_attention_at_twice_the_hidden_width_plus_mamba2_state_everywhere():
    m = kw.load_model(config("zamba2-7b"))
    assert kinds(m) == {"recurrent": 81, "full": 13}
    att = next(g.spec for g in m.groups if isinstance(g.spec, FullAttentionSpec))
    assert (att.num_kv_heads, att.head_size) == (32, 2 * 3584 // 32) == (32, 224)
    state = next(g.spec for g in m.groups if isinstance(g.spec, RecurrentStateSpec))
    # d_inner 7168; conv (7168 + 2 x 2 x 64) x 3; ssm 112 x 64 x 64 (112 heads of mamba_headdim 64); bf16
    assert state.state_bytes == ((7168 + 256) * 3 + 112 * 64 * 64) * 2 == 962_048
    assert m.kv_bytes_per_token() == 13 * 32 * 224 * 2 * 2
    # the old field names are said beside every figure
    assert any("pre-transformers Zamba2 format" in n for n in m.engine_notes)


def test_zamba2_new_format_gives_the_same_layout():
    cfg = config("zamba2-7b")
    for old, new in (
        ("state_size", "mamba_d_state"),
        ("conv_dimension", "mamba_d_conv"),
        ("expansion_factor", "mamba_expand"),
    ):
        cfg[new] = cfg.pop(old)
    cfg["n_mamba_heads"] = 112
    cfg["layers_block_type"] = ["linear_attention" if b == "mamba" else b for b in cfg["layers_block_type"]]
    m = kw.load_model(cfg)
    assert m.groups == kw.load_model(config("zamba2-7b")).groups and not m.engine_notes
    with pytest.raises(ConfigError, match="mamba_headdim"):
        kw.load_model({**cfg, "n_mamba_heads": 8})
    del cfg["layers_block_type"]
    cfg["num_hidden_layers"] = 54  # Zamba2Config's default layout: 9 hybrid layers in 54
    assert kinds(kw.load_model(cfg)) == {"recurrent": 54, "full": 9}


def test_mamba_codestral_is_a_fixed_138_mb():
    m = kw.load_model(config("mamba-codestral-7b"))
    assert kinds(m) == {"recurrent": 64}
    assert m.kv_bytes_per_token() == 0
    per_layer = ((8192 + 2 * 8 * 128) * 3 + 128 * 64 * 128) * 2
    assert m.kv_bytes(131_072) == m.kv_bytes(1) == 64 * per_layer == 138_149_888
    assert m.num_query_heads is None


def test_falcon_mamba_is_mamba1_from_intermediate_size():
    m = kw.load_model(config("falcon-mamba-7b"))
    assert m.kv_bytes(10) == 64 * (8192 * 3 + 8192 * 16) * 2 == 19_922_944


def test_recurrentgemma_local_attention_capped_at_2048_and_rg_lru_state():
    m = kw.load_model(config("recurrentgemma-2b"))
    assert kinds(m) == {"recurrent": 18, "sliding": 8}
    local = next(g.spec for g in m.groups if isinstance(g.spec, SlidingWindowSpec))
    assert (local.num_kv_heads, local.head_size, local.window) == (1, 256, 2048)
    state = 2560 * 3 * 2 + 2560 * 4  # conv in bf16, RG-LRU state in float32
    assert m.kv_bytes(100_000) == 8 * 2048 * 2 * 256 * 2 + 18 * state
    assert any("vLLM 0.33.0 does not register RecurrentGemmaForCausalLM" in n for n in m.engine_notes)


def test_lfm2_short_conv_is_8_kib_per_layer():
    m = kw.load_model(config("lfm2-1.2b"))
    assert kinds(m) == {"full": 6, "recurrent": 10}
    state = next(g.spec for g in m.groups if isinstance(g.spec, RecurrentStateSpec))
    assert state.state_bytes == 2048 * 2 * 2 == 8_192
    assert m.kv_bytes_per_token() == 6 * 8 * 64 * 2 * 2 == 12_288
    assert m.kv_bytes(1) == 12_288 + 10 * 8_192


def test_lfm2_layer_types_win_over_full_attn_idxs():
    cfg = config("lfm2-1.2b")
    cfg["layer_types"] = ["full_attention" if i in (0, 1) else "conv" for i in range(16)]
    assert kinds(kw.load_model(cfg)) == {"full": 2, "recurrent": 14}


def test_minicpm3_stores_full_keys_and_padded_values_not_a_latent():
    m = kw.load_model(config("minicpm3-4b"))
    assert kinds(m) == {"full": 62}
    assert m.groups[0].spec == FullAttentionSpec(40, 96)
    assert m.kv_bytes_per_token() == 62 * 2 * 40 * 96 * 2 == 952_320
    assert "MiniCPM3Config" in m.provenance["v_head_dim"]


def test_deepseek_v4_compress_ratios_is_named():
    cfg = {
        "model_type": "deepseek_v4",
        "num_hidden_layers": 4,
        "num_attention_heads": 64,
        "hidden_size": 4096,
        "head_dim": 512,
        "num_key_value_heads": 1,
        "sliding_window": 128,
        "compress_ratios": [0, 4, 128, 4],
    }
    with pytest.raises(ConfigError, match="compress_ratios"):
        kw.load_model(cfg)


MINIMAX_TEXT_01 = {
    # MiniMaxAI/MiniMax-Text-01 sizes (80 layers, one softmax layer in eight, 64 heads of 128,
    # 8 KV heads) with the field names vLLM 0.22.0's minimax_text_01.py reads
    "architectures": ["MiniMaxText01ForCausalLM"],
    "model_type": "minimax_text_01",
    "torch_dtype": "bfloat16",
    "num_hidden_layers": 80,
    "num_attention_heads": 64,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "hidden_size": 6144,
    "attn_type_list": [1 if i % 8 == 7 else 0 for i in range(80)],
    "num_local_experts": 32,
    "num_experts_per_tok": 2,
    "vocab_size": 200064,
}


def test_minimax_lightning_layers_keep_a_heads_x_dim_squared_state():
    m = kw.load_model(MINIMAX_TEXT_01)
    assert kinds(m) == {"recurrent": 70, "full": 10}
    assert m.kv_bytes_per_token() == 10 * 8 * 128 * 2 * 2 == 40_960
    assert m.kv_bytes(1) - 40_960 == 70 * 64 * 128 * 128 * 2
    # and vLLM 0.33.0 no longer runs it: said beside every figure
    assert any("MiniMaxText01ForCausalLM" in n for n in m.engine_notes)


def test_minimax_m1_real_config_same_layout():
    m = kw.load_model(config("minimax-m1"))
    assert kinds(m) == {"recurrent": 70, "full": 10}
    assert m.kv_bytes(1) == 40_960 + 70 * 64 * 128 * 128 * 2
    assert m.max_context == 10_240_000


def test_minimax_hf_layer_types_read_like_attn_type_list():
    cfg = {k: v for k, v in MINIMAX_TEXT_01.items() if k != "attn_type_list"}
    cfg.update(
        model_type="minimax",
        layer_types=["full_attention" if i % 8 == 7 else "linear_attention" for i in range(80)],
    )
    assert kinds(kw.load_model(cfg)) == {"recurrent": 70, "full": 10}


def test_recurrent_layers_with_nothing_to_size_them_are_refused():
    cfg = {
        "model_type": "brand_new",
        "num_hidden_layers": 2,
        "num_attention_heads": 8,
        "hidden_size": 1024,
        "layer_types": ["linear_attention", "full_attention"],
    }
    with pytest.raises(ConfigError, match="no field kvwidgets can size"):
        kw.load_model(cfg)


HUNYUAN = {
    "model_type": "hunyuan_v1_moe",
    "num_hidden_layers": 4,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "hidden_size": 4096,
    "head_dim": 128,
    "num_experts": 64,
    "moe_topk": [8, 8, 8, 8],
    "use_cla": False,
    "cla_share_factor": 2,
}


def test_hunyuan_per_layer_moe_topk_is_accepted():
    m = kw.load_model(HUNYUAN)
    assert m.kv_bytes_per_token() == 4 * 8 * 128 * 2 * 2
    assert m.experts_per_token == 8


def test_hunyuan_cross_layer_attention_is_refused_by_name():
    with pytest.raises(ConfigError, match="use_cla"):
        kw.load_model({**HUNYUAN, "use_cla": True})


def test_unknown_model_type_with_plain_attention_fields_still_loads():
    cfg = {
        "model_type": "brand_new",
        "num_hidden_layers": 2,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "hidden_size": 1024,
        "rope_theta": 1e6,
        "moe_topk": [2, 2],
    }
    assert kw.load_model(cfg).kv_bytes_per_token() == 2 * 2 * 128 * 2 * 2


def test_unknown_model_type_with_mamba_fields_and_no_layer_list_is_refused():
    cfg = {
        "model_type": "brand_new",
        "num_hidden_layers": 2,
        "num_attention_heads": 8,
        "hidden_size": 1024,
        "mamba_d_state": 16,
    }
    with pytest.raises(ConfigError, match="mamba_d_state"):
        kw.load_model(cfg)


def test_the_unread_structural_field_is_named_before_the_symptom_it_caused():
    # Kimi-K3-like heads that do not divide hidden_size, under a model_type kvwidgets does not know:
    # the reason is linear_attn_config, not the head arithmetic
    cfg = {
        "model_type": "kimi_k3_like",
        "num_hidden_layers": 4,
        "num_attention_heads": 96,
        "hidden_size": 7168,
        "linear_attn_config": {"kda_layers": [1, 2, 3]},
    }
    with pytest.raises(
        ConfigError, match=r"linear_attn_config .*also failed: hidden_size=7168 is not divisible"
    ):
        kw.load_model(cfg)


def test_a_reading_caveat_is_shown_in_describe_and_fit_warnings():
    cfg = config("llama-3.3-nemotron-super-49b")
    cfg["block_configs"][0]["attention"] = {"replace_with_linear": True, "no_op": False}
    m = kw.load_model(cfg)
    assert kinds(m) == {"full": 48}
    note = next(n for n in m.engine_notes if "replace_with_linear" in n)
    assert note in m.describe()
    assert note in kw.users_that_fit(m, "H100", 8000).warnings


def test_chatglm_kv_heads_come_from_multi_query_group_num():
    # vLLM's kv-head aliases include ChatGLM's multi_query_group_num
    cfg = {
        "model_type": "chatglm",
        "num_layers": 40,
        "num_attention_heads": 32,
        "hidden_size": 4096,
        "kv_channels": 128,
        "multi_query_attention": True,
        "multi_query_group_num": 2,
    }
    assert kw.load_model(cfg).kv_bytes_per_token() == 40 * 2 * 128 * 2 * 2


def test_falcon_h1_muP_multipliers_do_not_stop_the_load():
    cfg = {
        "model_type": "falcon_h1",
        "num_hidden_layers": 2,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "hidden_size": 1024,
        "head_dim": 128,
        "mamba_d_ssm": 2048,
        "mamba_expand": 2,  # only used when mamba_d_ssm is null
        "mamba_n_heads": 32,
        "mamba_d_head": 64,
        "mamba_n_groups": 1,
        "mamba_d_state": 128,
        "mamba_d_conv": 4,
        "mamba_use_mlp": True,
        "ssm_multipliers": [1.0, 1.0, 1.0, 1.0, 1.0],
        "ssm_in_multiplier": 1.0,
        "ssm_out_multiplier": 1.0,
        "mamba_rms_norm": False,
        "mamba_chunk_size": 128,
    }
    assert kinds(kw.load_model(cfg)) == {"recurrent": 2, "full": 2}


def test_a_restated_head_size_is_accepted_when_it_agrees_and_named_when_it_does_not():
    cfg = {
        "model_type": "hunyuan_v1_dense",
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "hidden_size": 4096,
        "head_dim": 128,
        "attention_head_dim": 128,
        "use_cla": False,
        "cla_share_factor": 2,
    }
    assert kw.load_model(cfg).kv_bytes_per_token() == 32 * 8 * 128 * 2 * 2
    with pytest.raises(ConfigError, match="attention_head_dim"):
        kw.load_model({**cfg, "attention_head_dim": 96})


GRANITE_HYBRID_TINY = {
    # a small GraniteMoeHybrid config.json as a public model-zoo README prints it whole
    # (found with the code-search index, find_string '"model_type": "granitemoehybrid"')
    "architectures": ["GraniteMoeHybridForCausalLM"],
    "attention_multiplier": 0.015625,
    "embedding_multiplier": 12,
    "hidden_size": 512,
    "intermediate_size": 1024,
    "layer_types": ["mamba", "mamba", "mamba", "attention", "mamba", "mamba", "mamba", "attention"],
    "logits_scaling": 2,
    "mamba_chunk_size": 256,
    "mamba_conv_bias": True,
    "mamba_d_conv": 4,
    "mamba_d_head": 128,
    "mamba_d_state": 128,
    "mamba_expand": 2,
    "mamba_n_groups": 1,
    "mamba_n_heads": 8,
    "mamba_proj_bias": False,
    "max_position_embeddings": 4096,
    "model_type": "granitemoehybrid",
    "normalization_function": "rmsnorm",
    "num_attention_heads": 8,
    "num_experts_per_tok": 2,
    "num_hidden_layers": 8,
    "num_key_value_heads": 8,
    "num_local_experts": 8,
    "position_embedding_type": "nope",
    "residual_multiplier": 0.22,
    "rope_theta": 10000,
    "shared_intermediate_size": 512,
    "tie_word_embeddings": True,
    "torch_dtype": "bfloat16",
    "vocab_size": 49152,
}


def test_granite_hybrid_mamba2_state_from_mamba_expand():
    m = kw.load_model(GRANITE_HYBRID_TINY)
    assert kinds(m) == {"recurrent": 6, "full": 2}
    # vLLM granitemoehybrid.py: intermediate = mamba_expand x hidden = 1024;
    # conv (1024 + 2 x 1 x 128) x 3, ssm 8 x 128 x 128, bf16
    assert m.kv_bytes(1) - m.kv_bytes_per_token() == 6 * ((1024 + 256) * 3 + 8 * 128 * 128) * 2


def test_gemma3n_per_layer_mlp_widths_are_not_a_cache_question():
    # the shape of a Gemma 3n text config as public ports write it: intermediate_size per layer
    text = {
        "model_type": "gemma3n_text",
        "hidden_size": 8,
        "intermediate_size": [16, 16, 16, 16],
        "num_hidden_layers": 4,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "head_dim": 4,
        "vocab_size": 12,
        "vocab_size_per_layer_input": 10,
        "hidden_size_per_layer_input": 2,
        "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"],
        "activation_sparsity_pattern": [0.5, 0.0, 0.0, 0.0],
        "sliding_window": 4,
        "rope_local_base_freq": 10000.0,
        "num_kv_shared_layers": 2,
        "altup_num_inputs": 4,
        "laurel_rank": 2,
    }
    m = kw.load_model({"model_type": "gemma3n", "text_config": text})
    # two layers store (the last two share their KV): one full, one sliding over 4 tokens
    assert m.kv_bytes_per_token() == 1 * 4 * 2 * 2
    assert m.kv_bytes(100) == 100 * 16 + 4 * 16


MINIMAX_M2 = {
    # MiniMax-M2's sizes as public engine tests write its config (62 layers, 48 heads, 8 KV heads
    # of 128, attn_type_list all 1)
    "model_type": "minimax_m2",
    "hidden_size": 3072,
    "num_hidden_layers": 62,
    "num_attention_heads": 48,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "rotary_dim": 64,
    "num_local_experts": 256,
    "num_experts_per_tok": 8,
    "attn_type_list": [1] * 62,
    "vocab_size": 200_064,
}


def test_minimax_m2_every_layer_softmax_as_vllm_builds_it():
    m = kw.load_model(MINIMAX_M2)
    assert kinds(m) == {"full": 62} and not m.engine_notes
    assert m.kv_bytes_per_token() == 62 * 8 * 128 * 2 * 2
    mixed = kw.load_model({**MINIMAX_M2, "attn_type_list": [0] * 61 + [1]})
    assert kinds(mixed) == {"full": 62}
    assert any("ignores it" in n for n in mixed.engine_notes)


def test_an_indexer_on_a_model_kvwidgets_does_not_know_is_refused_by_name():
    cfg = {
        "model_type": "brand_new",
        "num_hidden_layers": 2,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "hidden_size": 1024,
        "index_topk": 2048,
        "moe_topk": 8,
    }
    with pytest.raises(ConfigError, match="index_topk"):
        kw.load_model(cfg)


def test_kimi_k3_wrapper_with_its_layer_count_repeated_at_the_top_reads_the_text_model():
    # the shape public Kimi-K3 ports give its config.json: model_type kimi_k3 with a
    # kimi_linear text_config, vocab_size and num_hidden_layers also at the top
    text = config("kimi-linear-48b-a3b")
    text["linear_attn_config"].update(gate_lower_bound=-5.0, use_full_rank_gate=True)
    m = kw.load_model(
        {"model_type": "kimi_k3", "num_hidden_layers": 27, "vocab_size": 163840, "text_config": text}
    )
    assert kinds(m) == {"recurrent": 20, "mla": 7}


BAMBA = {
    # the defaults of transformers 5.24.0's BambaConfig (a 9B-sized model), with three
    # attention layers as attn_layer_indices
    "architectures": ["BambaForCausalLM"],
    "model_type": "bamba",
    "hidden_size": 4096,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "attn_layer_indices": [9, 18, 27],
    "mamba_n_heads": 128,
    "mamba_d_head": "auto",
    "mamba_n_groups": 1,
    "mamba_d_state": 256,
    "mamba_d_conv": 4,
    "mamba_expand": 2,
    "mamba_chunk_size": 256,
    "torch_dtype": "bfloat16",
}


def test_bamba_attention_layers_from_attn_layer_indices_and_auto_head_dim():
    m = kw.load_model(BAMBA)
    assert kinds(m) == {"full": 3, "recurrent": 29}
    # d_inner = 2 x 4096; head_dim "auto" = 8192 // 128 = 64
    state = next(g.spec for g in m.groups if isinstance(g.spec, RecurrentStateSpec))
    assert state.state_bytes == ((8192 + 2 * 256) * 3 + 128 * 64 * 256) * 2
    assert any("BambaForCausalLM" in n for n in m.engine_notes)  # vLLM 0.23 dropped it


def test_nemotron_h_expand_is_not_a_refusal():
    # NemotronHConfig carries expand; vLLM nemotron_h.py sizes the state from heads x head_dim
    _, cfg, _, _ = get_preset("nemotron-3-nano-30b-a3b")
    assert kw.load_model({**cfg, "expand": 2}).groups == kw.load_model("nemotron-3-nano-30b-a3b").groups
