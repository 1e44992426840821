"""Which config fields can change the KV-cache layout, and the check that each one was read.

Serving engines size the cache from a handful of fields (heads, head sizes, layer kinds,
windows, recurrent-state sizes). A config that carries such a field and a reader that
never looks at it gives a confident wrong number: Kimi-Linear's linear_attn_config read
as all-MLA, MiMo-V2's hybrid_layer_pattern read as every layer sliding. So every lookup
of a config is recorded (fields.ReadTracker), and once the layers are built every field
present in the config that matches the table below and was never consulted stops the
load with an error naming it. A config with only plain attention fields has none of
these, so an unknown model_type of the usual shape still loads.

The table is data: CACHE_FIELDS holds the patterns that apply to every family, and
FAMILY_FIELDS the fields only one architecture defines. NOT_CACHE lists look-alikes that
never touch the cache (rope, norms, biases, MoE routing lists such as Hunyuan's
per-layer moe_topk), so they are accepted whatever their shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ..core.errors import ConfigError, MissingFieldError
from .fields import ConfigView

# (pattern matched against the whole field name, what such a field decides). All but the
# window and head-size entries (ATTENTION_SHAPE) describe a layout the attention reader
# has no notion of, so when reading fails while one of them is unread, that field is named
# as the reason rather than the symptom.
CACHE_FIELDS: tuple[tuple[str, str], ...] = (
    (
        r"layer_types|layers_block_type|block_types|hybrid_override_pattern|hybrid_layer_pattern"
        r"|attn_type_list|full_attn_idxs|hybrid_layer_ids|layer_block_types|attention_layer_indices"
        r"|attn_layer_indices",
        "which kind of layer each layer is",
    ),
    (r"block_configs", "per-layer block configs (attention heads, no-op layers)"),
    (
        r"full_attention_interval|attn_layer_period|attn_layer_offset|expert_layer_period"
        r"|sliding_window_pattern|no_rope_layers|no_rope_layer_interval",
        "a period or list that sets the layer kinds",
    ),
    (
        r"sliding_window\w*|swa_\w+|attention_window\w*|use_sliding_window|max_window_layers"
        r"|attention_chunk_size|local_window\w*|window_size",
        "an attention window",
    ),
    (
        r"linear_attn_config|linear_num_\w+|linear_key_head_dim|linear_value_head_dim"
        r"|linear_conv_kernel_dim|lightning_\w+",
        "linear-attention state",
    ),
    (
        r"mamba_\w+|ssm_\w+|n_mamba_heads|state_size|d_state|expand|conv_kernel|conv_L_cache"
        r"|conv_dim|conv1d_width|lru_width|n_groups",
        "state-space / convolution state",
    ),
    (r"compress_\w+|index_\w+|o_groups|o_lora_rank", "compressed or indexed attention"),
    (r"loop_num|loop_window_size", "a cache per loop of a looped layer (IQuest-LoopCoder)"),
    (
        r"num_kv_shared_layers|kv_sharing\w*|use_cla|cla_share_factor|cross_layer_\w+"
        r"|cross_attention_layers|shared_kv\w*",
        "KV shared across layers",
    ),
    (
        r"kv_lora_rank|qk_\w*head_dim|v_head_dim|global_head_dim|num_global_key_value_heads"
        r"|attention_k_eq_v|attention_head_dim|kv_channels|head_dim|num_key_value_heads|num_kv_heads"
        r"|n_head_kv|num_query_groups|multi_query_group_num|num_attention_groups|multi_query",
        "a head size or KV-head count",
    ),
)

# model_type -> {field only that architecture defines: what it does to the cache}
FAMILY_FIELDS: dict[str, dict[str, str]] = {
    # transformers configuration_zamba2.py, Zamba2Config
    "zamba2": {
        "num_mem_blocks": "shared attention blocks",
        "mamba_headdim": "Mamba-2 head size",
        "mamba_ngroups": "Mamba-2 groups",
    },
    # transformers configuration_mamba2.py, Mamba2Config: the SSM heads
    "mamba2": {"num_heads": "Mamba-2 heads", "head_dim": "Mamba-2 head size", "n_groups": "Mamba-2 groups"},
    # DeepSeek-V4: per-layer compressed caches, read by families.deepseek_v4 from
    # compress_ratios; compress_rates (a ratio per layer type, transformers' spelling) is not read
    "deepseek_v4": {
        "compress_ratios": "per-layer KV compression",
        "compress_rates": "per-layer-type KV compression (kvwidgets reads compress_ratios)",
        "index_topk": "the sparse indexer's cache",
    },
    # Hunyuan: cross-layer attention shares one layer's KV with the next
    "hunyuan_v1_moe": {
        "use_cla": "cross-layer attention: layers share KV",
        "cla_share_factor": "layers per KV",
    },
    "hunyuan_v1_dense": {
        "use_cla": "cross-layer attention: layers share KV",
        "cla_share_factor": "layers per KV",
    },
    # MiniMax-Text-01 / M1: lightning (linear) attention layers
    "minimax": {"attn_type_list": "lightning / softmax layers"},
    "minimax_text_01": {"attn_type_list": "lightning / softmax layers"},
    "minimax_m1": {"attn_type_list": "lightning / softmax layers"},
}


def same_value(view: ConfigView, value: object, settled: object) -> object:
    return value


def every_nth_full(other: str) -> Callable[[ConfigView, object, object], object]:
    """Layer kinds of a period n: layer i is full when (i + 1) % n == 0, `other` otherwise
    (transformers configuration_gemma3.py and configuration_qwen3_next.py build layer_types
    from sliding_window_pattern / full_attention_interval this way)."""

    def kinds(view: ConfigView, value: object, settled: object) -> object:
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or value < 1
            or not isinstance(settled, list)
        ):
            return value
        return ["full" if (i + 1) % value == 0 else other for i in range(len(settled))]

    return kinds


def qwen2_window_kinds(view: ConfigView, value: object, settled: object) -> object:
    """Qwen2's use_sliding_window / max_window_layers (transformers configuration_qwen2.py
    builds layer_types from them: layers i >= max_window_layers slide when use_sliding_window
    is true and sliding_window is set, every layer is full otherwise)."""
    if not isinstance(settled, list):
        return value
    first = view.raw("max_window_layers", 0)
    slides = view.raw("use_sliding_window") and view.raw("sliding_window") is not None
    if slides and (isinstance(first, bool) or not isinstance(first, int)):
        return value
    return ["sliding" if slides and i >= first else "full" for i in range(len(settled))]


# field -> (the quantity it restates, what the field says that quantity is). A restatement
# that agrees with the value the reader settled on changes nothing (HunYuan carries
# attention_head_dim = hidden_size / heads, Gemma 2 sliding_window_size = sliding_window,
# Qwen3.5 full_attention_interval beside layer_types); one that disagrees is refused,
# naming both, since engines differ in which of the two they take.
RESTATES: dict[str, tuple[str, Callable[[ConfigView, object, object], object]]] = {
    "attention_head_dim": ("head_dim", same_value),
    "kv_channels": ("head_dim", same_value),
    "num_kv_heads": ("num_key_value_heads", same_value),
    "n_head_kv": ("num_key_value_heads", same_value),
    "num_query_groups": ("num_key_value_heads", same_value),
    "sliding_window_size": ("sliding_window", same_value),
    "sliding_window_pattern": ("layer_kinds", every_nth_full("sliding")),
    "full_attention_interval": ("layer_kinds", every_nth_full("recurrent")),
    "max_window_layers": ("layer_kinds", qwen2_window_kinds),
    "use_sliding_window": ("layer_kinds", qwen2_window_kinds),
    # GLM-5: the MLA key width, and which layers keep the DSA indexer (dsa_indexer.py)
    "qk_head_dim": ("mla_key_width", same_value),
    "indexer_types": ("indexer_types", same_value),
}


def restates(view: ConfigView, key: str, value: object) -> bool:
    """True when `key` restates a value the reader settled on and agrees with it; a
    ConfigError naming both fields when it disagrees; False when there is nothing to
    compare it with."""
    quantity, implied = RESTATES.get(key, ("", same_value))
    if quantity not in view.settled:
        return False
    settled, source = view.settled[quantity]
    said = implied(view, value, settled)
    if said != settled:
        raise ConfigError(
            f"{view.where(key)} = {value!r} contradicts {view.prefix}{source}: "
            f"{disagreement(quantity, said, settled, source)}. The config says two different "
            "things; correct one of the two fields"
        )
    view.raw(key)
    view.note(key, f"{view.where(key)} restates {view.prefix}{source} and agrees with it")
    return True


def disagreement(quantity: str, said: object, settled: object, source: str) -> str:
    if isinstance(said, list) and isinstance(settled, list) and len(said) == len(settled):
        i = next(i for i, (a, b) in enumerate(zip(said, settled, strict=True)) if a != b)
        return f"it makes layer {i} {said[i]}, {source} makes it {settled[i]}"
    return f"it says {quantity} is {said!r}, {source} says {settled!r}"


# field -> the switch it only matters under: with the switch off or absent it sizes nothing
# (Hunyuan-A13B ships cla_share_factor 2 with use_cla false)
ONLY_WITH: dict[str, str] = {"cla_share_factor": "use_cla"}

# Never about the cache, whatever CACHE_FIELDS says: checked first. Routing top-k fields
# are MoE, except index_topk, which comes with a sparse-attention indexer and its cache.
NOT_CACHE = (
    r"\w*rope\w*|\w*_bias|\w*dropout\w*|\w*init\w*|\w*_eps|\w*norm\w*|\w*_act|\w*_scale\w*"
    r"|\w*chunk_size|time_step\w*|\w*dt_\w+|use_\w*kernels?|\w*_proj\w*|\w*moe\w*|\w*expert\w*"
    r"|(?!index_)\w*topk\w*|\w*top_k\w*|\w*_rank_\w*|\w*use_mem_eff_path|mamba_dt_rank"
    r"|\w*multiplier\w*|\w*_mup\w*|mamba_use_mlp|residual_in_fp32"
)

# what the attention reader itself reads; unread only because reading stopped early
ATTENTION_SHAPE = ("an attention window", "a head size or KV-head count")

_NOT_CACHE = re.compile(NOT_CACHE)
_COMPILED = tuple((re.compile(p), what) for p, what in CACHE_FIELDS)


def cache_relevance(model_type: str | None, key: str) -> str | None:
    """What the field decides about the cache, or None when it does not touch it."""
    family = FAMILY_FIELDS.get(model_type or "", {})
    if key in family:
        return family[key]
    if _NOT_CACHE.fullmatch(key):
        return None
    for pattern, what in _COMPILED:
        if pattern.fullmatch(key):
            return what
    return None


def _set(value: object) -> bool:
    """A field set to null, false, 0 or an empty list changes nothing."""
    return value not in (None, False, 0, "", [], {})


def unread_cache_fields(view: ConfigView, keys: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """(field, what it decides) for every cache-relevant field of the config nobody read."""
    read = view.read_keys
    data = view.cfg.data if hasattr(view.cfg, "data") else view.cfg
    out = []
    for key in keys if keys is not None else list(data):
        if key in read or not _set(data.get(key)):
            continue
        if key in ONLY_WITH and not _set(data.get(ONLY_WITH[key])):
            continue
        if key in RESTATES and restates(view, key, data[key]):
            continue
        what = cache_relevance(view.model_type, key)
        if what is not None:
            out.append((key, what))
    return out


def structural(unread: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(k, what) for k, what in unread if what not in ATTENTION_SHAPE]


def unread_error(
    view: ConfigView, unread: list[tuple[str, str]], cause: Exception | None = None
) -> ConfigError:
    """The refusal of a config with fields the reader does not understand. When reading
    stopped on a field that is absent or null, that field is the first thing to fix and
    is named first; otherwise the unread fields are the likelier cause of the failure."""
    fields = "; ".join(f"{view.prefix}{k} ({what})" for k, what in unread)
    unread_text = (
        f"model_type {view.model_type!r} has config fields that can change the KV-cache layout and "
        f"that kvwidgets does not read for it: {fields}"
    )
    if isinstance(cause, MissingFieldError):
        return MissingFieldError(f"{cause}. Besides, {unread_text}")
    also = f" (reading it as plain attention also failed: {cause})" if cause else ""
    return ConfigError(
        f"{view.source}: {unread_text}. Refusing rather than giving a number that ignores them; pass a "
        f"Model built by hand (kvwidgets.core.layers) if you know the layout{also}"
    )


def check_all_read(view: ConfigView) -> None:
    """Raise a ConfigError naming every cache-relevant field the reader did not consult."""
    unread = unread_cache_fields(view)
    if unread:
        raise unread_error(view, unread)


STATE_FIELDS = ("linear-attention state", "state-space / convolution state")


def settle_state_fields(view: ConfigView) -> None:
    """A per-layer list that names no recurrent layer has decided that state-size fields
    size nothing: mark them read. Only for explicit lists: a config with Mamba fields and
    no list at all must still be refused (it is not plain attention)."""
    data = view.cfg.data if hasattr(view.cfg, "data") else view.cfg
    for key in data:
        if cache_relevance(view.model_type, key) in STATE_FIELDS:
            view.raw(key)
