"""What transformers assumes for fields a config.json leaves out, per model_type.

A config.json only stores the values that differ from its config class's defaults, so
reading the file alone can miss a field (Gemma 3 27B's config.json names no
sliding_window_pattern, yet every fifth-of-six layer is sliding). The values below
are the __init__ defaults of each transformers config class, looked up in
transformers' source (src/transformers/models/<name>/configuration_<name>.py); only
the fields kvwidgets reads are kept. Provenance names the class, so a reader can check.
"""

from __future__ import annotations

from typing import Any

# model_type -> (config class name, {field: default})
LIBRARY_DEFAULTS: dict[str, tuple[str, dict[str, Any]]] = {
    # configuration_gemma3.py, Gemma3TextConfig.__init__
    "gemma3_text": (
        "Gemma3TextConfig",
        {
            "vocab_size": 262_208,
            "hidden_size": 2304,
            "intermediate_size": 9216,
            "num_hidden_layers": 26,
            "num_attention_heads": 8,
            "num_key_value_heads": 4,
            "head_dim": 256,
            "max_position_embeddings": 131_072,
            "tie_word_embeddings": True,
            "sliding_window": 4096,
            "sliding_window_pattern": 6,
        },
    ),
    # configuration_gemma2.py: every other layer slides (layer i slides when i is even)
    "gemma2": (
        "Gemma2Config",
        {
            "head_dim": 256,
            "sliding_window": 4096,
            "sliding_window_pattern": 2,
            "tie_word_embeddings": True,
        },
    ),
    # configuration_cohere2.py: three sliding layers then one full
    "cohere2": ("Cohere2Config", {"sliding_window": 4096, "sliding_window_pattern": 4}),
    # configuration_llama.py / mistral / qwen2 / qwen3: untied lm_head unless told
    "llama": ("LlamaConfig", {"tie_word_embeddings": False, "max_position_embeddings": 2048}),
    "mistral": ("MistralConfig", {"tie_word_embeddings": False, "sliding_window": 4096}),
    "mixtral": ("MixtralConfig", {"tie_word_embeddings": False}),
    "qwen2": (
        "Qwen2Config",
        {"tie_word_embeddings": False, "use_sliding_window": False, "max_window_layers": 28},
    ),
    "qwen3": (
        "Qwen3Config",
        {"tie_word_embeddings": False, "use_sliding_window": False, "max_window_layers": 28},
    ),
    "qwen3_moe": ("Qwen3MoeConfig", {"tie_word_embeddings": False, "use_sliding_window": False}),
    # configuration_phi3.py: a text_config that names only model_type "phi3" (xgen-mm)
    # is Phi-3-mini's shape
    "phi3": (
        "Phi3Config",
        {
            "vocab_size": 32064,
            "hidden_size": 3072,
            "intermediate_size": 8192,
            "num_hidden_layers": 32,
            "num_attention_heads": 32,
            "max_position_embeddings": 4096,
            "tie_word_embeddings": False,
        },
    ),
    "deepseek_v2": ("DeepseekV2Config", {"tie_word_embeddings": False, "first_k_dense_replace": 0}),
    "deepseek_v3": ("DeepseekV3Config", {"tie_word_embeddings": False, "first_k_dense_replace": 3}),
    "gpt_oss": ("GptOssConfig", {"tie_word_embeddings": False, "sliding_window": 128}),
    # configuration_gemma4.py, Gemma4TextConfig (transformers 5.24.0): five sliding layers
    # then one full (its layer_types default); global_head_dim and
    # num_global_key_value_heads are popped from kwargs with defaults 512 and None
    "gemma4_text": (
        "Gemma4TextConfig",
        {
            "head_dim": 256,
            "global_head_dim": 512,
            "sliding_window": 512,
            "sliding_window_pattern": 6,
            "attention_k_eq_v": False,
            "num_kv_shared_layers": 0,
            "max_position_embeddings": 131_072,
            "tie_word_embeddings": True,
        },
    ),
    # configuration_qwen3_next.py / configuration_qwen3_5.py: full_attention_interval
    # is popped with default 4; Gated DeltaNet sizes below are the class defaults
    "qwen3_next": (
        "Qwen3NextConfig",
        {
            "full_attention_interval": 4,
            "head_dim": 256,
            "linear_conv_kernel_dim": 4,
            "linear_key_head_dim": 128,
            "linear_value_head_dim": 128,
            "linear_num_key_heads": 16,
            "linear_num_value_heads": 32,
            "tie_word_embeddings": False,
        },
    ),
    "qwen3_5_text": ("Qwen3_5TextConfig", {"full_attention_interval": 4, "linear_conv_kernel_dim": 4}),
    "qwen3_5_moe_text": ("Qwen3_5MoeTextConfig", {"full_attention_interval": 4, "linear_conv_kernel_dim": 4}),
    # configuration_deepseek_v32.py, DeepseekV32Config: the indexer's key width
    "deepseek_v32": (
        "DeepseekV32Config",
        {"tie_word_embeddings": False, "first_k_dense_replace": 3, "index_head_dim": 128},
    ),
    # configuration_nemotron_h.py, NemotronHConfig
    "nemotron_h": ("NemotronHConfig", {"conv_kernel": 4, "n_groups": 8, "tie_word_embeddings": False}),
    # configuration_mllama.py, MllamaTextConfig: every fifth layer from 3 is cross-attention
    "mllama_text_model": (
        "MllamaTextConfig",
        {"cross_attention_layers": [3, 8, 13, 18, 23, 28, 33, 38], "tie_word_embeddings": False},
    ),
    # configuration_llama4.py, Llama4TextConfig: every fourth layer is global (NoPE)
    "llama4_text": (
        "Llama4TextConfig",
        {"tie_word_embeddings": False, "attention_chunk_size": 8192, "no_rope_layer_interval": 4},
    ),
    # configuration_falcon.py / configuration_gpt2.py: tied embeddings, LayerNorm with bias
    "falcon": (
        "FalconConfig",
        {"tie_word_embeddings": True, "multi_query": True, "new_decoder_architecture": False},
    ),
    "gpt2": ("GPT2Config", {"tie_word_embeddings": True, "n_positions": 1024, "n_inner": None}),
    # configuration_jamba.py: one attention layer in eight, Mamba-1 elsewhere
    "jamba": (
        "JambaConfig",
        {
            "attn_layer_period": 8,
            "attn_layer_offset": 4,
            "mamba_d_state": 16,
            "mamba_d_conv": 4,
            "mamba_expand": 2,
            "tie_word_embeddings": False,
        },
    ),
}

# Fields PretrainedConfig itself defaults (every model type).
PRETRAINED_DEFAULTS: dict[str, Any] = {"tie_word_embeddings": True}

# Multimodal wrappers whose text model sits in text_config, and the model_type the
# text config has when its own config.json entry omits it.
TEXT_MODEL_TYPE = {
    "gemma3": "gemma3_text",
    "llama4": "llama4_text",
    "mistral3": "mistral",
    "llava": "llama",
    "qwen2_5_vl": "qwen2",
    "gemma4": "gemma4_text",
    "qwen3_5": "qwen3_5_text",
    "qwen3_5_moe": "qwen3_5_moe_text",
    "mllama": "mllama_text_model",
    # Kimi-K3 wraps a kimi_linear text model (and may repeat its layer count at the top)
    "kimi_k3": "kimi_linear",
}


def library_default(model_type: str | None, field: str) -> tuple[bool, Any, str]:
    """(found, value, where) for a field the config left out."""
    if model_type in LIBRARY_DEFAULTS:
        cls, values = LIBRARY_DEFAULTS[model_type]
        if field in values:
            return True, values[field], f"default of {cls}"
    if field in PRETRAINED_DEFAULTS:
        return True, PRETRAINED_DEFAULTS[field], "default of PretrainedConfig"
    return False, None, ""
