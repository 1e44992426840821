"""Parameter count estimated from a config, when no checkpoint metadata is at hand.

Counts the matrices a decoder-only transformer holds, the way the checkpoints store
them: token embeddings (+ learned positions for GPT-2), per layer the attention
projections (GQA: K and V are kv_heads x head_dim wide; MLA: the low-rank down/up
projections and their norms), the MLP (gated SwiGLU/GeGLU = 3 matrices, GPT-2/Falcon
= 2), MoE experts (all of them: every expert is in memory) plus router and shared
experts, norms, biases where the family has them, and an untied lm_head.

For the Llama 3, Mistral, Qwen 2.5/3 and gpt-oss configs this reproduces the Hub's
safetensors totals exactly (tests/configs check it); for others it is an estimate
(vision towers, Mamba internals and MTP heads are not counted), and params_source
says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .fields import ConfigView

if TYPE_CHECKING:  # only for the type hint; hf_config imports this module
    from .hf_config import Dims

# Families whose MLP is a plain two-matrix MLP with GELU (no gate).
UNGATED_MLP = {"gpt2", "falcon", "gpt_bigcode", "gpt_neox", "opt", "phi"}
# Families with LayerNorm (weight + bias) rather than RMSNorm (weight only).
LAYERNORM_WITH_BIAS = {"gpt2", "falcon", "gpt_bigcode", "gpt_neox", "opt", "phi"}
# Families with per-head RMSNorm on queries and keys (q_norm / k_norm of head_dim each).
QK_NORM = {"qwen3", "qwen3_moe", "gemma3_text", "qwen3_next"}
# Families with biases on the Q, K, V projections (but not the output projection).
QKV_BIAS = {"qwen2", "qwen2_moe"}
# Families with biases on every linear layer (OPT: enable_bias, true in every release).
ALL_BIAS = {"gpt2", "opt"}
# Learned position tables: model_type -> (config field, its default, extra rows). OPT keeps
# two rows more than max_position_embeddings (transformers modeling_opt.py,
# OPTLearnedPositionalEmbedding: offset = 2).
LEARNED_POSITIONS = {"gpt2": ("n_positions", 1024, 0), "opt": ("max_position_embeddings", 2048, 2)}


def estimate_params(view: ConfigView, d: Dims) -> int:
    cfg = view.cfg
    mt = view.model_type or ""
    if mt == "nemotron-nas" and isinstance(cfg.get("block_configs"), list):
        return nas_params(view, d)
    if mt == "whisper":
        return whisper_params(view, d)
    h = d.hidden
    all_bias = mt in ALL_BIAS or bool(cfg.get("bias", False)) and mt == "falcon"
    attn_bias = all_bias or bool(cfg.get("attention_bias", False))
    norm = 2 * h if mt in LAYERNORM_WITH_BIAS else h

    # ---- attention, per attention layer -----------------------------------------------
    if d.mla is not None:
        m = d.mla
        q_head = m["qk_nope_head_dim"] + m["qk_rope_head_dim"]
        if m.get("q_lora_rank"):
            q = h * m["q_lora_rank"] + m["q_lora_rank"] + m["q_lora_rank"] * d.heads * q_head
        else:
            q = h * d.heads * q_head
        kv = (
            h * (m["kv_lora_rank"] + m["qk_rope_head_dim"])
            + m["kv_lora_rank"]
            + m["kv_lora_rank"] * d.heads * (m["qk_nope_head_dim"] + m["v_head_dim"])
        )
        attention = q + kv + d.heads * m["v_head_dim"] * h
    else:
        q_width, kv_width = d.heads * d.head_dim, d.kv_heads * d.head_dim
        attention = h * q_width + 2 * h * kv_width + q_width * h
        if attn_bias:
            attention += q_width + 2 * kv_width + h
        elif mt in QKV_BIAS:
            attention += q_width + 2 * kv_width
        if mt in QK_NORM:
            attention += 2 * d.head_dim
        if mt == "gpt_oss":
            attention += d.heads  # attention sinks: one learned logit per head
    if mt == "falcon" and not cfg.get("new_decoder_architecture", False) and cfg.get("parallel_attn", True):
        layer_norms = norm  # parallel attention + MLP share one LayerNorm
    else:
        layer_norms = 2 * norm

    # ---- MLP ------------------------------------------------------------------------
    inter = d.intermediate or 4 * h
    mats = 2 if mt in UNGATED_MLP else 3
    dense_mlp = mats * h * inter + ((inter + h) if all_bias else 0)

    experts = d.num_experts
    if experts:
        moe_layers, expert = moe_shape(view, d)
        router = h * experts + (experts if mt == "gpt_oss" else 0)
        e_inter = expert_width(view, d)
        shared = 0
        n_shared = cfg.get("n_shared_experts") or 0
        if n_shared:
            shared = n_shared * 3 * h * e_inter
        shared_inter = cfg.get("shared_expert_intermediate_size") or 0
        if shared_inter:  # Qwen-MoE: one shared expert with its own width and a gate
            shared = 3 * h * shared_inter + h
        moe_mlp = experts * expert + router + shared
        mlp_total = moe_layers * moe_mlp + (d.num_layers - moe_layers) * dense_mlp
    else:
        mlp_total = d.num_layers * dense_mlp

    # Layers without attention (recurrent) get their in/out projections instead: a rough
    # 3 x hidden x (2 x hidden) for Mamba-style mixers.
    attn_layers = sum(1 for t in d.plan if t in ("full", "sliding", "chunked", "cross", "hybrid"))
    recurrent_layers = sum(1 for t in d.plan if t in ("recurrent", "hybrid"))
    mixers = attn_layers * attention + recurrent_layers * 3 * h * 2 * h

    embeddings = d.vocab * h
    if mt in LEARNED_POSITIONS:
        field, default, extra = LEARNED_POSITIONS[mt]
        embeddings += ((view.get(field, (field,), default=default) or default) + extra) * h
    lm_head = 0 if d.tied else d.vocab * h
    final_norm = norm
    return embeddings + mixers + mlp_total + d.num_layers * layer_norms + final_norm + lm_head


def expert_width(view: ConfigView, d: Dims) -> int:
    # LongCat-Flash names its expert width expert_ffn_hidden_size (LongcatFlashConfig)
    width = view.get(
        "moe_intermediate_size",
        ("moe_intermediate_size", "expert_intermediate_size", "expert_ffn_hidden_size"),
        default=None,
    )
    if isinstance(width, list) and width:
        # one width per layer (Hunyuan-A13B): the estimate takes their mean
        width = round(sum(width) / len(width))
    return width or d.intermediate or 4 * d.hidden


def moe_shape(view: ConfigView, d: Dims) -> tuple[int, int]:
    """(layers with routed experts, parameters of one routed expert)."""
    e_inter = expert_width(view, d)
    pattern = view.cfg.get("hybrid_override_pattern")
    if view.model_type == "nemotron_h" and isinstance(pattern, str):
        # Nemotron-H: only the "E" blocks are MoE, and its experts are two-matrix relu2 MLPs
        # (transformers configuration_nemotron_h.py: mlp_hidden_act "relu2", E = moe)
        return pattern.count("E"), 2 * d.hidden * e_inter
    expert = 3 * d.hidden * e_inter
    if view.model_type == "gpt_oss":
        expert += 2 * e_inter + d.hidden  # gate_up and down projection biases
    first_dense = view.cfg.get("first_k_dense_replace") or 0
    return max(d.num_layers - first_dense, 0), expert


def routed_expert_params(view: ConfigView, d: Dims) -> int:
    """Parameters in the routed experts of every MoE layer (0 for a dense model).

    A token passes through only experts_per_token of them, so prefill FLOPs and a
    small batch's decode reads are set by far fewer parameters than the total.
    """
    if not d.num_experts:
        return 0
    layers, expert = moe_shape(view, d)
    return layers * d.num_experts * expert


def _multiple_of_256(n: int) -> int:
    return n if n % 256 == 0 else n + 256 - n % 256


def nas_params(view: ConfigView, d: Dims) -> int:
    """Llama-Nemotron (DeciLM): every layer's attention and MLP as its block_configs entry
    builds them (vLLM 0.33.0 nemotron_nas.py, DeciLMDecoderLayer: a no-op attention or MLP
    has no weights and no norm; an MLP's width is ffn_mult x 2 x hidden / 3 rounded up to a
    multiple of 256, _ffn_mult_to_intermediate_size), untied embeddings and lm_head."""
    h = d.hidden
    total = d.vocab * h * (1 if d.tied else 2) + h  # + the final norm
    for block in view.cfg["block_configs"]:
        att, ffn = block.get("attention") or {}, block.get("ffn") or {}
        if not (att.get("no_op") or att.get("replace_with_linear")):
            kv = d.heads // att["n_heads_in_group"]
            total += 2 * h * d.heads * d.head_dim + 2 * h * kv * d.head_dim + h
        elif att.get("replace_with_linear"):
            total += h * h
        if not ffn.get("no_op"):
            if ffn.get("replace_with_linear"):
                total += h * h
            else:
                width = ffn.get("intermediate_size") or _multiple_of_256(int(2 * ffn["ffn_mult"] * h / 3))
                total += 3 * h * width + h
    return total


def whisper_params(view: ConfigView, d: Dims) -> int:
    """Whisper's encoder and decoder as transformers' modeling_whisper.py stores them: every
    attention with q/v/out biases and none on k, LayerNorms with bias, two-matrix GELU MLPs,
    the encoder's two convolutions (kernel 3) and position tables of max_source_positions and
    max_target_positions rows; proj_out is tied to the decoder's token embeddings."""
    h, vocab = d.hidden, d.vocab
    cfg = view.cfg

    def ffn(key: str) -> int:
        f = view.check_int(key, cfg.get(key))
        return 2 * h * f + f + h

    attention = 4 * h * h + 3 * h
    mel = view.check_int("num_mel_bins", cfg.get("num_mel_bins"))
    encoder = view.check_int("encoder_layers", cfg.get("encoder_layers")) * (
        attention + 4 * h + ffn("encoder_ffn_dim")
    )
    encoder += (mel * h * 3 + h) + (h * h * 3 + h) + cfg["max_source_positions"] * h + 2 * h
    decoder = d.num_layers * (2 * attention + 6 * h + ffn("decoder_ffn_dim"))
    decoder += vocab * h + cfg["max_target_positions"] * h + 2 * h
    return encoder + decoder
