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
does not read it, so it is a restatement (cache_fields.RESTATES): accepted when it agrees
with the rule above, refused naming both when it does not.
"""

from __future__ import annotations

from ..core.errors import ConfigError
from .fields import ConfigView

RULE = "vLLM 0.33.0 vllm/models/deepseek_v32/attention.py, DeepseekV32Attention.__init__"

# indexer_types entry (GLM-5.2) of a layer with / without its own indexer: "full" computes
# its own top-k and keeps an indexer cache, "shared" reuses the last one
INDEXER_TYPE = {True: "full", False: "shared"}


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
    # GLM-5.2's indexer_types restates this rule; vLLM does not read it (cache_fields.RESTATES)
    view.settle("indexer_types", [INDEXER_TYPE[h] for h in has], "index_topk_freq / index_topk_pattern")
    view.note("indexer_layers", f"{sum(has)} of {num_layers} layers keep an indexer cache ({how}; {RULE})")
    return has
