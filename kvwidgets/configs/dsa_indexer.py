"""Which layers of a DeepSeek sparse-attention model (DeepSeek-V3.2, GLM-5.2) keep an indexer cache.

Every layer of such a model stores its MLA latent. The lightning indexer, which picks the
top-k tokens each layer attends to, keeps a cache of its own keys (index_head_dim FP8
numbers plus their float32 scales per token, see hf_config.read_dims), but not every layer
has one: with IndexCache a layer can reuse the top-k of the last layer that computed it,
and vLLM builds no indexer, so no indexer cache, for such a layer.

The rule, vLLM 0.33.0 vllm/models/deepseek_v32/attention.py, DeepseekV32Attention.__init__
(the CUDA and ROCm model of DeepseekV32ForCausalLM and GlmMoeDsaForCausalLM; the generic
vllm/model_executor/models/deepseek_v2.py, DeepseekV2MLAAttention.__init__ has the same):

    index_topk_freq = getattr(config, "index_topk_freq", 1)
    index_topk_pattern = getattr(config, "index_topk_pattern", None)
    index_skip_topk_offset = getattr(config, "index_skip_topk_offset", 2)
    if index_topk_pattern is None:
        skip_topk = max(layer_id - index_skip_topk_offset + 1, 0) % index_topk_freq != 0
    elif 0 <= layer_id < len(index_topk_pattern):
        skip_topk = index_topk_pattern[layer_id] == "S"
    else:
        skip_topk = False
    if not skip_topk or is_mtp_layer: build the indexer (and its k_cache)

MTP (next-n) layers always build one; kvwidgets counts the main model's layers only, so
index_share_for_mtp_iteration, which only says how the MTP layer reuses it, sizes nothing
here. GLM-5.2's config also lists indexer_types ("full" / "shared" per layer); vLLM 0.33.0
does not read it, so it is taken as a restatement: accepted when it agrees with the rule
above, refused naming both when it does not.
"""

from __future__ import annotations

from ..core.errors import ConfigError
from .fields import ConfigView

RULE = "vLLM 0.33.0 vllm/models/deepseek_v32/attention.py, DeepseekV32Attention.__init__"

# indexer_types entries (GLM-5.2): "full" computes its own top-k and keeps an indexer cache
INDEXER_TYPE_HAS_CACHE = {"full": True, "shared": False}


def _pattern(view: ConfigView) -> str | None:
    pattern = view.get("index_topk_pattern", ("index_topk_pattern",), default=None)
    if pattern is None:
        return None
    if not isinstance(pattern, str) or set(pattern) - {"F", "S"}:
        raise ConfigError(
            f"index_topk_pattern must be a string of F (the layer computes its top-k) and S (it reuses "
            f"the last one), got {pattern!r} ({view.where('index_topk_pattern')})"
        )
    return pattern


def indexer_layers(view: ConfigView, num_layers: int) -> tuple[bool, ...]:
    """For each layer, whether vLLM gives it an indexer cache (the rule in the module doc)."""
    freq = view.integer("index_topk_freq", ("index_topk_freq",), default=1)
    offset = view.integer("index_skip_topk_offset", ("index_skip_topk_offset",), minimum=0, default=2)
    pattern = _pattern(view)
    view.raw("index_share_for_mtp_iteration")  # the MTP layer's reuse only; no main-model cache
    if pattern is None:
        has = tuple(max(i - offset + 1, 0) % freq == 0 for i in range(num_layers))
        how = (
            f"index_topk_freq {freq}, index_skip_topk_offset {offset}: layer i keeps one when "
            f"max(i - {offset} + 1, 0) % {freq} == 0"
        )
    else:
        has = tuple(not (i < len(pattern) and pattern[i] == "S") for i in range(num_layers))
        how = f"index_topk_pattern {pattern!r}: S layers reuse the last top-k and keep none"
    _check_indexer_types(view, has)
    view.note("indexer_layers", f"{sum(has)} of {num_layers} layers keep an indexer cache ({how}; {RULE})")
    return has


def _check_indexer_types(view: ConfigView, has: tuple[bool, ...]) -> None:
    """indexer_types restates the layers with an indexer: it must agree with the rule vLLM runs."""
    types = view.get("indexer_types", ("indexer_types",), default=None)
    if types is None:
        return
    where = view.where("indexer_types")
    if (
        not isinstance(types, list)
        or len(types) != len(has)
        or any(t not in INDEXER_TYPE_HAS_CACHE for t in types)
    ):
        raise ConfigError(
            f"indexer_types must list 'full' or 'shared' for each of the {len(has)} layers, got {types!r} ({where})"
        )
    listed = tuple(INDEXER_TYPE_HAS_CACHE[t] for t in types)
    if listed != has:
        first = next(i for i, (a, b) in enumerate(zip(listed, has, strict=True)) if a != b)
        raise ConfigError(
            f"indexer_types ({where}) disagrees with index_topk_freq / index_skip_topk_offset / "
            f"index_topk_pattern at layer {first}: it says {types[first]!r}, the rule vLLM runs says "
            f"{'full' if has[first] else 'shared'} ({RULE}; vLLM does not read indexer_types)"
        )
