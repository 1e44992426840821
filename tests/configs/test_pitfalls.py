"""Each config-reading pitfall on a config written for it.

Expected numbers are worked by hand from the layer shapes (2 x layers x KV heads x
head_dim x 2 bytes for 16-bit K and V), not taken from the code's output.
"""

import kvwidgets as kw
from kvwidgets.core.layers import ChunkedLocalSpec, MLASpec, RecurrentStateSpec, SlidingWindowSpec


def kinds(model):
    return {g.spec.kind: g.count for g in model.groups}


LLAMA3_8B = {
    "model_type": "llama",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "vocab_size": 128256,
    "tie_word_embeddings": False,
}


# ---- head_dim -----------------------------------------------------------------------
def test_head_dim_from_config_not_hidden_over_heads_qwen3_32b():
    cfg = {
        "model_type": "qwen3",
        "hidden_size": 5120,
        "num_hidden_layers": 64,
        "num_attention_heads": 64,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "use_sliding_window": False,
        "sliding_window": None,
    }
    m = kw.load_model(cfg)
    # 5120 / 64 = 80 would give 2 x 64 x 8 x 80 x 2 = 163,840; head_dim 128 is what is stored
    assert m.kv_bytes_per_token() == 2 * 64 * 8 * 128 * 2 == 262_144
    assert "head_dim" in m.provenance["head_dim"]


def test_head_dim_256_at_hidden_3072_gemma_7b():
    cfg = {
        "model_type": "gemma",
        "hidden_size": 3072,
        "num_hidden_layers": 28,
        "num_attention_heads": 16,
        "num_key_value_heads": 16,
        "head_dim": 256,
    }
    assert kw.load_model(cfg).kv_bytes_per_token() == 2 * 28 * 16 * 256 * 2 == 458_752


def test_head_dim_derived_when_absent_says_so():
    m = kw.load_model(LLAMA3_8B)
    assert m.groups[0].spec.head_size == 128
    assert "hidden_size / num_attention_heads" in m.provenance["head_dim"]


def test_head_dim_null_falls_back_to_hidden_over_heads():
    m = kw.load_model({**LLAMA3_8B, "head_dim": None})
    assert m.kv_bytes_per_token() == 131_072


# ---- KV heads, never query heads ------------------------------------------------------
def test_kv_heads_not_query_heads():
    m = kw.load_model(LLAMA3_8B)
    assert m.kv_bytes_per_token() == 131_072
    assert m.num_query_heads == 32
    # the seed's "query heads by mistake" figure is the same model with 32 KV heads
    assert m.as_mha().kv_bytes_per_token() == 524_288


def test_missing_kv_heads_means_mha():
    cfg = {k: v for k, v in LLAMA3_8B.items() if k != "num_key_value_heads"}
    m = kw.load_model(cfg)
    assert m.kv_bytes_per_token() == 2 * 32 * 32 * 128 * 2 == 524_288
    assert "MHA" in m.provenance["num_key_value_heads"]


def test_null_kv_heads_means_mha():
    assert kw.load_model({**LLAMA3_8B, "num_key_value_heads": None}).kv_bytes_per_token() == 524_288


# ---- Falcon ---------------------------------------------------------------------------
FALCON_7B = {
    "model_type": "falcon",
    "hidden_size": 4544,
    "num_attention_heads": 71,
    "num_hidden_layers": 32,
    "multi_query": True,
    "new_decoder_architecture": False,
    "vocab_size": 65024,
}


def test_falcon_multi_query_is_one_kv_head():
    m = kw.load_model(FALCON_7B)
    assert m.kv_bytes_per_token() == 2 * 32 * 1 * 64 * 2 == 8_192
    assert "multi_query" in m.provenance["num_key_value_heads"]


def test_falcon_old_names_n_head_n_layer():
    cfg = {
        "model_type": "RefinedWebModel",
        "hidden_size": 4544,
        "n_head": 71,
        "n_layer": 32,
        "multi_query": True,
    }
    m = kw.load_model(cfg)
    assert m.kv_bytes_per_token() == 8_192
    assert m.provenance["num_hidden_layers"].endswith("n_layer")


def test_falcon_new_decoder_architecture_uses_num_kv_heads():
    cfg = {
        "model_type": "falcon",
        "hidden_size": 8192,
        "num_attention_heads": 128,
        "num_hidden_layers": 60,
        "new_decoder_architecture": True,
        "num_kv_heads": 8,
        "multi_query": True,
    }
    m = kw.load_model(cfg)
    assert m.kv_bytes_per_token() == 2 * 60 * 8 * 64 * 2 == 122_880
    assert m.provenance["num_key_value_heads"].endswith("num_kv_heads")


def test_falcon_without_multi_query_field_takes_falcon_default():
    cfg = {k: v for k, v in FALCON_7B.items() if k != "multi_query"}
    m = kw.load_model(cfg)
    assert m.kv_bytes_per_token() == 8_192  # FalconConfig defaults multi_query to True
    assert "FalconConfig" in m.provenance["multi_query"]


def test_multi_query_false_is_mha():
    cfg = {**FALCON_7B, "multi_query": False, "num_attention_heads": 71}
    assert kw.load_model(cfg).kv_bytes_per_token() == 2 * 32 * 71 * 64 * 2


# ---- GPT-2 ----------------------------------------------------------------------------
def test_gpt2_names():
    cfg = {
        "model_type": "gpt2",
        "n_layer": 12,
        "n_head": 12,
        "n_embd": 768,
        "n_positions": 1024,
        "vocab_size": 50257,
    }
    m = kw.load_model(cfg)
    assert m.kv_bytes_per_token() == 2 * 12 * 12 * 64 * 2 == 36_864
    assert m.max_context == 1024
    assert m.provenance["num_attention_heads"].endswith("n_head")


# ---- Gemma 3: nested text_config + library defaults ---------------------------------------
GEMMA3_27B = {
    "model_type": "gemma3",
    "architectures": ["Gemma3ForConditionalGeneration"],
    "text_config": {
        "model_type": "gemma3_text",
        "head_dim": 128,
        "hidden_size": 5376,
        "intermediate_size": 21504,
        "num_attention_heads": 32,
        "num_hidden_layers": 62,
        "num_key_value_heads": 16,
        "sliding_window": 1024,
    },
    "vision_config": {"hidden_size": 1152, "num_hidden_layers": 27},
    "torch_dtype": "bfloat16",
}


def test_gemma3_nested_text_config_and_default_pattern():
    m = kw.load_model(GEMMA3_27B)
    assert kinds(m) == {"sliding": 52, "full": 10}
    # layer i is full when (i + 1) % 6 == 0: layers 5, 11, ..., 59
    plan = m.extra["layer_plan"]
    assert [i for i, t in enumerate(plan) if t == "full"] == [5, 11, 17, 23, 29, 35, 41, 47, 53, 59]
    sliding = next(g.spec for g in m.groups if g.spec.kind == "sliding")
    assert sliding.window == 1024 and sliding.num_kv_heads == 16 and sliding.head_size == 128
    # the long-context cost is set by the 10 full layers alone
    assert m.kv_bytes_per_token() == 2 * 10 * 16 * 128 * 2 == 81_920
    # the sliding layers hold at most 1,024 tokens each
    assert m.kv_bytes(100_000) == 81_920 * 100_000 + 52 * 1024 * 2 * 16 * 128 * 2
    assert m.provenance["sliding_window_pattern"] == "default of Gemma3TextConfig"
    assert m.provenance["num_hidden_layers"].endswith("text_config.num_hidden_layers")
    assert m.max_context == 131_072 and "Gemma3TextConfig" in m.provenance["max_position_embeddings"]


def test_gemma3_omitted_head_dim_takes_library_default_256():
    text = {k: v for k, v in GEMMA3_27B["text_config"].items() if k != "head_dim"}
    m = kw.load_model({**GEMMA3_27B, "text_config": text})
    assert m.groups[0].spec.head_size == 256  # not 5376 / 32 = 168
    assert m.provenance["head_dim"] == "default of Gemma3TextConfig"


def test_gemma3_layer_types_win_over_pattern():
    text = dict(
        GEMMA3_27B["text_config"],
        num_hidden_layers=4,
        layer_types=["full_attention", "sliding_attention", "sliding_attention", "full_attention"],
    )
    m = kw.load_model({**GEMMA3_27B, "text_config": text})
    assert kinds(m) == {"full": 2, "sliding": 2}


def test_explicit_sliding_window_pattern():
    cfg = {
        "model_type": "gemma3_text",
        "num_hidden_layers": 26,
        "num_attention_heads": 4,
        "num_key_value_heads": 1,
        "head_dim": 256,
        "hidden_size": 1152,
        "sliding_window": 512,
        "sliding_window_pattern": 6,
    }
    assert kinds(kw.load_model(cfg)) == {"sliding": 22, "full": 4}


# ---- layer_types lists ----------------------------------------------------------------
def test_layer_types_grouped_by_spec():
    cfg = {
        "model_type": "x",
        "num_hidden_layers": 6,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "head_dim": 64,
        "sliding_window": 256,
        "attention_chunk_size": 1024,
        "layer_types": [
            "sliding_attention",
            "full_attention",
            "chunked_attention",
            "sliding_attention",
            "full_attention",
            "chunked_attention",
        ],
    }
    m = kw.load_model(cfg)
    assert kinds(m) == {"sliding": 2, "full": 2, "chunked": 2}
    assert len(m.groups) == 3
    per_layer = 2 * 2 * 64 * 2
    assert m.kv_bytes(10_000) == per_layer * (2 * 10_000 + 2 * 256 + 2 * 1024)


# ---- Qwen2 / 2.5 / 3 use_sliding_window ---------------------------------------------------
QWEN25_7B = {
    "model_type": "qwen2",
    "hidden_size": 3584,
    "num_hidden_layers": 28,
    "num_attention_heads": 28,
    "num_key_value_heads": 4,
    "sliding_window": 131072,
    "use_sliding_window": False,
    "max_window_layers": 28,
}


def test_qwen_sliding_window_present_but_off():
    m = kw.load_model(QWEN25_7B)
    assert kinds(m) == {"full": 28}
    assert m.kv_bytes_per_token() == 2 * 28 * 4 * 128 * 2 == 57_344
    assert "use_sliding_window" in m.provenance["layer_types"]


def test_qwen_use_sliding_window_true_slides_layers_from_max_window_layers():
    m = kw.load_model(
        {**QWEN25_7B, "use_sliding_window": True, "sliding_window": 4096, "max_window_layers": 20}
    )
    assert kinds(m) == {"full": 20, "sliding": 8}
    assert m.extra["layer_plan"][19] == "full" and m.extra["layer_plan"][20] == "sliding"


def test_qwen3_sliding_window_null():
    cfg = {
        "model_type": "qwen3",
        "hidden_size": 4096,
        "num_hidden_layers": 36,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "sliding_window": None,
        "use_sliding_window": False,
    }
    assert kinds(kw.load_model(cfg)) == {"full": 36}


# ---- Mistral v0.1 and Phi-3: every layer slides -----------------------------------------------
MISTRAL_V01 = {
    "model_type": "mistral",
    "hidden_size": 4096,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "sliding_window": 4096,
}


def test_mistral_v01_slides_every_layer():
    m = kw.load_model(MISTRAL_V01)
    assert kinds(m) == {"sliding": 32}
    assert isinstance(m.groups[0].spec, SlidingWindowSpec) and m.groups[0].spec.window == 4096
    # past 4,096 tokens the cache stops growing: 32 x 4096 x 2 x 8 x 128 x 2
    assert m.kv_bytes(100_000) == m.kv_bytes(4096) == 32 * 4096 * 2 * 8 * 128 * 2
    assert m.kv_bytes(1000) == 1000 * 131_072


def test_mistral_v02_null_window_is_full():
    m = kw.load_model({**MISTRAL_V01, "sliding_window": None})
    assert kinds(m) == {"full": 32} and m.kv_bytes_per_token() == 131_072


def test_phi3_window_2047_every_layer():
    cfg = {
        "model_type": "phi3",
        "hidden_size": 3072,
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": 32,
        "sliding_window": 2047,
    }
    m = kw.load_model(cfg)
    assert kinds(m) == {"sliding": 32} and m.groups[0].spec.window == 2047
    assert m.kv_bytes(4096) == 32 * 2047 * 2 * 32 * 96 * 2


# ---- gpt-oss ------------------------------------------------------------------------------
def gpt_oss(layers, experts):
    return {
        "model_type": "gpt_oss",
        "hidden_size": 2880,
        "head_dim": 64,
        "num_attention_heads": 64,
        "num_key_value_heads": 8,
        "num_hidden_layers": layers,
        "num_local_experts": experts,
        "sliding_window": 128,
        "layer_types": ["sliding_attention", "full_attention"] * (layers // 2),
        "intermediate_size": 2880,
        "vocab_size": 201088,
        "attention_bias": True,
        "tie_word_embeddings": False,
    }


def test_gpt_oss_120b_seed_numbers():
    m = kw.load_model(gpt_oss(36, 128))
    assert kinds(m) == {"sliding": 18, "full": 18}
    assert m.kv_bytes_per_token() == 36_864
    assert (
        m.bytes_by_kind(129)["sliding"]
        == m.bytes_by_kind(100_000)["sliding"]
        == 18 * 128 * 2_048
        == 4_718_592
    )


def test_gpt_oss_20b():
    m = kw.load_model(gpt_oss(24, 32))
    assert kinds(m) == {"sliding": 12, "full": 12}
    assert m.kv_bytes_per_token() == 12 * 2 * 8 * 64 * 2 == 24_576


# ---- MLA --------------------------------------------------------------------------------
DEEPSEEK_V3 = {
    "model_type": "deepseek_v3",
    "hidden_size": 7168,
    "num_hidden_layers": 61,
    "num_attention_heads": 128,
    "num_key_value_heads": 128,
    "kv_lora_rank": 512,
    "q_lora_rank": 1536,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
    "vocab_size": 129280,
    "intermediate_size": 18432,
    "moe_intermediate_size": 2048,
    "n_routed_experts": 256,
    "n_shared_experts": 1,
    "first_k_dense_replace": 3,
}


def test_deepseek_v3_mla():
    m = kw.load_model(DEEPSEEK_V3)
    assert isinstance(m.groups[0].spec, MLASpec)
    assert m.kv_bytes_per_token() == 61 * (512 + 64) * 2 == 70_272
    # not split by tensor parallelism: every GPU keeps the whole latent
    assert m.kv_bytes_per_token(tp=8) == 70_272


def test_deepseek_v3_as_mha():
    m = kw.load_model(DEEPSEEK_V3)
    mha = m.as_mha()
    assert mha.kv_bytes_per_token() == 61 * 128 * (192 + 128) * 2 == 4_997_120
    assert round(mha.kv_bytes_per_token() / m.kv_bytes_per_token()) == 71
    assert m.extra["mla_key_dim"] == 192 and m.extra["mla_value_dim"] == 128


def test_kimi_k2_style_mla():
    cfg = {
        **DEEPSEEK_V3,
        "model_type": "kimi_k2",
        "num_attention_heads": 64,
        "num_key_value_heads": 64,
        "n_routed_experts": 384,
    }
    m = kw.load_model(cfg)
    assert m.kv_bytes_per_token() == 70_272
    assert m.as_mha().kv_bytes_per_token() == 61 * 64 * 320 * 2


def test_as_mha_on_gqa_uses_query_heads():
    # series part 001: Llama 3.1 70B as MHA, 2 x 80 x 64 x 128 x 2
    m = kw.load_model("llama-3.1-70b")
    assert m.as_mha().kv_bytes_per_token() == 2_621_440


def test_as_mha_keeps_windows():
    m = kw.load_model(gpt_oss(36, 128)).as_mha()
    assert kinds(m) == {"sliding": 18, "full": 18}
    assert m.kv_bytes_per_token() == 18 * 2 * 64 * 64 * 2


# ---- chunked local attention (Llama 4) ---------------------------------------------------------
def test_llama4_chunked_layers_from_no_rope_layers():
    no_rope = [0 if (i + 1) % 4 == 0 else 1 for i in range(48)]
    cfg = {
        "model_type": "llama4",
        "text_config": {
            "model_type": "llama4_text",
            "hidden_size": 5120,
            "num_hidden_layers": 48,
            "num_attention_heads": 40,
            "num_key_value_heads": 8,
            "head_dim": 128,
            "attention_chunk_size": 8192,
            "no_rope_layers": no_rope,
        },
    }
    m = kw.load_model(cfg)
    assert kinds(m) == {"chunked": 36, "full": 12}
    chunked = next(g.spec for g in m.groups if g.spec.kind == "chunked")
    assert isinstance(chunked, ChunkedLocalSpec) and chunked.chunk == 8192
    per_layer = 2 * 8 * 128 * 2
    assert m.kv_bytes_per_token() == 12 * per_layer == 49_152
    assert m.kv_bytes(100_000) == per_layer * (12 * 100_000 + 36 * 8192)


def test_llama4_without_no_rope_layers_uses_interval():
    cfg = {
        "model_type": "llama4_text",
        "hidden_size": 5120,
        "num_hidden_layers": 8,
        "num_attention_heads": 40,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "attention_chunk_size": 8192,
    }
    assert kinds(kw.load_model(cfg)) == {"chunked": 6, "full": 2}


# ---- hybrid recurrent layers ------------------------------------------------------------------
def test_jamba_mamba_layers_are_fixed_state():
    cfg = {
        "model_type": "jamba",
        "hidden_size": 4096,
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "attn_layer_period": 8,
        "attn_layer_offset": 4,
        "mamba_d_state": 16,
        "mamba_d_conv": 4,
        "mamba_expand": 2,
        "num_experts": 16,
        "vocab_size": 65536,
    }
    m = kw.load_model(cfg)
    assert kinds(m) == {"recurrent": 28, "full": 4}
    assert [i for i, t in enumerate(m.extra["layer_plan"]) if t == "full"] == [4, 12, 20, 28]
    state = next(g.spec for g in m.groups if g.spec.kind == "recurrent")
    assert isinstance(state, RecurrentStateSpec)
    # Mamba-1: d_inner 8192; conv 8192 x 3 + ssm 8192 x 16 numbers at 2 bytes
    assert state.state_bytes == (8192 * 3 + 8192 * 16) * 2 == 311_296
    assert m.kv_bytes_per_token() == 4 * 2 * 8 * 128 * 2
    assert m.kv_bytes(10) - m.kv_bytes(0) == 10 * 4 * 2 * 8 * 128 * 2  # state does not grow
    assert m.kv_bytes(0) == 28 * 311_296
    assert "mamba_utils.py" in m.provenance["recurrent_state_bytes"]  # vLLM's state shapes


def test_qwen3_next_linear_attention_layer_types():
    plan = (["linear_attention"] * 3 + ["full_attention"]) * 12
    cfg = {
        "model_type": "qwen3_next",
        "hidden_size": 2048,
        "num_hidden_layers": 48,
        "num_attention_heads": 16,
        "num_key_value_heads": 2,
        "head_dim": 256,
        "layer_types": plan,
        "linear_num_key_heads": 16,
        "linear_num_value_heads": 32,
        "linear_key_head_dim": 128,
        "linear_value_head_dim": 128,
        "linear_conv_kernel_dim": 4,
        "num_experts": 512,
    }
    m = kw.load_model(cfg)
    assert kinds(m) == {"recurrent": 36, "full": 12}
    state = next(g.spec for g in m.groups if g.spec.kind == "recurrent").state_bytes
    assert state == ((2 * 16 * 128 + 32 * 128) * 3 + 32 * 128 * 128) * 2
    assert "mamba_utils.py" in m.provenance["recurrent_state_bytes"]  # vLLM's state shapes


def test_nemotron_h_hybrid_override_pattern():
    pattern = "M-M*-M-"
    cfg = {
        "model_type": "nemotron_h",
        "hidden_size": 1024,
        "num_hidden_layers": 7,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "head_dim": 128,
        "hybrid_override_pattern": pattern,
        "mamba_num_heads": 32,
        "mamba_head_dim": 64,
        "ssm_state_size": 128,
        "n_groups": 8,
        "conv_kernel": 4,
    }
    m = kw.load_model(cfg)
    assert kinds(m) == {"recurrent": 3, "full": 1}  # "-" layers are MLP only and store nothing


# ---- MoE --------------------------------------------------------------------------------
MIXTRAL = {
    "model_type": "mixtral",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "vocab_size": 32000,
    "num_local_experts": 8,
    "tie_word_embeddings": False,
}


def test_moe_experts_do_not_change_the_cache_but_do_change_params():
    dense = kw.load_model({k: v for k, v in MIXTRAL.items() if k != "num_local_experts"})
    moe = kw.load_model(MIXTRAL)
    assert moe.kv_bytes_per_token() == dense.kv_bytes_per_token() == 131_072
    assert moe.params - dense.params == 32 * (7 * 3 * 4096 * 14336 + 4096 * 8)
    # Mixtral-8x7B's safetensors total on the Hub
    assert moe.params == 46_702_792_704
    assert moe.extra["num_experts"] == 8


# ---- FP8 weights do not make an FP8 cache -----------------------------------------------------
def test_fp8_weights_keep_a_16_bit_cache():
    fp8 = kw.load_model(
        {
            **LLAMA3_8B,
            "torch_dtype": "bfloat16",
            "quantization_config": {"quant_method": "fp8", "activation_scheme": "dynamic"},
        }
    )
    plain = kw.load_model({**LLAMA3_8B, "torch_dtype": "bfloat16"})
    assert fp8.weight_dtype == "fp8" and plain.weight_dtype == "bf16"
    assert fp8.kv_bytes_per_token() == plain.kv_bytes_per_token() == 131_072
    assert fp8.weight_bytes() == fp8.params  # 1 byte per parameter
    assert "KV cache dtype is not changed" in fp8.provenance["weight_dtype"]


def test_deepseek_v3_preset_fp8_weights_bf16_cache():
    m = kw.load_model("deepseek-v3")
    assert m.weight_dtype == "fp8"
    assert m.kv_bytes_per_token() == 70_272
    assert m.kv_bytes_per_token(kv_dtype="fp8") == 35_136


def test_torch_dtype_float16_recorded():
    assert kw.load_model({**LLAMA3_8B, "torch_dtype": "float16"}).weight_dtype == "fp16"


DEEPSEEK_V2_LITE = {
    # deepseek-ai/DeepSeek-V2-Lite sizes (the DeepSeek-V2 paper's appendix model)
    "model_type": "deepseek_v2",
    "hidden_size": 2048,
    "num_hidden_layers": 27,
    "num_attention_heads": 16,
    "num_key_value_heads": 16,
    "kv_lora_rank": 512,
    "q_lora_rank": None,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
    "vocab_size": 102400,
}


def test_as_mha_paper_form_counts_2_nh_dh_l_like_the_deepseek_v2_paper():
    m = kw.load_model(DEEPSEEK_V2_LITE)
    paper = m.as_mha(mla_form="paper")
    # bf16: 2 bytes per element; the paper's MHA: 2 x n_h x d_h x l = 2 x 16 x 128 x 27
    assert paper.kv_bytes_per_token() // 2 == 2 * 16 * 128 * 27 == 110_592
    # the default keeps the expanded 192-wide key: 16 x (192 + 128) x 27
    assert m.as_mha().kv_bytes_per_token() // 2 == 16 * 320 * 27 == 138_240


def test_as_mha_form_is_checked():
    import pytest

    with pytest.raises(kw.ConfigError, match="mla_form"):
        kw.load_model(DEEPSEEK_V2_LITE).as_mha(mla_form="latent")


def opt(hidden, layers, ffn, heads):
    return {
        "model_type": "opt",
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "ffn_dim": ffn,
        "num_attention_heads": heads,
        "vocab_size": 50272,
        "max_position_embeddings": 2048,
        "word_embed_proj_dim": hidden,
        "enable_bias": True,
    }


def test_opt_estimate_counts_biases_and_the_two_extra_position_rows():
    # facebook/opt-125m holds 125,239,296 parameters
    assert kw.load_model(opt(768, 12, 3072, 12)).params == 125_239_296
    # OPT-175B by hand: per layer Q, K, V, O and the two MLP matrices with their biases and two
    # LayerNorms; tied embeddings, 2,048 + 2 learned positions, a final LayerNorm
    h, f = 12288, 49152
    per_layer = 4 * h * h + 4 * h + 2 * h * f + f + h + 4 * h
    assert kw.load_model(opt(h, 96, f, 96)).params == 96 * per_layer + 50272 * h + 2050 * h + 2 * h
