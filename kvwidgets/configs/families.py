"""Architectures whose cache the attention reader alone gets wrong, each read its own way.

Each reader takes a ConfigView and returns (Dims, layer groups), reading exactly the
fields its engine reads. The rules, with the engine code they come from (vLLM 0.33.0
unless said otherwise; transformers 5.24.0 for the config classes):

kimi_linear     Kimi Linear / Kimi-K3: linear_attn_config.kda_layers (1-based) are KDA
                layers, a fixed state each; the others (full_attn_layers) are MLA.
                vllm/models/kimi_k3/nvidia/model.py, KimiLinearForCausalLM.
                get_mamba_state_shape_from_config -> mamba_utils.py,
                MambaStateShapeCalculator.kda_state_shape: conv (3 x heads x head_dim) x
                (kernel - 1), recurrent heads x head_dim x head_dim;
                MambaStateDtypeCalculator.kda_state_dtype: conv in the model dtype,
                recurrent state float32 ("auto").
mimo_v2_flash   MiMo-V2: hybrid_layer_pattern[i] == 1 is a sliding layer with its own
                swa_num_key_value_heads / swa_head_dim / swa_v_head_dim and window
                sliding_window_size; 0 is full attention with num_key_value_heads /
                head_dim / v_head_dim. vllm/model_executor/models/mimo_v2.py,
                MiMoV2DecoderLayer.__init__ and is_swa_layer.
nemotron-nas    Llama-Nemotron Super / Ultra (DeciLM): block_configs[i].attention.no_op
                layers hold no attention; the others keep num_attention_heads //
                n_heads_in_group KV heads. vllm/model_executor/models/nemotron_nas.py,
                DeciLMDecoderLayer.__init__.
zamba2          Zamba2: "hybrid" layers hold an attention cache (num_attention_heads KV
                heads of attention_head_dim = 2 x hidden_size // num_attention_heads,
                transformers Zamba2Config.__post_init__; vLLM Zamba2Attention builds
                Attention(num_heads, attention_head_dim) with no separate KV heads) and,
                like every other layer, a Mamba-2 state: zamba2.py,
                get_mamba_state_shape_from_config (intermediate = mamba_expand x
                hidden_size, mamba_ngroups, n_mamba_heads, mamba_headdim, mamba_d_state).
mamba           Mamba-1 (and falcon_mamba): every layer a Mamba-1 state, mamba.py,
                get_mamba_state_shape_from_config (intermediate_size, state_size,
                conv_kernel).
mamba2          Mamba-2 (Mamba-Codestral): every layer a Mamba-2 state, mamba2.py,
                get_mamba_state_shape_from_config (intermediate = expand x hidden_size,
                n_groups, num_heads, head_dim, state_size, conv_kernel).
lfm2            LFM2: layer_types "full_attention" (GQA, head_dim = hidden_size //
                num_attention_heads, lfm2.py Lfm2Attention) or "conv": a short-conv
                window only, lfm2.py get_mamba_state_shape_from_config ->
                short_conv_state_shape: conv_dim x (conv_L_cache - 1) in the model dtype.
recurrent_gemma RecurrentGemma / Griffin: not in vLLM 0.33.0's registry; the rule is
                transformers' modeling_recurrent_gemma.py: block_types repeat over the
                layers; "attention" layers are local attention over
                attention_window_size tokens (num_key_value_heads x head_dim, head_dim =
                hidden_size // num_attention_heads); "recurrent" layers keep a conv
                window lru_width x (conv1d_width - 1) in the model dtype and an RG-LRU
                state of lru_width float32 numbers (RecurrentGemmaRecurrentBlock.
                _setup_cache).
minimax         MiniMax-Text-01 / M1 (lightning attention): attn_type_list (else
                layer_types) marks 0 = linear layers, 1 = softmax GQA layers
                (num_key_value_heads x head_dim). vLLM 0.33.0 no longer runs these
                architectures; the rule is vLLM 0.22.0's (the last release with them),
                vllm/model_executor/models/minimax_text_01.py, MiniMaxText01Model.__init__
                and get_mamba_state_shape_from_config: a linear layer keeps
                num_attention_heads x head_dim x head_dim numbers
                (mamba_utils.py linear_attention_state_shape) in the model dtype
                (linear_attention_state_dtype, mamba_cache_dtype "auto"): vLLM 0.22.0
                minimax_text_01.py get_mamba_state_dtype_from_config, and in 0.33.0 the
                same for the lightning layer it still ships
                (vllm/model_executor/layers/mamba/linear/base.py, LinearAttention.
                get_state_dtype -> mamba_utils.py linear_attention_state_dtype ->
                get_kv_cache_torch_dtype("auto", model dtype)). MiniMax's own modelling
                code keeps the state in float32; vLLM does not, so neither does this.
                MiniMax-M1's config.json gives no torch_dtype: bf16, as vLLM's "auto"
                dtype downcasts float32 to bf16 on a GPU (0.33.0 config/model.py,
                _resolve_auto_dtype).
longcat_flash   LongCat-Flash: num_layers decoder layers (vLLM's layer count,
                vllm/transformers_utils/model_arch_config_convertor.py,
                LongCatFlashModelArchConfigConvertor.get_num_hidden_layers), each with two
                MLA attentions, each its own latent cache: vllm/model_executor/models/
                longcat_flash.py, FlashDecoderLayer.__init__ builds
                DeepseekV2MLAAttention(...) for i in range(2). transformers'
                LongcatFlashConfig writes num_hidden_layers = 2 x num_layers (the attention
                sublayers); a config that carries it must say so.
iquestloopcoder IQuest-LoopCoder: every decoder layer runs loop_num times; the first loop
                keeps a full cache, each later loop a cache of its own over the last
                loop_window_size tokens: vllm/model_executor/models/iquest_loopcoder.py,
                LoopCoderAttention.__init__ builds one Attention per loop, loop 0 with the
                engine's cache_config and loops >= 1 with replace(cache_config,
                sliding_window=loop_window_size) (defaults loop_num 2, loop_window_size 64),
                all with num_kv_heads KV heads of head_dim = hidden_size //
                num_attention_heads.
minicpm3        MiniCPM3: MLA-shaped weights, but vLLM expands keys and values and
                stores them whole: minicpm3.py, MiniCPM3Attention builds
                Attention(num_heads, qk_head_dim, num_kv_heads=num_heads) and pads V to
                qk_head_dim, so every layer keeps 2 x heads x (qk_nope + qk_rope) numbers
                per token.
deepseek_v4     DeepSeek-V4: compress_ratios[i] for each of the num_hidden_layers layers (the
                entries past them are the MTP draft layers'): 0 keeps only the sliding latent
                of sliding_window tokens, 4 and 128 add one compressed entry per 4 or 128
                tokens and a float32 compressor state, and 4 an indexer key per entry; each
                part in vLLM's packed format (core.layers.CompressedMLASpec, which cites
                vllm/models/deepseek_v4/attention.py, compressor.py and
                v1/attention/backends/mla/sparse_swa.py for every size).
whisper         Whisper (encoder-decoder): decoder_layers self-attention layers of
                decoder_attention_heads heads of d_model // decoder_attention_heads, each with
                a cross-attention cache of the encoder's max_source_positions tokens per
                request; the encoder keeps no cache. vllm/model_executor/models/whisper.py:
                WhisperAttention.__init__ (num_kv_heads = num_heads, head_dim = embed_dim //
                num_heads), WhisperDecoderLayer (self_attn + WhisperCrossAttention ->
                CrossAttention, layers/attention/cross_attention.py get_kv_cache_spec:
                CrossAttentionSpec), WhisperProcessingInfo.get_num_audio_tokens =
                max_source_positions. num_hidden_layers in these configs is the encoder's
                count (transformers WhisperConfig sets it to encoder_layers), not the decoder's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from ..core.errors import ConfigError
from ..core.layers import (
    CompressedMLASpec,
    CrossAttentionSpec,
    FullAttentionSpec,
    LayerGroup,
    LayerSpec,
    MLASpec,
    RecurrentStateSpec,
    SlidingWindowSpec,
)
from .fields import ConfigView
from .hf_config import Dims, never_fills, read_dims
from .recurrent import _bytes, model_dtype


def _groups(view: ConfigView, specs: list[LayerSpec | None]) -> tuple[LayerGroup, ...]:
    counts: dict[LayerSpec, int] = {}
    for spec in specs:
        if spec is not None:
            counts[spec] = counts.get(spec, 0) + 1
    if not counts:
        raise ConfigError(f"{view.source}: no layer stores anything")
    return tuple(LayerGroup(s, c) for s, c in counts.items())


def _state(
    view: ConfigView, conv: int, ssm: int, ssm_dtype: str | None, formula: str, rule: str
) -> RecurrentStateSpec:
    """A recurrent layer's state: conv numbers in the model dtype, ssm numbers in ssm_dtype
    (None: the model dtype, vLLM's "auto")."""
    conv_dtype = model_dtype(view)
    sdtype = ssm_dtype or conv_dtype
    conv_b, ssm_b = _bytes(conv, conv_dtype), _bytes(ssm, sdtype)
    view.note(
        "recurrent_state_bytes",
        f"from {view.source}: {formula}; conv {conv:,} numbers in {conv_dtype} = {conv_b:,} B + state "
        f"{ssm:,} numbers in {sdtype} = {ssm_b:,} B = {conv_b + ssm_b:,} B per layer per sequence ({rule})",
    )
    return RecurrentStateSpec(
        conv_b + ssm_b, conv_b, ssm_b, sdtype if ssm else None
    )  # LFM2: a conv window only


def _int(view: ConfigView, key: str, value: object, where: str, minimum: int = 1) -> int:
    view.provenance.setdefault(key, where)
    return view.check_int(key, value, minimum)


# ---- Kimi Linear -------------------------------------------------------------------------
KDA_KEYS = {
    "kda_layers",
    "full_attn_layers",
    "num_heads",
    "head_dim",
    "short_conv_kernel_size",
    # these shape the gate only, not the state
    "gate_lower_bound",
    "use_full_rank_gate",
}


def kimi_linear(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    d = read_dims(view)
    where = view.where("linear_attn_config")
    lac = view.get("linear_attn_config", ("linear_attn_config",), default=None)
    if not isinstance(lac, Mapping):
        raise ConfigError(f"linear_attn_config must be an object with kda_layers, got {lac!r} ({where})")
    unknown = sorted(set(lac) - KDA_KEYS)
    if unknown:
        raise ConfigError(
            f"linear_attn_config has fields kvwidgets does not read: {unknown} ({where}); "
            f"expected only {sorted(KDA_KEYS)}"
        )
    if d.mla is None:
        raise ConfigError(f"{view.source}: a Kimi Linear config needs kv_lora_rank for its MLA layers")
    kda = lac.get("kda_layers")
    if not isinstance(kda, list) or not all(isinstance(i, int) and 1 <= i <= d.num_layers for i in kda):
        raise ConfigError(
            f"linear_attn_config.kda_layers must list 1-based layer numbers 1..{d.num_layers}, got {kda!r} ({where})"
        )
    full = lac.get("full_attn_layers")
    if full is not None and sorted(set(full) | set(kda)) != list(range(1, d.num_layers + 1)):
        raise ConfigError(
            f"linear_attn_config.kda_layers and full_attn_layers must cover layers 1..{d.num_layers} "
            f"between them ({where})"
        )
    heads = _int(view, "kda_num_heads", lac.get("num_heads"), where + ".num_heads")
    hd = _int(view, "kda_head_dim", lac.get("head_dim"), where + ".head_dim")
    kernel = _int(
        view, "kda_conv_kernel", lac.get("short_conv_kernel_size"), where + ".short_conv_kernel_size"
    )
    state = _state(
        view,
        3 * heads * hd * (kernel - 1),
        heads * hd * hd,
        "fp32",
        f"KDA: conv (3 x {heads} x {hd}) x ({kernel} - 1); state {heads} x {hd} x {hd} in float32",
        "vllm/model_executor/layers/mamba/mamba_utils.py, kda_state_shape / kda_state_dtype, vLLM 0.33.0",
    )
    mla = MLASpec(d.mla["kv_lora_rank"], d.mla["qk_rope_head_dim"])
    plan = ["recurrent" if i + 1 in kda else "full" for i in range(d.num_layers)]
    view.note("layer_types", f"{where}.kda_layers (1-based) are KDA layers, the rest MLA")
    return replace(d, plan=plan), _groups(view, [state if t == "recurrent" else mla for t in plan])


# ---- MiMo-V2 -----------------------------------------------------------------------------
def mimo_v2(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    d = read_dims(view)
    pattern = view.get("hybrid_layer_pattern", ("hybrid_layer_pattern",), default=None)
    where = view.where("hybrid_layer_pattern")
    if not isinstance(pattern, list) or len(pattern) != d.num_layers or set(pattern) - {0, 1}:
        raise ConfigError(
            f"hybrid_layer_pattern must list 0 (full) or 1 (sliding) for each of the {d.num_layers} "
            f"layers, got {pattern!r} ({where})"
        )
    window = view.get("sliding_window_size", ("sliding_window_size",), default=None)
    if window is None:
        raise ConfigError(
            f"{view.source}: MiMo-V2 sliding layers need sliding_window_size (vLLM mimo_v2.py reads it)"
        )
    window = view.check_int("sliding_window_size", window)
    view.raw("sliding_window")  # transformers' own copy of the window; vLLM reads sliding_window_size
    view.raw("swa_num_attention_heads")  # query heads: they size no cache
    swa = SlidingWindowSpec(
        view.integer("swa_num_key_value_heads", ("swa_num_key_value_heads",)),
        view.integer("swa_head_dim", ("swa_head_dim",)),
        view.integer("swa_v_head_dim", ("swa_v_head_dim",), default=None, required=False),
        window=window,
    )
    full = FullAttentionSpec(d.kv_heads, d.head_dim, d.head_dim_v)
    plan = ["sliding" if p else "full" for p in pattern]
    view.note("layer_types", f"{where}: 1 = sliding (swa_* heads and dims), 0 = full attention")
    return replace(d, plan=plan), _groups(view, [swa if t == "sliding" else full for t in plan])


# ---- Nemotron NAS (DeciLM) --------------------------------------------------------------
NAS_ATTENTION_KEYS = {"no_op", "n_heads_in_group", "replace_with_linear", "sparsify", "num_sink_tokens"}


def nemotron_nas(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    d = read_dims(view)
    blocks = view.get("block_configs", ("block_configs",), default=None)
    where = view.where("block_configs")
    if not isinstance(blocks, list) or len(blocks) != d.num_layers:
        raise ConfigError(f"block_configs must hold one entry per layer ({d.num_layers}) ({where})")
    specs: list[LayerSpec | None] = []
    plan = []
    for i, block in enumerate(blocks):
        att = block.get("attention") if isinstance(block, Mapping) else None
        if not isinstance(att, Mapping):
            raise ConfigError(f"block_configs[{i}].attention must be an object ({where})")
        extra = sorted(k for k, v in att.items() if k not in NAS_ATTENTION_KEYS and v not in (None, False))
        if extra or att.get("sparsify") or att.get("num_sink_tokens"):
            raise ConfigError(
                f"block_configs[{i}].attention has fields kvwidgets does not read: "
                f"{extra or ['sparsify' if att.get('sparsify') else 'num_sink_tokens']} ({where}); vLLM 0.33.0 "
                "nemotron_nas.py reads only no_op and n_heads_in_group"
            )
        if att.get("no_op") or att.get("replace_with_linear"):
            if att.get("replace_with_linear") and not att.get("no_op"):
                view.warn(
                    f"block_configs[{i}].attention.replace_with_linear: a linear layer in place of "
                    "attention stores no cache; vLLM 0.33.0 nemotron_nas.py does not read this flag"
                )
            specs.append(None)
            plan.append("none")
            continue
        group = att.get("n_heads_in_group")
        group = _int(view, "n_heads_in_group", group, f"{where}[{i}].attention.n_heads_in_group")
        if d.heads % group:
            raise ConfigError(
                f"block_configs[{i}].attention.n_heads_in_group={group} does not divide "
                f"num_attention_heads={d.heads} ({where})"
            )
        specs.append(FullAttentionSpec(d.heads // group, d.head_dim))
        plan.append("full")
    view.note(
        "num_key_value_heads",
        f"per layer: num_attention_heads // block_configs[i].attention.n_heads_in_group ({where}); "
        "no_op layers hold nothing (vLLM 0.33.0 nemotron_nas.py, DeciLMDecoderLayer)",
    )
    view.note("layer_types", f"{where}: attention.no_op layers store nothing")
    first = next((s for s in specs if s is not None), None)
    kv = first.num_kv_heads if isinstance(first, FullAttentionSpec) else d.kv_heads
    return replace(d, plan=plan, kv_heads=kv), _groups(view, specs)


# ---- Mamba-2 state shared by Zamba2 and pure Mamba-2 -----------------------------------
def _mamba2_state(view, d_inner, groups, heads, head_dim, d_state, kernel, rule) -> RecurrentStateSpec:
    conv = (d_inner + 2 * groups * d_state) * (kernel - 1)
    return _state(
        view,
        conv,
        heads * head_dim * d_state,
        None,
        f"Mamba-2: conv ({d_inner} + 2 x {groups} x {d_state}) x ({kernel} - 1); ssm {heads} x {head_dim} x {d_state}",
        rule + "; mamba_utils.py mamba2_state_shape, vLLM 0.33.0",
    )


# Zyphra's own config format before Zamba2 entered transformers (Zamba2-7B's first
# config.json): new name -> old name
ZAMBA2_OLD_NAMES = {
    "mamba_d_state": "state_size",
    "mamba_d_conv": "conv_dimension",
    "mamba_expand": "expansion_factor",
}

# transformers 5.24.0 configuration_zamba2.py, Zamba2Config.__post_init__: the layout when
# the config gives none (54 layers, the 2.7B model's)
ZAMBA2_DEFAULT_BLOCKS = (
    ["mamba"]
    + (["mamba"] * 5 + ["hybrid"]) * 7
    + ["mamba"] * 4
    + ["hybrid"]
    + ["mamba"] * 3
    + ["hybrid"]
    + ["mamba"] * 2
)


def zamba2(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    layers = view.integer("num_hidden_layers")
    heads = view.integer("num_attention_heads")
    hidden = view.integer("hidden_size")
    blocks = view.get("layers_block_type", ("layers_block_type", "layer_types"), default=None)
    where = view.provenance.get("layers_block_type", view.where("layers_block_type"))
    if blocks is None:
        blocks, where = ZAMBA2_DEFAULT_BLOCKS, "default layers_block_type of Zamba2Config"
    # transformers 5.x writes the Mamba-2 layers as "linear_attention" (remap_legacy_layer_types)
    if (
        not isinstance(blocks, list)
        or len(blocks) != layers
        or set(blocks) - {"mamba", "linear_attention", "hybrid"}
    ):
        raise ConfigError(
            f"layers_block_type must list 'mamba' (or 'linear_attention') or 'hybrid' for each of {layers} "
            f"layers ({where})"
        )
    head_dim = 2 * hidden // heads
    view.note(
        "head_dim",
        f"attention_head_dim = 2 x hidden_size // num_attention_heads = 2 x {hidden} // {heads} "
        "(transformers Zamba2Config.__post_init__; the attention runs on the concatenated hidden state)",
    )
    for k in ("kv_channels", "num_key_value_heads", "num_query_groups", "attention_head_dim", "head_dim"):
        view.raw(k)  # vLLM 0.33.0 zamba2.py uses num_attention_heads KV heads of attention_head_dim
    old = sorted(o for n, o in ZAMBA2_OLD_NAMES.items() if n not in view.cfg and o in view.cfg)
    if old:
        view.warn(
            f"{view.source} is in Zyphra's pre-transformers Zamba2 format ({', '.join(old)}): read as "
            "mamba_d_state / mamba_d_conv / mamba_expand, with n_mamba_heads = mamba_expand x hidden_size // "
            "mamba_headdim; transformers' Zamba2Config and vLLM expect the new names"
        )
    expand = view.integer("mamba_expand", ("mamba_expand", "expansion_factor"), default=2)
    headdim = view.get("mamba_headdim", ("mamba_headdim",), default=None)
    if "n_mamba_heads" not in view.cfg and headdim is not None:
        n_heads = expand * hidden // view.check_int("mamba_headdim", headdim)
        view.note(
            "n_mamba_heads", f"mamba_expand x hidden_size // mamba_headdim = {n_heads} (no n_mamba_heads)"
        )
    else:
        n_heads = view.integer("n_mamba_heads", ("n_mamba_heads",), default=8)
        if headdim is not None and headdim != expand * hidden // n_heads:
            raise ConfigError(
                f"mamba_headdim {headdim!r} ({view.where('mamba_headdim')}) is not mamba_expand x hidden_size // "
                f"n_mamba_heads = {expand * hidden // n_heads}, which Zamba2Config.__post_init__ sets"
            )
    state = _mamba2_state(
        view,
        expand * hidden,
        view.integer("mamba_ngroups", ("mamba_ngroups",), default=1),
        n_heads,
        expand * hidden // n_heads,
        view.integer("mamba_d_state", ("mamba_d_state", "state_size"), default=64),
        view.integer("mamba_d_conv", ("mamba_d_conv", "conv_dimension"), default=4),
        "vllm/model_executor/models/zamba2.py, get_mamba_state_shape_from_config; mamba_headdim = "
        "mamba_expand x hidden_size // n_mamba_heads (Zamba2Config)",
    )
    view.raw("num_mem_blocks")  # shared weights only: each hybrid layer has its own cache
    view.raw("hybrid_layer_ids")
    att = FullAttentionSpec(heads, head_dim)
    specs: list[LayerSpec | None] = []
    for b in blocks:
        specs.append(state)
        if b == "hybrid":
            specs.append(att)
    plan = ["hybrid" if b == "hybrid" else "recurrent" for b in blocks]
    view.note("layer_types", f"{where}: hybrid = shared attention + Mamba-2, mamba = Mamba-2 only")
    d = _ssm_dims(view, layers, hidden, heads, head_dim, plan)
    return d, _groups(view, specs)


def _ssm_dims(view, layers, hidden, heads, head_dim, plan) -> Dims:
    vocab = view.integer("vocab_size", required=False) or 0
    inter = view.get("intermediate_size", default=None)
    ctx = view.get("max_position_embeddings", default=None)
    return Dims(
        num_layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=heads,
        head_dim=head_dim,
        vocab=vocab,
        intermediate=view.check_int("intermediate_size", inter) if inter else None,
        tied=bool(view.get("tie_word_embeddings", ("tie_word_embeddings",), default=True)),
        num_experts=None,
        mla=None,
        plan=plan,
        max_ctx=view.check_int("max_position_embeddings", ctx) if ctx else None,
    )


def _no_attention(view: ConfigView, kind: str) -> None:
    """Provenance for the attention fields a pure state-space model does not have."""
    for key in ("num_attention_heads", "num_key_value_heads", "head_dim"):
        view.provenance.setdefault(key, f"none: {kind}, every layer a recurrent state ({view.source})")
    view.note("layer_types", f"{view.source}: model_type {view.model_type}, every layer {kind}")


def mamba1(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    layers = view.integer("num_hidden_layers")
    hidden = view.integer("hidden_size")
    expand = view.integer("expand", ("expand",), default=2)
    inter = view.get("intermediate_size", ("intermediate_size",), default=None)
    d_inner = view.check_int("intermediate_size", inter) if inter else expand * hidden
    d_state = view.integer("state_size", ("state_size",), default=16)
    kernel = view.integer("conv_kernel", ("conv_kernel",), default=4)
    state = _state(
        view,
        d_inner * (kernel - 1),
        d_inner * d_state,
        None,
        f"Mamba-1: conv {d_inner} x ({kernel} - 1); ssm {d_inner} x {d_state}",
        "vllm/model_executor/models/mamba.py, get_mamba_state_shape_from_config; mamba_utils.py "
        "mamba1_state_shape, vLLM 0.33.0",
    )
    view.raw("time_step_rank")
    _no_attention(view, "Mamba-1")
    d = _ssm_dims(view, layers, hidden, 1, 1, ["recurrent"] * layers)
    return replace(d, intermediate=d_inner), (LayerGroup(state, layers),)


def mamba2(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    layers = view.integer("num_hidden_layers")
    hidden = view.integer("hidden_size")
    expand = view.integer("expand", ("expand",), default=2)
    heads = view.integer("num_heads", ("num_heads",))
    state = _mamba2_state(
        view,
        expand * hidden,
        view.integer("n_groups", ("n_groups",), default=1),
        heads,
        view.integer("head_dim", ("head_dim",)),
        view.integer("state_size", ("state_size",), default=128),
        view.integer("conv_kernel", ("conv_kernel",), default=4),
        "vllm/model_executor/models/mamba2.py, get_mamba_state_shape_from_config (intermediate = expand x hidden_size)",
    )
    view.provenance["head_dim_ssm"] = view.provenance.pop("head_dim")
    _no_attention(view, "Mamba-2")
    d = _ssm_dims(view, layers, hidden, 1, 1, ["recurrent"] * layers)
    return replace(d, intermediate=expand * hidden), (LayerGroup(state, layers),)


# ---- LFM2 --------------------------------------------------------------------------------
def lfm2(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    d = read_dims(view)  # layer_types "conv" / "full_attention" via layer_plan
    if view.raw("layer_types") is None:
        idxs = view.get("full_attn_idxs", ("full_attn_idxs",), default=None)
        if not isinstance(idxs, list):
            raise ConfigError(f"{view.source}: LFM2 needs layer_types or full_attn_idxs")
        plan = ["full" if i in idxs else "recurrent" for i in range(d.num_layers)]
        view.note("layer_types", f"{view.where('full_attn_idxs')}: the other layers are short convolutions")
    else:
        plan = d.plan
        view.raw("full_attn_idxs")  # layer_types wins (transformers Lfm2Config.__post_init__)
    dim = view.get("conv_dim", ("conv_dim",), default=None)
    dim = view.check_int("conv_dim", dim) if dim is not None else d.hidden
    if "conv_dim" not in view.provenance:
        view.note(
            "conv_dim", f"hidden_size {d.hidden} (no conv_dim: the convolution runs over the hidden state)"
        )
    kernel = view.integer("conv_L_cache", ("conv_L_cache",), default=3)
    state = _state(
        view,
        dim * (kernel - 1),
        0,
        None,
        f"short conv: {dim} x ({kernel} - 1), no SSM state",
        "vllm/model_executor/models/lfm2.py, get_mamba_state_shape_from_config; mamba_utils.py "
        "short_conv_state_shape, vLLM 0.33.0",
    )
    full = FullAttentionSpec(d.kv_heads, d.head_dim)
    return replace(d, plan=plan), _groups(view, [full if t == "full" else state for t in plan])


# ---- RecurrentGemma ----------------------------------------------------------------------
def recurrent_gemma(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    layers = view.integer("num_hidden_layers")
    heads = view.integer("num_attention_heads")
    hidden = view.integer("hidden_size")
    types = view.get(
        "block_types", ("block_types", "_block_types"), default=["recurrent", "recurrent", "attention"]
    )
    if not isinstance(types, list) or not types or set(types) - {"recurrent", "attention"}:
        raise ConfigError(f"block_types must list 'recurrent' / 'attention', got {types!r}")
    kinds = [types[i % len(types)] for i in range(layers)]
    kv = view.get("num_key_value_heads", default=None)
    kv = view.check_int("num_key_value_heads", kv) if kv is not None else heads
    head_dim = hidden // heads
    written = view.raw("head_dim")  # RecurrentGemmaConfig.__post_init__ overwrites it anyway
    if written is not None and written != head_dim:
        raise ConfigError(
            f"head_dim {written!r} ({view.where('head_dim')}) is not hidden_size // num_attention_heads = "
            f"{head_dim}, which RecurrentGemmaConfig uses whatever the file says"
        )
    view.note("head_dim", f"hidden_size // num_attention_heads = {hidden} // {heads} (RecurrentGemmaConfig)")
    window = view.integer("attention_window_size", ("attention_window_size",), default=2048)
    lru = view.get("lru_width", ("lru_width",), default=None)
    lru = view.check_int("lru_width", lru) if lru is not None else hidden
    width = view.integer("conv1d_width", ("conv1d_width",), default=4)
    state = _state(
        view,
        lru * (width - 1),
        lru,
        "fp32",
        f"RG-LRU block: conv {lru} x ({width} - 1); recurrent state {lru} in float32",
        "transformers 5.24.0 modeling_recurrent_gemma.py, RecurrentGemmaRecurrentBlock._setup_cache",
    )
    local = SlidingWindowSpec(kv, head_dim, window=window)
    view.note(
        "layer_types",
        f"block_types {types} repeated over {layers} layers; attention layers are local over "
        f"attention_window_size {window} tokens (transformers RecurrentGemmaConfig)",
    )
    view.warn(
        "RecurrentGemma's layout is read from transformers' modeling_recurrent_gemma.py, not from a "
        "serving engine's source"
    )
    plan = ["sliding" if k == "attention" else "recurrent" for k in kinds]
    d = _ssm_dims(view, layers, hidden, heads, head_dim, plan)
    d = replace(d, kv_heads=kv)
    return d, _groups(view, [local if t == "sliding" else state for t in plan])


# ---- LongCat-Flash -----------------------------------------------------------------------
LONGCAT_RULE = "vLLM 0.33.0 vllm/model_executor/models/longcat_flash.py, FlashDecoderLayer.__init__"


def longcat_flash(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    layers = view.integer("num_layers", ("num_layers",))
    method = view.raw("attention_method")
    if method is not None and str(method).upper() != "MLA":
        raise ConfigError(
            f"attention_method is {method!r} ({view.where('attention_method')}); vLLM 0.33.0 longcat_flash.py "
            "builds MLA attention only, so kvwidgets reads LongCat-Flash configs with attention_method MLA"
        )
    restated = view.raw("num_hidden_layers")
    if restated is not None and restated not in (layers, 2 * layers):
        raise ConfigError(
            f"num_hidden_layers {restated!r} ({view.where('num_hidden_layers')}) is neither num_layers = {layers} "
            f"nor 2 x num_layers = {2 * layers} ({view.where('num_layers')}): transformers' LongcatFlashConfig "
            "counts the two attention sublayers of each decoder layer, SGLang's the decoder layers, and vLLM "
            "builds num_layers decoder layers"
        )
    d = read_dims(view)
    if d.mla is None:
        raise ConfigError(f"{view.source}: LongCat-Flash needs kv_lora_rank and qk_rope_head_dim for its MLA")
    if d.mla.get("index_bytes"):
        raise ConfigError(
            f"{view.where('index_topk')}: a LongCat model with a sparse indexer is not what vLLM 0.33.0 "
            "longcat_flash.py builds (two plain MLA attentions per layer)"
        )
    mla = MLASpec(d.mla["kv_lora_rank"], d.mla["qk_rope_head_dim"])
    view.note(
        "num_hidden_layers",
        f"{view.where('num_layers')} = {layers} decoder layers (vLLM LongCatFlashModelArchConfigConvertor)",
    )
    view.note(
        "layer_types",
        f"two MLA attentions in each of the {layers} layers, each its own latent ({LONGCAT_RULE})",
    )
    d = replace(d, num_layers=layers, plan=["full"] * layers, layer_caches=((mla, mla),) * layers)
    return d, (LayerGroup(mla, 2 * layers),)


# ---- IQuest-LoopCoder --------------------------------------------------------------------
LOOP_RULE = "vLLM 0.33.0 vllm/model_executor/models/iquest_loopcoder.py, LoopCoderAttention.__init__"


def iquest_loopcoder(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    d = read_dims(view)
    if set(d.plan) != {"full"}:
        raise ConfigError(
            f"{view.source}: IQuest-LoopCoder layers read as {sorted(set(d.plan))}; kvwidgets reads its loop "
            f"caches over full-attention layers only (a sliding_window of the engine's would change loop 0; {LOOP_RULE})"
        )
    loops = view.integer("loop_num", ("loop_num",), default=2)
    window = view.integer("loop_window_size", ("loop_window_size",), default=64)
    for key, value in (("loop_num", 2), ("loop_window_size", 64)):
        view.provenance.setdefault(
            key, f"default {value} of vLLM's iquest_loopcoder.py (getattr(config, {key!r}, {value}))"
        )
    head_dim = d.hidden // d.heads
    if d.head_dim != head_dim:
        raise ConfigError(
            f"head_dim {d.head_dim} ({view.provenance.get('head_dim')}) is not hidden_size // num_attention_heads = "
            f"{head_dim}, the head size vLLM gives every loop's cache ({LOOP_RULE}); the two must agree"
        )
    full = FullAttentionSpec(d.kv_heads, head_dim)
    local: LayerSpec = SlidingWindowSpec(d.kv_heads, head_dim, window=window)
    if never_fills(view, d, "loop_window_size", window):
        local = full
    view.note(
        "layer_types",
        f"{view.provenance['loop_num']} = {loops} loops per layer: loop 0 a full cache, each of the "
        f"{loops - 1} later loops a cache over the last {window} tokens ({view.provenance['loop_window_size']}; "
        f"{LOOP_RULE})",
    )
    groups = [LayerGroup(full, d.num_layers)]
    if loops > 1:
        if local == full:
            groups = [LayerGroup(full, d.num_layers * loops)]
        else:
            groups.append(LayerGroup(local, d.num_layers * (loops - 1)))
    caches = ((full,) + (local,) * (loops - 1),) * d.num_layers
    return replace(d, head_dim=head_dim, layer_caches=caches), tuple(groups)


# ---- MiniCPM3 ----------------------------------------------------------------------------
def minicpm3(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    d = read_dims(view)
    if d.mla is None:
        raise ConfigError(
            f"{view.source}: MiniCPM3 needs kv_lora_rank, qk_nope_head_dim and qk_rope_head_dim"
        )
    qk = d.mla["qk_nope_head_dim"] + d.mla["qk_rope_head_dim"]
    view.note(
        "head_dim",
        f"qk_nope_head_dim + qk_rope_head_dim = {qk}: vLLM stores full keys of that size and values "
        "padded to it for every query head (vLLM 0.33.0 minicpm3.py, MiniCPM3Attention)",
    )
    spec = FullAttentionSpec(d.heads, qk)
    return replace(d, plan=["full"] * d.num_layers), (LayerGroup(spec, d.num_layers),)


# ---- MiniMax lightning attention ---------------------------------------------------------
def minimax(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    layers = view.integer("num_hidden_layers")
    heads = view.integer("num_attention_heads")
    hidden = view.integer("hidden_size")
    types = view.get("attn_type_list", ("attn_type_list", "decoder_attention_types"), default=None)
    where = view.provenance.get("attn_type_list", view.where("attn_type_list"))
    if types is None:
        names = view.get("layer_types", ("layer_types",), default=None)
        where = view.where("layer_types")
        if isinstance(names, list):
            codes = {"linear_attention": 0, "full_attention": 1}
            bad = sorted({n for n in names if n not in codes})
            if bad:
                raise ConfigError(
                    f"layer_types has {bad}; MiniMax expects linear_attention or full_attention ({where})"
                )
            types = [codes[n] for n in names]
    if not isinstance(types, list) or len(types) != layers or set(types) - {0, 1}:
        raise ConfigError(
            f"attn_type_list must give 0 (linear) or 1 (full) for each of {layers} layers ({where})"
        )
    raw_head = view.get("head_dim", ("head_dim",), default=None)
    head_dim = view.check_int("head_dim", raw_head) if raw_head is not None else hidden // heads
    kv = view.integer("num_key_value_heads", default=heads)
    state = _state(
        view,
        0,
        heads * head_dim * head_dim,
        None,
        f"lightning attention: {heads} x {head_dim} x {head_dim}, no conv window",
        "vLLM 0.22.0 vllm/model_executor/models/minimax_text_01.py, get_mamba_state_shape_from_config / "
        "get_mamba_state_dtype_from_config; vLLM 0.33.0 vllm/model_executor/layers/mamba/linear/base.py, "
        "LinearAttention.get_state_dtype: mamba_utils.py linear_attention_state_dtype, the model dtype, "
        "not the float32 of MiniMax's own modelling code",
    )
    full = FullAttentionSpec(kv, head_dim)
    plan = ["full" if t == 1 else "recurrent" for t in types]
    view.note("layer_types", f"{where}: 0 = lightning (linear) attention, 1 = softmax attention")
    d = _ssm_dims(view, layers, hidden, heads, head_dim, plan)
    experts = view.get("num_experts", default=None)
    d = replace(d, kv_heads=kv, num_experts=view.check_int("num_experts", experts) if experts else None)
    return d, _groups(view, [full if t == "full" else state for t in plan])


def minimax_m2(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    """MiniMax-M2: vLLM 0.33.0 minimax_m2.py builds softmax GQA on every layer and never
    reads attn_type_list (the released configs list 1, softmax, for every layer)."""
    from .hf_config import group_layers  # the plain attention reader

    types = view.get("attn_type_list", ("attn_type_list",), default=None)
    if isinstance(types, list) and any(t != 1 for t in types):
        view.warn(
            f"{view.where('attn_type_list')} marks some layers as linear attention, but vLLM 0.33.0 "
            "minimax_m2.py ignores it and gives every layer softmax attention: sized that way"
        )
    d = read_dims(view)
    return d, group_layers(view, d)


# ---- DeepSeek-V4 compressed attention ----------------------------------------------------
# fp8_ds_mla, the layout vLLM 0.33.0 uses on CUDA unless --attention-backend
# FLASHINFER_MLA_SPARSE_DSV4 is asked for on a GPU other than SM12 (nvidia/model.py,
# _select_dsv4_attn_cls: FlashMLA by default, FlashInfer SM120 on SM12, both
# use_fp8_ds_mla_layout), whatever --kv-cache-dtype says (attention.py,
# _resolve_dsv4_kv_cache_dtype: "auto" becomes fp8, bf16 is refused): 448 B NoPE in fp8 +
# 128 B RoPE in bf16 + 8 B scales = 584 B a latent (attention.py, DeepseekV4MLAAttention.
# get_kv_cache_spec: state_content_bytes=584; sparse_swa.py, DeepseekV4SWACache:
# packed_bytes_per_token=584). The plain rows of that one FlashInfer backend (head_dim
# numbers at the KV dtype) are not modelled. The packing is written for a 512-wide head
# with 64 RoPE dims.
DSV4_ENTRY_BYTES = 584
DSV4_PACKED_HEAD = {"head_dim": 512, "qk_rope_head_dim": 64}
# compressor.py, CompressorStateCache.__init__: assert compress_ratio in [4, 128]; 0 is a
# layer without compression (attention.py: compress_ratio = max(1, ratio))
DSV4_RATIOS = (0, 1, 4, 128)
FLOAT32_BYTES = 4
# attention.py, DeepseekV4Indexer.__init__: quant_block_size = 128, FP8 keys plus one float32
# scale per block (the default indexer_kv_dtype "fp8"; v1/attention/backends/mla/indexer.py,
# dsa_indexer_uses_fp4)
INDEXER_QUANT_BLOCK = 128


def compressor_state_bytes(head_dim: int, ratio: int) -> tuple[int, int]:
    """(tokens, float32 bytes a token) the compressor state of one layer keeps.

    compressor.py, DeepseekCompressor.__init__: coff = 1 + (ratio == 4) (ratio 4 overlaps two
    groups), state_dim = 2 x coff x head_dim (kv state + score state) in float32;
    CompressorStateCache: a sliding window of coff x ratio tokens."""
    coff = 1 + (ratio == 4)
    return coff * ratio, FLOAT32_BYTES * 2 * coff * head_dim


def deepseek_v4_spec(window: int, ratio: int, head_dim: int, index_dim: int) -> CompressedMLASpec:
    """One DeepSeek-V4 layer as vLLM 0.33.0 allocates it (see CompressedMLASpec)."""
    if ratio == 1:
        return CompressedMLASpec(window, 1, DSV4_ENTRY_BYTES)
    tokens, per_token = compressor_state_bytes(head_dim, ratio)
    index = 0
    if ratio == 4:
        # only ratio-4 layers score their entries (attention.py: "Only C4A uses sparse
        # attention and hence has indexer"); the indexer compresses its keys with a
        # compressor of its own, index_head_dim wide, over the same window of tokens
        index = index_dim + index_dim // INDEXER_QUANT_BLOCK * 4
        per_token += compressor_state_bytes(index_dim, ratio)[1]
    return CompressedMLASpec(window, ratio, DSV4_ENTRY_BYTES, index, tokens, per_token)


def deepseek_v4(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    layers = view.integer("num_hidden_layers")
    heads = view.integer("num_attention_heads")
    hidden = view.integer("hidden_size")
    dims = {k: view.integer(k, (k,)) for k in DSV4_PACKED_HEAD}
    if dims != DSV4_PACKED_HEAD:
        raise ConfigError(
            f"{view.source}: head_dim {dims['head_dim']} and qk_rope_head_dim {dims['qk_rope_head_dim']}: "
            "vLLM 0.33.0 packs DeepSeek-V4 latents (584 B, fp8_ds_mla) only for head_dim 512 with 64 RoPE dims"
        )
    kv = view.integer("num_key_value_heads", default=1)
    if kv != 1:
        raise ConfigError(
            f"num_key_value_heads={kv} ({view.where('num_key_value_heads')}): DeepSeek-V4 keeps one latent "
            "per token (vLLM 0.33.0 attention.py builds its caches with num_kv_heads=1)"
        )
    window = view.integer("sliding_window", ("sliding_window",))
    raw = view.get("compress_ratios", ("compress_ratios",), default=None)
    where = view.where("compress_ratios")
    if (
        not isinstance(raw, list)
        or len(raw) < layers
        or not all(isinstance(r, int) and r in DSV4_RATIOS for r in raw[:layers])
    ):
        raise ConfigError(
            f"compress_ratios must give 0, 4 or 128 for each of the {layers} layers, got {raw!r} ({where}); "
            "vLLM 0.33.0 compressor.py accepts only those ratios"
        )
    if len(raw) > layers:
        view.note(
            "compress_ratios",
            f"{where}: the first {layers} entries, one per layer; the {len(raw) - layers} after them belong to "
            "the MTP draft layers, which keep a cache only when speculative decoding runs them",
        )
    index_dim = view.integer("index_head_dim", ("index_head_dim",))
    for key in ("index_n_heads", "index_topk", "o_groups", "o_lora_rank", "q_lora_rank"):
        view.raw(key)  # queries, top-k selection and the output projection: no cache
    specs = [deepseek_v4_spec(window, max(1, r), dims["head_dim"], index_dim) for r in raw[:layers]]
    view.warn(
        "DeepSeek-V4's caches are sized as vLLM 0.33 packs them on its default CUDA backends (584 B a "
        "latent in fp8_ds_mla, 132 B an indexer key, a float32 compressor state), so the KV dtype chosen "
        "here does not change them"
    )
    view.note(
        "layer_types",
        f"{where}: 0 = sliding latent only, 4 = + 1 entry per 4 tokens, indexer and compressor state, "
        "128 = + 1 entry per 128 tokens and compressor state (vLLM 0.33.0 vllm/models/deepseek_v4/attention.py)",
    )
    max_ctx = view.get("max_position_embeddings", default=None)
    experts = view.get("num_experts", default=None)
    d = Dims(
        layers,
        hidden,
        heads,
        1,
        dims["head_dim"],
        view.integer("vocab_size", required=False) or 0,
        None,
        bool(view.get("tie_word_embeddings", ("tie_word_embeddings",), default=False)),
        view.check_int("num_experts", experts) if experts else None,
        None,
        ["compressed"] * layers,
        view.check_int("max_position_embeddings", max_ctx) if max_ctx else None,
    )
    return d, _groups(view, list(specs))


# ---- Whisper (encoder-decoder) -------------------------------------------------------------
def whisper(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    layers = view.integer("decoder_layers", ("decoder_layers",))
    heads = view.integer("decoder_attention_heads", ("decoder_attention_heads",))
    hidden = view.integer("hidden_size")
    if hidden % heads:
        raise ConfigError(
            f"d_model={hidden} is not divisible by decoder_attention_heads={heads} ({view.source}); "
            "vLLM's WhisperAttention requires it"
        )
    encoder = view.integer("encoder_layers", ("encoder_layers",))
    stated = view.raw("num_hidden_layers")
    if stated is not None and stated != encoder:
        raise ConfigError(
            f"num_hidden_layers={stated!r} and encoder_layers={encoder} ({view.source}): transformers' "
            "WhisperConfig sets num_hidden_layers to encoder_layers, so they must agree"
        )
    view.raw("encoder_attention_heads")  # the encoder runs once per request and keeps no cache
    audio = view.integer("max_source_positions", ("max_source_positions",))
    target = view.integer("max_target_positions", ("max_target_positions",))
    head_dim = hidden // heads
    view.note(
        "head_dim",
        f"d_model / decoder_attention_heads = {hidden} / {heads} (vLLM 0.33.0 whisper.py, WhisperAttention)",
    )
    view.note(
        "cross_attention_tokens",
        f"max_source_positions = {audio:,} encoder (audio) tokens per request in every decoder layer's "
        "cross-attention cache, whatever the text length (vLLM 0.33.0 whisper.py, WhisperProcessingInfo."
        "get_num_audio_tokens; CrossAttentionSpec)",
    )
    view.note(
        "num_hidden_layers",
        f"decoder_layers = {layers} hold the cache; the {encoder} encoder layers (num_hidden_layers) keep none",
    )
    view.note(
        "max_position_embeddings", f"max_target_positions {target} ({view.where('max_target_positions')})"
    )
    self_attn = FullAttentionSpec(heads, head_dim)
    cross = CrossAttentionSpec(heads, head_dim, encoder_tokens=audio)
    d = Dims(
        layers,
        hidden,
        heads,
        heads,
        head_dim,
        view.integer("vocab_size", required=False) or 0,
        view.integer("decoder_ffn_dim", ("decoder_ffn_dim",), required=False),
        True,  # WhisperForConditionalGeneration ties proj_out to the decoder's embed_tokens
        None,
        None,
        ["full"] * layers,
        target,
    )
    return d, (LayerGroup(self_attn, layers), LayerGroup(cross, layers))


# ---- OpenELM: a head count per layer ------------------------------------------------------
def _per_layer_ints(view: ConfigView, key: str, layers: int) -> list[int]:
    values = view.get(key, (key,), default=None)
    if not isinstance(values, list) or len(values) != layers:
        raise ConfigError(
            f"{view.where(key)} must list one whole number per layer ({layers} layers, "
            f"num_transformer_layers), got {values!r}"
        )
    return [view.check_int(key, v) for v in values]


def openelm(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    """Apple OpenELM: layer i has num_query_heads[i] query heads and num_kv_heads[i] KV heads
    of head_dim each (OpenELM's own modeling_openelm.py, OpenELMMultiHeadCausalAttention:
    self.num_q_heads = config.num_query_heads[layer_idx], self.num_k_heads =
    config.num_kv_heads[layer_idx]); the layer count is num_transformer_layers. Each layer
    caches K and V for its own KV heads, so layers of one head count form one group."""
    layers = view.integer("num_hidden_layers", ("num_transformer_layers",))
    kv = _per_layer_ints(view, "num_kv_heads", layers)
    query = _per_layer_ints(view, "num_query_heads", layers)
    head_dim = view.integer("head_dim", ("head_dim",))
    hidden = view.integer("hidden_size", ("model_dim",))
    view.note(
        "num_key_value_heads",
        f"{view.where('num_kv_heads')}: {kv[0]} to {kv[-1]} KV heads per layer, each layer sized by its own",
    )
    view.note("layer_types", f"{view.source}: every layer full attention, heads per layer")
    groups = _groups(view, [FullAttentionSpec(k, head_dim) for k in kv])
    ctx = view.get("max_position_embeddings", ("max_context_length",), default=None)
    dims = Dims(
        num_layers=layers,
        hidden=hidden,
        heads=round(sum(query) / layers),  # the parameter estimate's mean width
        kv_heads=round(sum(kv) / layers),
        head_dim=head_dim,
        vocab=view.integer("vocab_size", required=False) or 0,
        intermediate=None,
        tied=bool(view.get("tie_word_embeddings", ("share_input_output_layers",), default=True)),
        num_experts=None,
        mla=None,
        plan=["full"] * layers,
        max_ctx=view.check_int("max_position_embeddings", ctx) if ctx else None,
    )
    return dims, groups


FAMILY_LAYOUTS: dict[str, Callable[[ConfigView], tuple[Dims, tuple[LayerGroup, ...]]]] = {
    "kimi_linear": kimi_linear,
    "mimo_v2_flash": mimo_v2,
    "mimo_v2": mimo_v2,
    "nemotron-nas": nemotron_nas,
    "zamba2": zamba2,
    "mamba": mamba1,
    "falcon_mamba": mamba1,
    "mamba2": mamba2,
    "lfm2": lfm2,
    "recurrent_gemma": recurrent_gemma,
    "minicpm3": minicpm3,
    "longcat_flash": longcat_flash,
    # vLLM 0.33.0 longcat_flash_ngram.py: FlashNgramModel(FlashModel), the same decoder layers
    "longcat_flash_ngram": longcat_flash,
    "iquestloopcoder": iquest_loopcoder,
    "minimax": minimax,
    "minimax_text_01": minimax,
    "minimax_m1": minimax,
    "minimax_m2": minimax_m2,
    "deepseek_v4": deepseek_v4,
    "whisper": whisper,
    "openelm": openelm,
}
