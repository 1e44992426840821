"""Every architecture kind kvwidgets reads: a config written for each field and pitfall, with the
number worked out here from the engine's rule (the file is cited beside each).

Engines read: vLLM 0.33.0 (pip download vllm==0.33.0 --no-deps; Llama 3.2 Vision from
vLLM 0.10.2, its last release with the model) and transformers 5.24.0 config classes.
"""

import pytest

import kvwidgets as kw
from kvwidgets.core import ConfigError, CrossAttentionSpec, FullAttentionSpec, MLASpec, RecurrentStateSpec


def kinds(m):
    out = {}
    for g in m.groups:
        out[g.spec.kind] = out.get(g.spec.kind, 0) + g.count
    return out


def spec_of(m, kind):
    specs = [g.spec for g in m.groups if g.spec.kind == kind]
    assert len(specs) == 1, specs
    return specs[0]


# ---- Qwen3-Next: full_attention_interval ----------------------------------------------------
QWEN3_NEXT = {
    "model_type": "qwen3_next",
    "hidden_size": 2048,
    "num_hidden_layers": 48,
    "num_attention_heads": 16,
    "num_key_value_heads": 2,
    "head_dim": 256,
    "full_attention_interval": 4,
    "linear_num_key_heads": 16,
    "linear_num_value_heads": 32,
    "linear_key_head_dim": 128,
    "linear_value_head_dim": 128,
    "linear_conv_kernel_dim": 4,
    "torch_dtype": "bfloat16",
}


def test_full_attention_interval_makes_every_fourth_layer_full():
    # transformers configuration_qwen3_next.py: "linear_attention" if (i + 1) % interval else "full_attention"
    m = kw.load_model(QWEN3_NEXT)
    assert kinds(m) == {"recurrent": 36, "full": 12}
    assert [i for i, t in enumerate(m.extra["layer_plan"]) if t == "full"] == list(range(3, 48, 4))
    # only the 12 full layers grow: 12 x 2 (K, V) x 2 KV heads x 256 x 2 B (not 48 layers: 4x less)
    assert m.kv_bytes_per_token() == 12 * 2 * 2 * 256 * 2 == 24_576
    # Gated DeltaNet state, vllm/model_executor/layers/mamba/mamba_utils.py gated_delta_net_state_shape:
    # conv (2 x 16 x 128 + 32 x 128) x (4 - 1), temporal 32 x 128 x 128; both in the model dtype
    # (mamba_ssm_cache_dtype "auto" = the conv dtype) for Qwen3-Next
    state = spec_of(m, "recurrent")
    assert state.conv_bytes == (2 * 16 * 128 + 32 * 128) * 3 * 2 == 49_152
    assert state.ssm_bytes == 32 * 128 * 128 * 2 == 1_048_576
    assert state.ssm_dtype == "bf16"
    assert m.kv_bytes(1000) == 1000 * 24_576 + 36 * (49_152 + 1_048_576)
    assert "full_attention_interval" in m.provenance["layer_types"]


def test_qwen3_next_without_interval_or_layer_types_takes_the_class_default_of_four():
    cfg = {k: v for k, v in QWEN3_NEXT.items() if k != "full_attention_interval"}
    cfg["num_hidden_layers"] = 8
    m = kw.load_model(cfg)
    assert m.extra["layer_plan"] == ("recurrent",) * 3 + ("full",) + ("recurrent",) * 3 + ("full",)
    assert "Qwen3NextConfig" in m.provenance["full_attention_interval"]


def test_full_attention_interval_must_be_a_positive_whole_number():
    with pytest.raises(ConfigError, match="full_attention_interval"):
        kw.load_model(dict(QWEN3_NEXT, full_attention_interval=0))


# ---- layer_types of every kind ---------------------------------------------------------------
BASE = {
    "hidden_size": 1024,
    "num_attention_heads": 8,
    "num_key_value_heads": 2,
    "head_dim": 128,
    "sliding_window": 512,
    "attention_chunk_size": 256,
    "max_position_embeddings": 32768,
}


@pytest.mark.parametrize(
    "name,kind",
    [
        ("full_attention", "full"),
        ("sliding_attention", "sliding"),
        ("chunked_attention", "chunked"),
        ("linear_attention", "recurrent"),
        ("mamba", "recurrent"),
        ("conv", "recurrent"),
    ],
)
def test_layer_types_entries(name, kind):
    cfg = dict(
        BASE,
        num_hidden_layers=2,
        layer_types=[name, "full_attention"],
        linear_num_key_heads=2,
        linear_num_value_heads=4,
        linear_key_head_dim=32,
        linear_value_head_dim=32,
    )
    m = kw.load_model(cfg)
    assert m.extra["layer_plan"][0] == kind


def test_moe_and_mlp_blocks_store_nothing():
    # Nemotron-H's layers_block_type (transformers configuration_nemotron_h.py): moe / mlp blocks
    # have neither attention nor state
    cfg = dict(
        BASE,
        model_type="nemotron_h",
        num_hidden_layers=4,
        layers_block_type=["mamba", "moe", "attention", "mlp"],
        mamba_num_heads=8,
        mamba_head_dim=64,
        ssm_state_size=16,
        n_groups=1,
        conv_kernel=4,
    )
    m = kw.load_model(cfg)
    assert m.extra["layer_plan"] == ("recurrent", "none", "full", "none")
    assert m.num_layers == 2


def test_unknown_layer_kinds_name_the_field():
    with pytest.raises(ConfigError, match=r"layer_types\[1\] is 'warp_attention'"):
        kw.load_model(dict(BASE, num_hidden_layers=2, layer_types=["full_attention", "warp_attention"]))
    with pytest.raises(ConfigError, match=r"layers_block_type\[0\] is 'teleport'"):
        kw.load_model(dict(BASE, num_hidden_layers=1, layers_block_type=["teleport"]))


# ---- Gemma 4: per-kind KV heads and head sizes -----------------------------------------------
GEMMA4 = {
    "model_type": "gemma4_text",
    "hidden_size": 2816,
    "num_hidden_layers": 30,
    "num_attention_heads": 16,
    "num_key_value_heads": 8,
    "head_dim": 256,
    "global_head_dim": 512,
    "num_global_key_value_heads": 2,
    "attention_k_eq_v": True,
    "sliding_window": 1024,
    "max_position_embeddings": 262144,
    "layer_types": (["sliding_attention"] * 5 + ["full_attention"]) * 5,
}


def test_gemma4_full_layers_use_global_heads_and_head_dim():
    # transformers configuration_gemma4.py: full_attention layers get head_dim = global_head_dim and,
    # with attention_k_eq_v, num_key_value_heads = num_global_key_value_heads; vLLM's gemma4.py builds
    # each layer from that per_layer_config and stores K and V both (K's weights fill both slots)
    m = kw.load_model(GEMMA4)
    assert spec_of(m, "full") == FullAttentionSpec(2, 512)
    assert spec_of(m, "sliding").num_kv_heads == 8 and spec_of(m, "sliding").head_size == 256
    assert m.kv_bytes_per_token() == 5 * 2 * 2 * 512 * 2 == 20_480
    wrong = 5 * 2 * 8 * 256 * 2  # the sliding layers' 8 x 256 on the full layers: 2x too much
    assert wrong == 2 * m.kv_bytes_per_token()
    assert m.kv_bytes_per_token_within_windows() == 20_480 + 25 * 2 * 8 * 256 * 2


def test_gemma4_without_k_eq_v_keeps_num_key_value_heads_on_full_layers():
    m = kw.load_model(dict(GEMMA4, attention_k_eq_v=False))
    assert spec_of(m, "full") == FullAttentionSpec(8, 512)
    assert "not used" in m.provenance["num_global_key_value_heads"]


def test_gemma4_global_head_dim_defaults_to_512():
    cfg = {k: v for k, v in GEMMA4.items() if k != "global_head_dim"}
    m = kw.load_model(cfg)
    assert spec_of(m, "full").head_size == 512
    assert "Gemma4TextConfig" in m.provenance["global_head_dim"]


def test_gemma4_last_layer_is_forced_full():
    # Gemma4TextConfig.__post_init__ forces the last layer to full attention
    cfg = dict(GEMMA4, num_hidden_layers=4, layer_types=["sliding_attention"] * 4)
    assert kw.load_model(cfg).extra["layer_plan"] == ("sliding", "sliding", "sliding", "full")


def test_separate_key_and_value_head_sizes():
    # a non-MLA attention with narrower values: vLLM mimo_v2.py passes head_size_v=v_head_dim
    cfg = {k: v for k, v in BASE.items() if k != "sliding_window"}
    m = kw.load_model(dict(cfg, num_hidden_layers=4, head_dim=192, v_head_dim=128))
    assert spec_of(m, "full") == FullAttentionSpec(2, 192, 128)
    assert m.kv_bytes_per_token() == 4 * 2 * (192 + 128) * 2


# ---- KV shared across layers ------------------------------------------------------------------
def test_kv_shared_layers_store_nothing():
    # vLLM gemma4.py: layers i >= num_hidden_layers - num_kv_shared_layers get a
    # kv_sharing_target_layer_name; gpu_model_runner.get_kv_cache_spec gives them no cache
    types = ["sliding_attention", "sliding_attention", "full_attention"] * 4
    cfg = dict(GEMMA4, num_hidden_layers=12, layer_types=types, num_kv_shared_layers=6)
    m = kw.load_model(cfg)
    assert m.extra["layer_plan"][6:] == ("none",) * 6
    assert kinds(m) == {"sliding": 4, "full": 2}
    assert m.kv_bytes_per_token() == 2 * 2 * 2 * 512 * 2
    assert m.extra["kv_shared_layers"] == 6
    assert "reuse earlier layers' KV" in m.provenance["layer_types"]


def test_kv_shared_layers_need_a_producer_of_their_kind():
    cfg = dict(
        GEMMA4,
        num_hidden_layers=4,
        layer_types=["sliding_attention"] * 3 + ["full_attention"],
        num_kv_shared_layers=1,
    )
    with pytest.raises(ConfigError, match="no earlier layer of that type"):
        kw.load_model(cfg)
    with pytest.raises(ConfigError, match="leaves no layer"):
        kw.load_model(dict(GEMMA4, num_kv_shared_layers=30))


# ---- Llama 3.2 Vision: cross-attention layers -------------------------------------------------
MLLAMA = {
    "architectures": ["MllamaForConditionalGeneration"],
    "model_type": "mllama",
    "text_config": {
        "model_type": "mllama_text_model",
        "hidden_size": 4096,
        "num_hidden_layers": 40,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "max_position_embeddings": 131072,
        "cross_attention_layers": [3, 8, 13, 18, 23, 28, 33, 38],
    },
    "vision_config": {"image_size": 560, "max_num_tiles": 4, "patch_size": 14},
}


def test_cross_attention_layers_hold_the_image_tokens_only():
    # vLLM 0.10.2 mllama.py: encoder tokens = tiles x ((image_size // 14) ** 2 + 1); the most tiles
    # an image takes is max_num_tiles (get_image_size_with_most_features)
    m = kw.load_model(MLLAMA)
    image_tokens = 4 * ((560 // 14) ** 2 + 1)
    assert image_tokens == 6_404
    assert spec_of(m, "cross") == CrossAttentionSpec(8, 128, encoder_tokens=6_404)
    assert kinds(m) == {"full": 32, "cross": 8}
    # text grows only the 32 self-attention layers
    assert m.kv_bytes_per_token() == 32 * 2 * 8 * 128 * 2 == 131_072
    assert m.kv_bytes_per_token_within_windows() == 131_072
    cross = 8 * 2 * 8 * 128 * 2 * 6_404
    assert m.kv_bytes(1000) == 1000 * 131_072 + cross
    assert m.bytes_by_kind(1000)["cross"] == cross
    assert "6,404 image tokens" in m.provenance["cross_attention_tokens"]


def test_cross_attention_without_vision_config_takes_the_class_defaults():
    m = kw.load_model(MLLAMA["text_config"])  # MllamaVisionConfig: image_size 448, max_num_tiles 4
    assert spec_of(m, "cross").encoder_tokens == 4 * ((448 // 14) ** 2 + 1) == 4_100


def test_mllama_is_flagged_as_no_longer_served_by_vllm():
    # vLLM 0.33.0 registry.py _PREVIOUSLY_SUPPORTED_MODELS: "MllamaForConditionalGeneration": "0.10.2"
    m = kw.load_model(MLLAMA)
    assert len(m.engine_notes) == 1 and "until vLLM 0.10.2" in m.engine_notes[0]
    assert "_PREVIOUSLY_SUPPORTED_MODELS" in m.provenance["engine_support"]


@pytest.mark.parametrize(
    "arch,flagged",
    [
        ("RWForCausalLM", True),
        ("BartForConditionalGeneration", True),
        ("LlamaForCausalLM", False),
        (None, False),
    ],
)
def test_engine_support_rule(arch, flagged):
    cfg = dict(BASE, num_hidden_layers=2)
    if arch:
        cfg["architectures"] = [arch]
    assert bool(kw.load_model(cfg).engine_notes) is flagged


# ---- DeepSeek-V3.2: MLA with an indexer cache ------------------------------------------------
DSV32 = {
    "model_type": "deepseek_v32",
    "hidden_size": 7168,
    "num_hidden_layers": 61,
    "num_attention_heads": 128,
    "num_key_value_heads": 128,
    "kv_lora_rank": 512,
    "qk_rope_head_dim": 64,
    "qk_nope_head_dim": 128,
    "v_head_dim": 128,
    "q_lora_rank": 1536,
    "index_topk": 2048,
    "index_head_dim": 128,
    "index_n_heads": 64,
}


def test_mla_indexer_cache_adds_fp8_keys_and_a_scale():
    # vLLM deepseek_v2.py Indexer: DeepseekV32IndexerCache(head_dim=128 + 128 // 128 * 4, dtype=uint8)
    m = kw.load_model(DSV32)
    assert spec_of(m, "mla") == MLASpec(512, 64, 132)
    assert m.kv_bytes_per_token("bf16") == 61 * ((512 + 64) * 2 + 132) == 78_324
    # the indexer stays 132 B in FP8 whatever the KV dtype: fp8 halves only the latent
    assert m.kv_bytes_per_token("fp8") == 61 * ((512 + 64) + 132)
    # not split by tensor parallelism (num_kv_heads=1, max_tp_shards=1 in its KV-cache spec)
    assert m.kv_bytes_per_token(tp=8) == m.kv_bytes_per_token()
    assert "deepseek_v2.py" in m.provenance["index_bytes"]


def test_mla_without_index_topk_has_no_indexer():
    cfg = {k: v for k, v in DSV32.items() if not k.startswith("index")}
    cfg["model_type"] = "deepseek_v3"
    assert kw.load_model(cfg).kv_bytes_per_token() == 61 * 576 * 2


# ---- recurrent state dtype ------------------------------------------------------------------
NEMOTRON_H = {
    "model_type": "nemotron_h",
    "hidden_size": 2688,
    "num_hidden_layers": 4,
    "num_attention_heads": 32,
    "num_key_value_heads": 2,
    "head_dim": 128,
    "hybrid_override_pattern": "M*ME",
    "mamba_num_heads": 64,
    "mamba_head_dim": 64,
    "ssm_state_size": 128,
    "n_groups": 8,
    "conv_kernel": 4,
    "torch_dtype": "bfloat16",
}
# vLLM mamba_utils.py mamba2_state_shape: conv (64 x 64 + 2 x 8 x 128) x (4 - 1); ssm 64 x 64 x 128
NEMO_CONV, NEMO_SSM = (64 * 64 + 2 * 8 * 128) * 3, 64 * 64 * 128


def test_nemotron_h_ssm_state_defaults_to_float32():
    # vLLM models/config.py NemotronHForCausalLMConfig.DEFAULT_MAMBA_SSM_CACHE_DTYPE = "float32"
    m = kw.load_model(NEMOTRON_H)
    state = spec_of(m, "recurrent")
    assert state == RecurrentStateSpec(NEMO_CONV * 2 + NEMO_SSM * 4, NEMO_CONV * 2, NEMO_SSM * 4, "fp32")
    assert state.state_bytes == 2_134_016
    assert "NemotronHForCausalLMConfig" in m.provenance["ssm_state_dtype"]
    assert m.kv_bytes(0) == 2 * 2_134_016  # two Mamba layers; E stores nothing


def test_nemotron_h_reads_mamba_ssm_cache_dtype_from_the_config():
    m = kw.load_model(dict(NEMOTRON_H, mamba_ssm_cache_dtype="bfloat16"))
    assert spec_of(m, "recurrent").state_bytes == (NEMO_CONV + NEMO_SSM) * 2


def test_qwen3_5_reads_mamba_ssm_dtype():
    # vLLM models/config.py Qwen3_5ForConditionalGenerationConfig: mamba_ssm_dtype from the text config
    cfg = {
        "model_type": "qwen3_5",
        "text_config": dict(
            QWEN3_NEXT, model_type="qwen3_5_text", num_hidden_layers=8, mamba_ssm_dtype="float32"
        ),
    }
    state = spec_of(kw.load_model(cfg), "recurrent")
    assert state.ssm_bytes == 32 * 128 * 128 * 4 and state.conv_bytes == (2 * 16 * 128 + 32 * 128) * 3 * 2
    cfg["text_config"].pop("mamba_ssm_dtype")
    assert spec_of(kw.load_model(cfg), "recurrent").ssm_bytes == 32 * 128 * 128 * 2  # model dtype


def test_recurrent_state_follows_the_model_dtype_not_the_kv_dtype():
    cfg = dict(QWEN3_NEXT, num_hidden_layers=4, torch_dtype="float16")
    m = kw.load_model(cfg)
    state = spec_of(m, "recurrent").state_bytes
    assert state == ((2 * 16 * 128 + 32 * 128) * 3 + 32 * 128 * 128) * 2
    assert m.kv_bytes(0, "fp8") == m.kv_bytes(0, "bf16") == 3 * state


def test_a_float32_model_keeps_its_state_in_bf16_as_vllm_runs_it():
    # vLLM 0.33.0 vllm/config/model.py, _resolve_auto_dtype: --dtype auto downcasts float32 models
    m = kw.load_model(dict(QWEN3_NEXT, num_hidden_layers=4, torch_dtype="float32"))
    assert spec_of(m, "recurrent").state_bytes == ((2 * 16 * 128 + 32 * 128) * 3 + 32 * 128 * 128) * 2
    assert "_resolve_auto_dtype" in m.provenance["model_dtype"]


def test_bad_ssm_dtype_names_the_field():
    with pytest.raises(ConfigError, match="ssm_state_dtype is 'float7'"):
        kw.load_model(dict(NEMOTRON_H, mamba_ssm_cache_dtype="float7"))


# ---- chunked attention only where the architecture uses it -----------------------------------
def test_attention_chunk_size_is_ignored_outside_llama4():
    # vLLM 0.33.0 reads attention_chunk_size in models/llama4.py only
    cfg = dict(BASE, model_type="qwen3", num_hidden_layers=4)
    m = kw.load_model(cfg)
    assert kinds(m) == {"full": 4}
    assert "ignored" in m.provenance["attention_chunk_size"]


def test_llama4_still_chunks():
    cfg = dict(
        BASE,
        model_type="llama4_text",
        num_hidden_layers=4,
        attention_chunk_size=8192,
        no_rope_layers=[1, 1, 1, 0],
    )
    m = kw.load_model(cfg)
    assert m.extra["layer_plan"] == ("chunked", "chunked", "chunked", "full")
    assert m.kv_bytes_per_token() == 1 * 2 * 2 * 128 * 2
    assert m.kv_bytes(100_000) == 100_000 * 1024 + 3 * 8192 * 1024


# ---- per-token figures that never mislead --------------------------------------------------
PHI4_MINI = {
    "model_type": "phi3",
    "hidden_size": 3072,
    "num_hidden_layers": 32,
    "num_attention_heads": 24,
    "num_key_value_heads": 8,
    "sliding_window": 262144,
    "max_position_embeddings": 131072,
}


def test_a_window_longer_than_the_context_is_full_attention():
    # Phi-4-mini: window 262,144 against 131,072 positions never slides; vLLM sizes a sliding layer
    # for min(window - 1 + in-flight tokens, max_model_len) (kv_cache_interface.py SlidingWindowSpec)
    m = kw.load_model(PHI4_MINI)
    assert kinds(m) == {"full": 32}
    assert m.kv_bytes_per_token() == 32 * 2 * 8 * 128 * 2 == 131_072  # not 0 B
    assert "never fills" in m.provenance["sliding_window_as_full"]
    assert kinds(kw.load_model(dict(PHI4_MINI, sliding_window=131072))) == {"full": 32}  # equal: full too
    assert kinds(kw.load_model(dict(PHI4_MINI, sliding_window=131071))) == {"sliding": 32}


def test_context_past_max_position_embeddings_is_flagged():
    m = kw.load_model(PHI4_MINI)
    assert m.max_context == 131_072
    assert not m.past_max_context(131_072) and m.context_warning(131_072) is None
    assert m.past_max_context(131_073)
    warning = m.context_warning(200_000)
    assert "200,000" in warning and "131,072" in warning and "max_position_embeddings" in warning
    assert m.kv_bytes(200_000) == 200_000 * 131_072  # still answered: the flag is the warning
    assert m.shape()["max_context"] == 131_072
    no_limit = kw.load_model(dict(BASE, num_hidden_layers=2, max_position_embeddings=None))
    assert no_limit.max_context is None and not no_limit.past_max_context(10**9)


# ---- the new presets, worked out from their configs -------------------------------------------
@pytest.mark.parametrize(
    "name,per_token,fixed",
    [
        # 12 full layers x 2 x 2 KV heads x 256 x 2 B; 36 Gated DeltaNet states of 1,097,728 B
        (
            "qwen3-next-80b-a3b",
            12 * 2 * 2 * 256 * 2,
            36 * ((2 * 16 * 128 + 32 * 128) * 3 + 32 * 128 * 128) * 2,
        ),
        # 61 x (latent 576 x 2 B + indexer 132 B)
        ("deepseek-v3.2", 61 * (576 * 2 + 132), 0),
        # 12 global NoPE layers x 2 x 8 x 128 x 2 B (the 36 chunked layers stop at 8,192 tokens)
        ("llama-4-scout", 12 * 2 * 8 * 128 * 2, 0),
        # 5 full layers x 2 x 2 global KV heads x 512 x 2 B
        ("gemma-4-26b-a4b", 5 * 2 * 2 * 512 * 2, 0),
        # 6 attention layers x 2 x 2 x 128 x 2 B; 23 Mamba-2 states, SSM part in float32
        (
            "nemotron-3-nano-30b-a3b",
            6 * 2 * 2 * 128 * 2,
            23 * ((64 * 64 + 2 * 8 * 128) * 3 * 2 + 64 * 64 * 128 * 4),
        ),
    ],
)
def test_new_presets(name, per_token, fixed):
    m = kw.load_model(name)
    assert m.kv_bytes_per_token() == per_token
    assert sum(g.count * g.spec.fixed_bytes() for g in m.groups) == fixed
    assert not m.engine_notes


def test_llama4_scout_chunks_fill_then_stop():
    m = kw.load_model("llama-4-scout")
    assert kinds(m) == {"chunked": 36, "full": 12}
    assert m.kv_bytes(100_000) == 100_000 * 49_152 + 36 * 8192 * 2 * 8 * 128 * 2


def test_falcon_h1_layers_keep_a_kv_cache_and_a_mamba_state():
    # vLLM falcon_h1.py: every layer is FalconH1ParallelHybrid (attention + Mamba-2 side by side);
    # state shape from mamba2_state_shape with intermediate = mamba_d_ssm, head_dim "auto" =
    # 2048 // 32 = 64: conv (2048 + 2 x 1 x 128) x (4 - 1), ssm 32 x 64 x 128, in bf16
    cfg = {
        "model_type": "falcon_h1",
        "hidden_size": 1024,
        "num_hidden_layers": 4,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "head_dim": 128,
        "mamba_d_ssm": 2048,
        "mamba_n_heads": 32,
        "mamba_d_head": "auto",
        "mamba_n_groups": 1,
        "mamba_d_state": 128,
        "mamba_d_conv": 4,
        "torch_dtype": "bfloat16",
    }
    m = kw.load_model(cfg)
    assert kinds(m) == {"recurrent": 4, "full": 4}
    assert m.extra["layer_plan"] == ("hybrid",) * 4
    assert spec_of(m, "recurrent").state_bytes == ((2048 + 2 * 128) * 3 + 32 * 64 * 128) * 2 == 538_112
    assert m.kv_bytes_per_token() == 4 * 2 * 2 * 128 * 2
    assert m.kv_bytes(10) == 10 * 4096 + 4 * 538_112
