"""A Hugging Face config dict -> a kvwidgets Model.

Read the way serving engines read it (vLLM's ModelConfig.get_num_kv_heads /
get_head_size, transformers' config classes): KV heads, never query heads; head_dim
when the config gives one; Falcon's multi_query; GPT-2's n_head / n_embd; the text
model inside multimodal wrappers; layer kinds per layer (see layer_plan.py); MLA
latents for DeepSeek-V2/V3 and Kimi-K2. Configs are data: no model code is imported
and nothing remote is trusted.

FP8 (or any quantized) weights are recorded as Model.weight_dtype and never change the
KV-cache dtype: the cache dtype is an engine setting (vLLM's --kv-cache-dtype), chosen
per call with kv_dtype=.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.dtypes import dtype_name
from ..core.errors import ConfigError, UnknownNameError
from ..core.layers import (
    ChunkedLocalSpec,
    CrossAttentionSpec,
    FullAttentionSpec,
    LayerGroup,
    LayerSpec,
    MLASpec,
    RecurrentStateSpec,
    SlidingWindowSpec,
)
from ..core.model import Model
from .cache_fields import check_all_read, structural, unread_cache_fields, unread_error
from .dsa_indexer import indexer_layers
from .engine_support import engine_notes
from .fields import MISSING, NAMES, ConfigView
from .layer_plan import kv_shared_layers, layer_count, layer_plan
from .params import estimate_params, routed_expert_params
from .recurrent import recurrent_state


@dataclass
class Dims:
    """The numbers read from a config that both the cache and the parameter count use."""

    num_layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    intermediate: int | None
    tied: bool
    num_experts: int | None
    mla: dict[str, int] | None
    plan: list[str]
    max_ctx: int | None = None
    head_dim_v: int | None = None  # V head size when it differs from K's (MiMo-V2)
    global_head_dim: int | None = None  # full layers' head size (Gemma 4)
    global_kv_heads: int | None = None  # full layers' KV heads (Gemma 4 with attention_k_eq_v)
    # per layer, whether it keeps the sparse indexer's cache (None: every MLA layer with
    # index_bytes does; dsa_indexer.py)
    indexer_layers: tuple[bool, ...] | None = None
    # each decoder layer's cache specs in order, where the plan's one tag a layer cannot say
    # which specs a layer holds (two caches per layer, DSA layers with and without an
    # indexer): pipeline placement reads it to put the layers on their stages
    layer_caches: tuple[tuple[LayerSpec, ...], ...] | None = None


def read_dims(view: ConfigView) -> Dims:
    """The sizes a config gives, each field read once and its provenance noted on view."""
    layers = layer_count(view)
    heads = view.integer("num_attention_heads")
    hidden = view.integer("hidden_size", required=False)
    mla = _read_mla(view, hidden, heads) if view.raw("kv_lora_rank") is not None else None
    kv_heads = read_kv_heads(view, heads)
    if mla is None and heads % kv_heads:
        raise ConfigError(
            f"num_attention_heads={heads} is not divisible by num_key_value_heads={kv_heads} "
            f"({view.provenance.get('num_key_value_heads')}); every KV head must serve a whole group of query heads"
        )
    head_dim, head_field = _read_head_dim(view, mla, hidden, heads)
    view.settle("head_dim", head_dim, head_field)
    view.settle("num_key_value_heads", kv_heads, "num_key_value_heads")
    max_ctx = view.get("max_position_embeddings", default=None)
    max_ctx = view.check_int("max_position_embeddings", max_ctx) if max_ctx else None
    head_dim_v = None
    if mla is None and _deepseek_without_latent(view):
        pass  # plain attention at hidden_size / heads: the zero widths are not used
    elif mla is None and view.raw("v_head_dim") is not None:
        # a non-MLA attention whose values are narrower than its keys (vLLM 0.33.0,
        # vllm/model_executor/models/mimo_v2.py: Attention(..., head_size_v=v_head_dim))
        head_dim_v = view.integer("v_head_dim", ("v_head_dim",))
    global_head_dim, global_kv = _read_global_attention(view)
    plan = layer_plan(view, layers)
    indexers = indexer_layers(view, layers) if mla is not None and "index_bytes" in mla else None
    vocab = view.integer("vocab_size", required=False) or 0
    inter = _read_intermediate(view)
    tied = bool(view.get("tie_word_embeddings", ("tie_word_embeddings",), default=True))
    experts = per_layer_moe(view, "num_experts", view.get("num_experts", default=None))
    experts = view.check_int("num_experts", experts) if experts else None
    return Dims(
        layers,
        hidden or heads * head_dim,
        heads,
        kv_heads,
        head_dim,
        vocab,
        inter,
        tied,
        experts,
        mla,
        plan,
        max_ctx,
        head_dim_v,
        global_head_dim,
        global_kv,
        indexers if indexers is not None and not all(indexers) else None,
    )


def _deepseek_without_latent(view: ConfigView) -> bool:
    """A DeepSeek-V2-style config whose MLA widths are all 0 (DeepSeek-OCR-2's language
    model): vLLM 0.33.0 then builds plain multi-head attention, head size hidden_size /
    heads (models/deepseek_v2.py, DeepseekV2DecoderLayer.__init__: use_mha when
    qk_nope_head_dim and qk_rope_head_dim are both 0; DeepseekAttention)."""
    widths = [view.raw(k) for k in ("qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim")]
    if widths != [0, 0, 0]:
        return False
    view.note(
        "head_dim", f"{view.where('qk_nope_head_dim')} and qk_rope_head_dim are 0: plain attention, no latent"
    )
    return True


def _read_mla(view: ConfigView, hidden: int | None, heads: int) -> dict[str, int]:
    """An MLA config's latent widths (and q_lora_rank, and the indexer's bytes when it has one)."""
    mla = {
        "kv_lora_rank": view.integer("kv_lora_rank", ("kv_lora_rank",)),
        "qk_rope_head_dim": view.integer("qk_rope_head_dim", ("qk_rope_head_dim",), minimum=0),
        "qk_nope_head_dim": view.integer("qk_nope_head_dim", ("qk_nope_head_dim",), minimum=0),
        "v_head_dim": view.integer("v_head_dim", ("v_head_dim",), default=mla_v_default(view, hidden, heads)),
    }
    # GLM-5's config.json restates the key width as qk_head_dim; vLLM computes it from the
    # two parts (vllm/models/deepseek_v32/attention.py, DeepseekV32Attention.__init__:
    # qk_head_dim = qk_nope_head_dim + qk_rope_head_dim) and never reads the field
    view.settle(
        "mla_key_width",
        mla["qk_nope_head_dim"] + mla["qk_rope_head_dim"],
        "qk_nope_head_dim + qk_rope_head_dim",
    )
    q_lora = view.raw("q_lora_rank")
    if q_lora is not None:
        mla["q_lora_rank"] = view.check_int("q_lora_rank", q_lora)
    if view.raw("index_topk") is not None:
        mla["index_bytes"] = _read_index_bytes(view)
    return mla


def _read_index_bytes(view: ConfigView) -> int:
    """Bytes a token's sparse-attention index key takes in each layer (DeepSeek-V3.2)."""
    # vLLM takes a config with index_topk for V3.2 (vllm/model_executor/models/config.py,
    # DeepseekV32ForCausalLM) and keeps index_head_dim FP8 keys plus a float32 scale per 128
    # of them for every token and layer (deepseek_v2.py, Indexer: head_dim + head_dim //
    # quant_block_size * 4, uint8)
    dim = view.integer("index_head_dim", ("index_head_dim",), default=128)
    # index_n_heads only shapes the indexer's queries: its cache is one key per token
    view.raw("index_n_heads")
    index_bytes = dim + dim // 128 * 4
    view.note(
        "index_bytes",
        f"{dim} + {dim} // 128 x 4 = {index_bytes} B per token and layer: FP8 "
        f"index keys and their float32 scale ({view.provenance['index_head_dim']}; "
        "vLLM vllm/model_executor/models/deepseek_v2.py, Indexer)",
    )
    return index_bytes


def _read_head_dim(view: ConfigView, mla: dict | None, hidden: int | None, heads: int) -> tuple[int, str]:
    """(head_dim, the field or formula it came from): head_dim, else MLA's key width, else
    hidden_size / num_attention_heads."""
    head_dim = view.get("head_dim")
    if head_dim is not None and head_dim is not MISSING:
        return view.check_int("head_dim", head_dim), "head_dim"
    if mla is not None:
        # an MLA layer caches the latent, never head_dim-sized heads; the key width stands in
        # for head_dim (Kimi-K3's 7168 / 96 does not divide, and need not)
        head_dim = mla["qk_nope_head_dim"] + mla["qk_rope_head_dim"]
        view.note(
            "head_dim", f"qk_nope_head_dim + qk_rope_head_dim = {head_dim} (MLA; no head_dim in the config)"
        )
        return head_dim, "qk_nope_head_dim + qk_rope_head_dim"
    if hidden is None:
        raise ConfigError(
            f"{view.source}: neither head_dim nor hidden_size is given "
            f"(tried {', '.join(NAMES['head_dim'] + NAMES['hidden_size'])}); one is needed"
        )
    if hidden % heads:
        raise ConfigError(
            f"hidden_size={hidden} is not divisible by num_attention_heads={heads} and no "
            f"head_dim is given ({view.source}); add head_dim"
        )
    view.note(
        "head_dim",
        f"hidden_size / num_attention_heads = {hidden} / {heads} "
        f"({view.provenance['hidden_size']}; no head_dim in the config)",
    )
    return hidden // heads, "hidden_size / num_attention_heads"


def _read_global_attention(view: ConfigView) -> tuple[int | None, int | None]:
    """Gemma 4's full-attention layers: their own head size and, with attention_k_eq_v,
    their own KV-head count; (None, None) for other models."""
    if "global_head_dim" not in view.cfg and view.model_type != "gemma4_text":
        return None, None
    # transformers configuration_gemma4.py, Gemma4TextConfig.__post_init__ writes
    # per_layer_config {"head_dim": global_head_dim} for every full_attention layer, plus
    # num_key_value_heads = num_global_key_value_heads only when attention_k_eq_v is true;
    # vLLM builds each layer from that per_layer_config (vllm/model_executor/models/gemma4.py,
    # Gemma4DecoderLayer). With K = V vLLM still stores both (the K weights are loaded into
    # the K and V shards), so no bytes are saved.
    global_head_dim = view.integer("global_head_dim", ("global_head_dim",))
    global_kv = None
    if view.flag("attention_k_eq_v", ("attention_k_eq_v",)):
        g = view.get("num_global_key_value_heads", ("num_global_key_value_heads",), default=None)
        if g is not None:
            global_kv = view.check_int("num_global_key_value_heads", g)
    elif view.raw("num_global_key_value_heads") is not None:
        view.note(
            "num_global_key_value_heads",
            f"{view.where('num_global_key_value_heads')} is not used: attention_k_eq_v is false, so "
            "Gemma4TextConfig keeps num_key_value_heads on the full layers",
        )
    return global_head_dim, global_kv


def _read_intermediate(view: ConfigView) -> int | None:
    """The MLP width, or None when the config gives none."""
    inter = view.get("intermediate_size", default=None)
    if isinstance(inter, list) and inter:
        # a width per layer (Gemma 3n): it sizes weights, never the cache; the parameter
        # estimate uses the mean width, which gives the same total MLP size
        widths = [view.check_int("intermediate_size", w) for w in inter]
        inter = round(sum(widths) / len(widths))
        view.note("intermediate_size", f"{view.where('intermediate_size')}: per layer, mean {inter:,}")
    return view.check_int("intermediate_size", inter) if inter is not None else None


def per_layer_moe(view: ConfigView, key: str, value: Any) -> Any:
    """MoE routing given per layer (Hunyuan-A13B's moe_topk list): it sets the weights a token
    reads, never the cache. One value for every layer is that value; differing values are
    not modelled, so the model is treated as dense for active-parameter figures (noted)."""
    if not isinstance(value, list):
        return value
    if value and all(v == value[0] for v in value):
        view.note(key, f"{view.provenance.get(key)}: the same {value[0]!r} for every layer")
        return value[0]
    view.note(key, f"{view.provenance.get(key)} differs per layer; routing not modelled (weights only)")
    return None


def mla_v_default(view: ConfigView, hidden: int | None, heads: int) -> Any:
    """MiniCPM3's config.json names no v_head_dim: transformers MiniCPM3Config.__post_init__
    sets it to hidden_size // num_attention_heads. Other MLA models must give it."""
    if view.model_type != "minicpm3" or hidden is None:
        return MISSING
    view.note("v_head_dim", f"hidden_size // num_attention_heads = {hidden} // {heads} (MiniCPM3Config)")
    return hidden // heads


def read_kv_heads(view: ConfigView, heads: int) -> int:
    """KV heads as vLLM counts them (ModelConfig.get_total_num_kv_heads)."""
    cfg = view.cfg
    falcon = view.model_type in ("falcon", "RefinedWeb", "RefinedWebModel")
    if falcon and cfg.get("new_decoder_architecture", False):
        # Falcon-40B/180B: grouped KV heads in num_kv_heads (n_head_kv in older configs);
        # multi_query is not consulted by this architecture
        view.raw("multi_query")
        return view.integer("num_key_value_heads", ("num_kv_heads", "n_head_kv"))
    if falcon or "multi_query" in cfg:
        if view.get("multi_query", ("multi_query",), default=False):
            view.note(
                "num_key_value_heads",
                f"{view.where('multi_query')} = true: multi-query attention, "
                "one KV head shared by every query head",
            )
            return 1
    kv = view.get("num_key_value_heads", default=None)
    if kv is None or kv is MISSING:
        view.note(
            "num_key_value_heads",
            f"{view.source}: no num_key_value_heads, so MHA: one KV head per "
            f"query head ({view.provenance['num_attention_heads']})",
        )
        return heads
    return view.check_int("num_key_value_heads", kv)


def full_spec(d: Dims) -> FullAttentionSpec:
    """A full-attention layer, with the global head size / KV heads where the model has them."""
    heads = d.global_kv_heads or d.kv_heads
    head = d.global_head_dim or d.head_dim
    v = d.head_dim_v if d.head_dim_v is not None and d.global_head_dim is None else None
    return FullAttentionSpec(heads, head, v)


def never_fills(view: ConfigView, d: Dims, key: str, cap: int) -> bool:
    """A window (or chunk) at least max_position_embeddings long never caps anything the model
    can hold, so the layer is full attention: Phi-4-mini's sliding_window 262,144 against
    131,072 positions. vLLM sizes a sliding layer for min(window - 1 + in-flight tokens,
    max_model_len) tokens (vllm/v1/kv_cache_interface.py, SlidingWindowSpec.
    max_admission_blocks_per_request), i.e. the whole context once the window reaches it."""
    if d.max_ctx is None or cap < d.max_ctx:
        return False
    view.note(
        key + "_as_full",
        f"{key} {cap:,} >= max_position_embeddings {d.max_ctx:,} "
        f"({view.provenance.get('max_position_embeddings')}): the window never fills, "
        "so these layers count as full attention",
    )
    return True


def attention_spec(kind: str, view: ConfigView, d: Dims, layer: int | None = None) -> LayerSpec:
    """The spec of one layer of this kind; `layer` (its index) matters only where layers of one
    kind differ, as in the DSA layers that keep no indexer cache."""
    if d.mla is not None and kind in ("full", "sliding", "chunked"):
        index = d.mla.get("index_bytes", 0)
        if d.indexer_layers is not None and layer is not None and not d.indexer_layers[layer]:
            index = 0
        return MLASpec(d.mla["kv_lora_rank"], d.mla["qk_rope_head_dim"], index)
    if kind == "full":
        return full_spec(d)
    if kind == "sliding":
        window = view.get("sliding_window", ("sliding_window",), default=None)
        if window is None:
            raise ConfigError(
                f"{view.source}: layers are marked sliding but sliding_window is missing or null; "
                "expected the window length in tokens"
            )
        window = view.check_int("sliding_window", window)
        if never_fills(view, d, "sliding_window", window):
            return FullAttentionSpec(d.kv_heads, d.head_dim, d.head_dim_v)
        return SlidingWindowSpec(d.kv_heads, d.head_dim, d.head_dim_v, window=window)
    if kind == "chunked":
        chunk = view.integer("attention_chunk_size", ("attention_chunk_size",))
        if never_fills(view, d, "attention_chunk_size", chunk):
            return FullAttentionSpec(d.kv_heads, d.head_dim, d.head_dim_v)
        return ChunkedLocalSpec(d.kv_heads, d.head_dim, d.head_dim_v, chunk=chunk)
    if kind == "cross":
        return CrossAttentionSpec(d.kv_heads, d.head_dim, d.head_dim_v, encoder_tokens=image_tokens(view))
    raise ConfigError(f"no attention spec for layer kind {kind!r}")  # pragma: no cover


# transformers configuration_mllama.py, MllamaVisionConfig defaults
MLLAMA_VISION_DEFAULTS = {"image_size": 448, "max_num_tiles": 4}


def image_tokens(view: ConfigView) -> int:
    """Encoder tokens a cross-attention layer holds for one sequence: one image at the most
    tiles. vLLM 0.10.2, vllm/model_executor/models/mllama.py: MllamaMultiModalProcessor.apply
    sets the encoder length to tiles x calc_token_per_chunk(image_size), where
    calc_token_per_chunk = (image_size // 14) ** 2 + 1, and the largest image
    (get_image_size_with_most_features) takes max_num_tiles tiles."""
    vision = view.top.get("vision_config") if isinstance(view.top.get("vision_config"), Mapping) else {}
    found = {}
    for key, default in MLLAMA_VISION_DEFAULTS.items():
        if key in vision:
            value, where = vision[key], f"{view.source}: vision_config.{key}"
        else:
            value, where = default, f"default of MllamaVisionConfig ({key})"
        if isinstance(value, (list, tuple)) and value and value[0] == value[-1]:
            value = value[0]  # image_size may be written [560, 560]
        found[key] = view.check_int(key, value)
        view.note(key, where)
    size, tiles = found["image_size"], found["max_num_tiles"]
    per_tile = (size // 14) ** 2 + 1
    tokens = tiles * per_tile
    view.note(
        "cross_attention_tokens",
        f"one image at the most tiles: max_num_tiles {tiles} x ((image_size {size} // 14)^2 + 1 = {per_tile:,}) "
        f"= {tokens:,} image tokens per sequence, the text not included ({view.provenance['image_size']}, "
        f"{view.provenance['max_num_tiles']}; vLLM 0.10.2 vllm/model_executor/models/mllama.py, "
        "MllamaMultiModalProcessor.apply)",
    )
    return tokens


# vLLM 0.33.0 vllm/transformers_utils/config.py, _ARCHITECTURE_TO_MODEL_TYPE: "Checkpoints whose
# config.json has no model_type, only remote code in auto_map"
ARCHITECTURE_TO_MODEL_TYPE = {
    "LongcatFlashForCausalLM": "longcat_flash",
    "LongcatFlashNgramForCausalLM": "longcat_flash",
}


def model_type_from_architecture(view: ConfigView) -> None:
    """A config without model_type takes the one vLLM gives its architecture (above)."""
    archs = view.top.get("architectures")
    if view.model_type is not None or not isinstance(archs, list) or not archs:
        return
    model_type = ARCHITECTURE_TO_MODEL_TYPE.get(archs[0])
    if model_type is not None:
        view.model_type = model_type
        view.note(
            "model_type",
            f"{view.source}: no model_type; architectures[0] {archs[0]} is {model_type!r} to vLLM 0.33.0 "
            "(vllm/transformers_utils/config.py, _ARCHITECTURE_TO_MODEL_TYPE)",
        )


# Encoder-only models read their whole input in one pass and keep no KV cache (vLLM 0.33.0
# serves them as pooling models, registry.py _EMBEDDING_MODELS): no number is right for them.
ENCODER_ONLY_MODEL_TYPES = frozenset(
    {
        "bert",
        "roberta",
        "xlm-roberta",
        "distilbert",
        "deberta",
        "deberta-v2",
        "electra",
        "albert",
        "modernbert",
    }
)
# encoder-decoder models whose decoder caches kvwidgets reads (families.py)
ENCODER_DECODER_READERS = frozenset({"whisper"})
# fields by which a config names its language model instead of giving its sizes
LANGUAGE_MODEL_ID_FIELDS = ("hf_llm_id", "llm_backbone_id", "text_model_id")
# fields where a wrapper nests its language model's whole config under a name other than
# text_config (the one name the reader looks in)
NESTED_LANGUAGE_FIELDS = ("language", "language_config", "llm_config")


def refuse_designs_without_a_reader(view: ConfigView) -> None:
    """Refuse, naming the field that says so, a config whose cache kvwidgets cannot size:
    an encoder-only model (no cache), an encoder-decoder other than those read, or a
    wrapper that names its language model by id without its sizes."""
    model_type = view.top.get("model_type")
    if model_type in ENCODER_ONLY_MODEL_TYPES:
        raise ConfigError(
            f"{view.source}: model_type is {model_type!r}, an encoder-only model: it reads its whole "
            "input at once and keeps no KV cache, so there is nothing to size (kvwidgets sizes decoders)"
        )
    for where, cfg in (("", view.top), ("text_config.", view.top.get("text_config") or {})):
        if isinstance(cfg, Mapping) and cfg.get("is_encoder_decoder") is True:
            if view.model_type in ENCODER_DECODER_READERS or model_type in ENCODER_DECODER_READERS:
                return
            raise ConfigError(
                f"{view.source}: {where}is_encoder_decoder is true (model_type {model_type!r}): its decoder "
                "keeps a self-attention cache and a cross-attention cache of the encoder's tokens, and "
                f"kvwidgets reads that layout only for {', '.join(sorted(ENCODER_DECODER_READERS))}"
            )
    named = [f for f in LANGUAGE_MODEL_ID_FIELDS if isinstance(view.top.get(f), str)]
    has_layers = any(n in view.cfg for n in NAMES["num_hidden_layers"])
    nested = [f for f in NESTED_LANGUAGE_FIELDS if isinstance(view.top.get(f), Mapping)]
    if nested and not has_layers:
        raise ConfigError(
            f"{view.source}: {nested[0]} holds the language model's config, nested where kvwidgets "
            "does not read it (only text_config is read): load the language model's own config.json"
        )
    if named and not has_layers:
        field = named[0]
        raise ConfigError(
            f"{view.source}: {field} is {view.top[field]!r}: the config names its language model "
            "instead of giving its sizes; load that model's config.json instead"
        )


def read_layout(view: ConfigView) -> tuple[Dims, tuple[LayerGroup, ...]]:
    """The dims and layer groups: an architecture's own reader when it has one
    (families.py), else the attention reader above."""
    from .families import FAMILY_LAYOUTS  # families build on the readers in this module

    reader = FAMILY_LAYOUTS.get(view.model_type or "")
    if reader is not None:
        return reader(view)
    d = read_dims(view)
    return d, group_layers(view, d)


def group_layers(view: ConfigView, d: Dims) -> tuple[LayerGroup, ...]:
    """Group the per-layer plan into LayerGroups of identical specs, first-seen order."""
    counts: dict[LayerSpec, int] = {}
    state: RecurrentStateSpec | None = None
    per_layer: list[tuple[LayerSpec, ...]] = []
    for i, kind in enumerate(d.plan):
        per_layer.append(())
        if kind == "none":
            continue
        specs: list[LayerSpec] = []
        if kind in ("recurrent", "hybrid"):
            if state is None:
                s = recurrent_state(view, d.hidden)
                state = RecurrentStateSpec(s.total, s.conv_bytes, s.ssm_bytes, s.ssm_dtype)
            specs.append(state)
        if kind != "recurrent":
            specs.append(attention_spec("full" if kind == "hybrid" else kind, view, d, i))
        for spec in specs:  # a hybrid layer counts in both groups
            counts[spec] = counts.get(spec, 0) + 1
        per_layer[-1] = tuple(specs)
    if d.indexer_layers is not None:
        d.layer_caches = tuple(per_layer)
    if not counts:
        raise ConfigError(f"{view.source}: no layer stores anything (layer plan {sorted(set(d.plan))})")
    return tuple(LayerGroup(s, c) for s, c in counts.items())


# quantization_config.quant_method -> the weight dtype kvwidgets sizes weights with
QUANT_WEIGHT_DTYPE = {
    "fp8": "fp8",
    "fbgemm_fp8": "fp8",
    "compressed-tensors": None,  # decided by its bits below
    "mxfp4": "mxfp4",  # 4.25-bit experts; attention, embeddings and router stay bf16 (core.dtypes)
    "awq": "int4",
    "gptq": None,
    "bitsandbytes": None,
}


def weight_dtype(view: ConfigView) -> str:
    """The dtype the checkpoint's weights are stored in. Never used for the KV cache."""
    quant = view.get("quantization_config", ("quantization_config",), default=None, top_level=True)
    if isinstance(quant, Mapping):
        method = str(quant.get("quant_method", "")).lower()
        dtype = QUANT_WEIGHT_DTYPE.get(method)
        bits = quant.get("bits") or quant.get("weight_bits")
        if quant.get("load_in_4bit"):
            bits = 4
        elif quant.get("load_in_8bit"):
            bits = 8
        if dtype is None and bits in (4, 8):
            dtype = "int4" if bits == 4 else "int8"
        if dtype:
            note = (
                " (MoE experts at 4.25 bits with their scales; attention, embeddings and router in bf16)"
                if method == "mxfp4"
                else ""
            )
            view.note(
                "weight_dtype",
                f"{view.provenance['quantization_config']}.quant_method = {method!r} -> "
                f"{dtype} weights{note}; the KV cache dtype is not changed by this",
            )
            return dtype
    raw = view.get("weight_dtype", ("torch_dtype", "dtype"), default=None, top_level=True)
    if raw:
        try:
            return dtype_name(raw, "torch_dtype")
        except UnknownNameError:
            pass
    view.note("weight_dtype", f"{view.source}: no torch_dtype; 16-bit (bf16) assumed")
    return "bf16"


def model_from_config(
    config: Mapping[str, Any],
    *,
    source: str = "config dict",
    name: str | None = None,
    params: int | None = None,
    params_source: str | None = None,
) -> Model:
    """Build a Model from a config.json dict. Without params, the count is estimated."""
    view = ConfigView(config, source)
    model_type_from_architecture(view)
    refuse_designs_without_a_reader(view)
    d, groups = _read_layout_or_unread(view)
    check_all_read(view)
    extra: dict[str, Any] = {
        "model_type": view.model_type,
        "hidden_size": d.hidden,
        "head_dim": d.head_dim,
        "num_key_value_heads": d.kv_heads,
        "layer_plan": tuple(d.plan),
        # where the embedding and LM head sit decides per-GPU weights under pipeline
        # parallelism (kvwidgets.core.placement); they never change the cache
        "vocab_size": d.vocab,
        "tie_word_embeddings": d.tied,
    }
    if d.mla is not None:
        extra.update(_mla_extra(view, d.mla))
    moe: dict[str, int] = {}
    if d.num_experts:
        extra["num_experts"] = d.num_experts  # changes the weights, never the cache
        moe = _moe_fields(view, d)
    if d.layer_caches is not None:
        extra["layer_caches"] = d.layer_caches  # which specs each decoder layer holds
    shared = kv_shared_layers(view, d.num_layers)
    if shared:
        extra["kv_shared_layers"] = shared  # those layers read an earlier layer's cache
    wdtype = weight_dtype(view)
    if params is None:
        params, params_source = _estimated_params(view, d, source)
    view.note("params", params_source or "given")
    label = name or config.get("_name_or_path") or view.model_type or "model"
    notes = (*engine_notes(view), *view.warnings)
    return Model(
        name=str(label),
        groups=groups,
        params=params,
        params_source=params_source or "given",
        num_query_heads=d.heads if {"full", "sliding", "chunked", "cross", "hybrid"} & set(d.plan) else None,
        weight_dtype=wdtype,
        max_context=d.max_ctx,
        provenance=dict(view.provenance),
        extra=extra,
        engine_notes=notes,
        **moe,
    )


def _read_layout_or_unread(view: ConfigView):
    """read_layout's (Dims, groups); when it fails, the fields it did not understand are
    named instead where there are any."""
    try:
        return read_layout(view)
    except ConfigError as e:
        # a field the reader does not understand is the real reason more often than the
        # symptom it caused (Kimi-K3's heads do not divide hidden_size because its KDA
        # layers are sized by linear_attn_config)
        unread = structural(unread_cache_fields(view))
        if unread:
            raise unread_error(view, unread, e) from e
        raise


def _mla_extra(view: ConfigView, mla: dict[str, int]) -> dict[str, int]:
    """An MLA model's key, value and no-position widths, noted with where they come from."""
    extra = {
        "mla_key_dim": mla["qk_nope_head_dim"] + mla["qk_rope_head_dim"],
        "mla_value_dim": mla["v_head_dim"],
        "mla_nope_dim": mla["qk_nope_head_dim"],  # the paper's d_h (Model.as_mha)
    }
    view.note(
        "mla_key_dim",
        f"qk_nope_head_dim + qk_rope_head_dim ({view.where('qk_nope_head_dim')}, "
        f"{view.where('qk_rope_head_dim')})",
    )
    view.note("mla_value_dim", view.where("v_head_dim"))
    return extra


def _moe_fields(view: ConfigView, d: Dims) -> dict[str, int]:
    """Model's MoE fields when the config says how many experts a token uses, else none."""
    k = per_layer_moe(view, "experts_per_token", view.get("experts_per_token", default=None))
    if not k:
        return {}
    # Which experts a token uses sets prefill FLOPs and small-batch decode reads.
    moe = dict(
        num_experts=d.num_experts,
        experts_per_token=view.check_int("experts_per_token", k),
        routed_expert_params=routed_expert_params(view, d),
    )
    view.note(
        "routed_expert_params",
        "ESTIMATE from the config: MoE layers x experts x one expert's gate/up/down matrices",
    )
    return moe


def _estimated_params(view: ConfigView, d: Dims, source: str) -> tuple[int, str]:
    """The parameter count estimated from the config, and words saying so."""
    params = estimate_params(view, d)
    rough = "; recurrent mixers only roughly (in/out projections)" if "recurrent" in d.plan else ""
    return params, (
        f"ESTIMATE from {source}: embeddings, attention, MLP/experts, norms"
        f"{'' if d.tied else ', untied lm_head'} counted from the config{rough}"
    )
