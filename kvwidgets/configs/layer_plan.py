"""Which kind of layer each decoder layer is, read the way transformers and vLLM read it.

The answer is a list with one tag per layer: "full", "sliding", "chunked",
"recurrent", or "none" (a layer that stores nothing, such as Nemotron-H's MLP-only
layers). The rules, in the order they apply:

1. an explicit `layer_types` list (gpt-oss, Gemma 3 in newer transformers, Qwen3-Next...)
2. hybrid recurrent layouts: `layers_block_type`, `hybrid_override_pattern`
   (Nemotron-H), Jamba's attn_layer_period / attn_layer_offset
3. Llama 4 chunked attention: attention_chunk_size, with `no_rope_layers` marking the
   chunked (RoPE) layers; the NoPE layers attend globally
4. `sliding_window_pattern` (Gemma 2/3, Cohere 2): layer i is full when
   (i + 1) % pattern == 0, otherwise it slides
5. Qwen2-family `use_sliding_window`: false means every layer is full even though
   sliding_window is set; true slides layers i >= max_window_layers
6. a plain `sliding_window` (Mistral 7B v0.1, Phi-3, Starcoder2): every layer slides
7. otherwise every layer is full attention
"""

from __future__ import annotations

from ..core.errors import ConfigError
from .fields import MISSING, ConfigView

LAYER_TYPE_TAGS = {
    "full_attention": "full",
    "attention": "full",
    "global": "full",
    "global_attention": "full",
    "sliding_attention": "sliding",
    "sliding_window_attention": "sliding",
    "local": "sliding",
    "local_attention": "sliding",
    "chunked_attention": "chunked",
    "linear_attention": "recurrent",
    "mamba": "recurrent",
    "mamba2": "recurrent",
    "recurrent": "recurrent",
    "conv": "recurrent",
    "gated_deltanet": "recurrent",
}

# hybrid_override_pattern letters (Nemotron-H): M = Mamba-2, * = attention, - = MLP, E = MoE
PATTERN_TAGS = {"M": "recurrent", "*": "full", "-": "none", "E": "none"}


def layer_plan(view: ConfigView, num_layers: int) -> list[str]:
    """One tag per layer; records provenance under 'layer_types'."""
    cfg = view.cfg

    types = cfg.get("layer_types")
    if types is not None:
        if not isinstance(types, list):
            raise ConfigError(f"layer_types must be a list of strings, got {type(types).__name__} "
                              f"({view.where('layer_types')})")
        if len(types) != num_layers:
            raise ConfigError(
                f"layer_types has {len(types)} entries but num_hidden_layers is {num_layers} "
                f"({view.where('layer_types')}); expected one entry per layer"
            )
        plan = []
        for i, t in enumerate(types):
            tag = LAYER_TYPE_TAGS.get(str(t).lower())
            if tag is None:
                raise ConfigError(
                    f"layer_types[{i}] is {t!r}, which kvwidgets does not know ({view.where('layer_types')}); "
                    f"expected one of {', '.join(sorted(LAYER_TYPE_TAGS))}"
                )
            plan.append(tag)
        view.note("layer_types", view.where("layer_types"))
        return plan

    blocks = cfg.get("layers_block_type")
    if isinstance(blocks, list):
        if len(blocks) != num_layers:
            raise ConfigError(f"layers_block_type has {len(blocks)} entries but num_hidden_layers is "
                              f"{num_layers} ({view.where('layers_block_type')})")
        view.note("layer_types", view.where("layers_block_type"))
        return ["full" if str(b).lower() in ("attention", "attn", "hybrid") else "recurrent" for b in blocks]

    pattern = cfg.get("hybrid_override_pattern")
    if isinstance(pattern, str):
        if len(pattern) != num_layers:
            raise ConfigError(f"hybrid_override_pattern has {len(pattern)} letters but num_hidden_layers is "
                              f"{num_layers} ({view.where('hybrid_override_pattern')})")
        unknown = sorted(set(pattern) - set(PATTERN_TAGS))
        if unknown:
            raise ConfigError(f"hybrid_override_pattern has unknown letters {unknown} "
                              f"({view.where('hybrid_override_pattern')}); expected M, *, - or E")
        view.note("layer_types", view.where("hybrid_override_pattern") + " (M = Mamba, * = attention)")
        return [PATTERN_TAGS[c] for c in pattern]

    if view.model_type == "jamba" or "attn_layer_period" in cfg:
        period = view.integer("attn_layer_period", ("attn_layer_period",))
        offset = view.integer("attn_layer_offset", ("attn_layer_offset",), minimum=0)
        view.note("layer_types", f"{view.provenance['attn_layer_period']} and attn_layer_offset "
                                 f"(layer i is attention when i % {period} == {offset}, Mamba otherwise)")
        return ["full" if i % period == offset else "recurrent" for i in range(num_layers)]

    chunk = None
    if "attention_chunk_size" in cfg or view.model_type == "llama4_text":
        chunk = view.get("attention_chunk_size", ("attention_chunk_size",), default=None)
    if chunk is not None:
        no_rope = cfg.get("no_rope_layers")
        if isinstance(no_rope, list) and no_rope:
            if len(no_rope) != num_layers:
                raise ConfigError(f"no_rope_layers has {len(no_rope)} entries but num_hidden_layers is "
                                  f"{num_layers} ({view.where('no_rope_layers')})")
            view.note("layer_types", view.where("no_rope_layers") + " (1 = RoPE layer = chunked attention)")
            return ["chunked" if flag else "full" for flag in no_rope]
        interval = view.integer("no_rope_layer_interval", ("no_rope_layer_interval",), default=4)
        view.note("layer_types", f"no no_rope_layers list: every {interval}th layer global, the rest chunked "
                                 f"({view.provenance.get('no_rope_layer_interval', 'Llama4TextConfig')})")
        return ["full" if (i + 1) % interval == 0 else "chunked" for i in range(num_layers)]

    window = view.get("sliding_window", ("sliding_window",), default=None)

    pattern_n = view.get("sliding_window_pattern", ("sliding_window_pattern",), default=None)
    if pattern_n is not None and window is not None:
        n = view.check_int("sliding_window_pattern", pattern_n, 1)
        view.note("layer_types", f"{view.provenance['sliding_window_pattern']}: layer i is full when "
                                 f"(i + 1) % {n} == 0, sliding otherwise")
        return ["full" if (i + 1) % n == 0 else "sliding" for i in range(num_layers)]

    use = view.get("use_sliding_window", ("use_sliding_window",), default=MISSING)
    if use is not MISSING:
        if not use or window is None:
            view.note("layer_types", f"{view.provenance['use_sliding_window']} = {use!r}: every layer full "
                                     "(sliding_window is ignored)")
            return ["full"] * num_layers
        first = view.integer("max_window_layers", ("max_window_layers",), minimum=0)
        view.note("layer_types", f"use_sliding_window true: layers i >= max_window_layers ({first}) slide "
                                 f"({view.provenance['max_window_layers']})")
        return ["sliding" if i >= first else "full" for i in range(num_layers)]

    if window is not None:
        view.note("layer_types", f"{view.provenance['sliding_window']} with no layer_types: every layer slides")
        return ["sliding"] * num_layers

    view.note("layer_types", f"{view.source}: no sliding_window or layer_types, every layer full attention")
    return ["full"] * num_layers
