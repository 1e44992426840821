"""Which kind of layer each decoder layer is, read the way transformers and vLLM read it.

The answer is a list with one tag per layer: "full", "sliding", "chunked", "cross",
"recurrent", "hybrid" (Falcon-H1: attention and a Mamba-2 mixer in the same layer, so a
KV cache and a recurrent state), or "none" (a layer that stores nothing, such as
Nemotron-H's MLP-only layers). The rules, in the order they apply (LAYOUT_RULES,
one small function each; a new layout adds its function to that list):

1. an explicit `layer_types` list (gpt-oss, Gemma 3/4 in newer transformers,
   Qwen3-Next, Nemotron-H's layers_block_type...)
2. `full_attention_interval` (Qwen3-Next, Qwen3.5): layer i is full attention when
   (i + 1) % interval == 0, Gated DeltaNet linear attention otherwise
   (transformers configuration_qwen3_next.py / configuration_qwen3_5.py __post_init__)
3. hybrid recurrent layouts: `layers_block_type`, `hybrid_override_pattern`
   (Nemotron-H), Jamba's attn_layer_period / attn_layer_offset
4. Llama 4 chunked attention: attention_chunk_size, with `no_rope_layers` marking the
   chunked (RoPE) layers; the NoPE layers attend globally. Only for Llama 4: vLLM 0.33.0
   reads attention_chunk_size in vllm/model_executor/models/llama4.py and nowhere else,
   so another model's stray attention_chunk_size is noted and ignored
5. `sliding_window_pattern` (Gemma 2/3, Cohere 2): layer i is full when
   (i + 1) % pattern == 0, otherwise it slides
6. Qwen2-family `use_sliding_window`: false means every layer is full even though
   sliding_window is set; true slides layers i >= max_window_layers
7. a plain `sliding_window` (Mistral 7B v0.1, Phi-3, Starcoder2): every layer slides
8. otherwise every layer is full attention

Then two overlays: `cross_attention_layers` (Llama 3.2 Vision) marks those layers
"cross", and `num_kv_shared_layers` (Gemma 3n / Gemma 4) marks the last N layers "none":
they read an earlier layer's cache and store nothing (see kv_shared_layers below).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.errors import ConfigError, MissingFieldError
from .cache_fields import settle_state_fields
from .fields import MISSING, NAMES, ConfigView

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
    "cross_attention": "cross",
    "linear_attention": "recurrent",
    "mamba": "recurrent",
    "mamba2": "recurrent",
    "recurrent": "recurrent",
    "conv": "recurrent",
    "gated_deltanet": "recurrent",
    # Nemotron-H layers_block_type (transformers configuration_nemotron_h.py): MoE and
    # MLP blocks have no attention or state, so they store nothing
    "moe": "none",
    "mlp": "none",
}

# layers_block_type entries (Jamba, Zamba, Nemotron-H in newer transformers)
BLOCK_TYPE_TAGS = {
    "attention": "full",
    "attn": "full",
    "full_attention": "full",
    "hybrid": "full",
    "mamba": "recurrent",
    "mamba2": "recurrent",
    "linear_attention": "recurrent",
    "m": "recurrent",
    "moe": "none",
    "mlp": "none",
}

# config fields that list every layer's kind one by one
EXPLICIT_LISTS = ("layer_types", "layers_block_type", "hybrid_override_pattern")

# model_types that use chunked local attention (see rule 4 in the module doc)
CHUNKED_ATTENTION_MODEL_TYPES = ("llama4_text",)

# hybrid_override_pattern letters (Nemotron-H): M = Mamba-2, * = attention, - = MLP, E = MoE
PATTERN_TAGS = {"M": "recurrent", "*": "full", "-": "none", "E": "none"}


def layer_count(view: ConfigView) -> int:
    """num_hidden_layers, or, when the config leaves it null or out, the length of its list
    of every layer's kind: vLLM builds one layer per entry whatever num_hidden_layers says
    (vLLM 0.33.0 vllm/model_executor/models/nemotron_h.py, NemotronHModel:
    make_layers(len(config.hybrid_override_pattern), ...)). Nemotron-3-Ultra ships
    num_hidden_layers null beside its layers_block_type."""
    if view.get("num_hidden_layers", default=None) is not None:
        return view.integer("num_hidden_layers")
    for field in EXPLICIT_LISTS:
        entries = view.raw(field)
        if isinstance(entries, (list, str)) and entries:
            view.note(
                "num_hidden_layers",
                f"{view.where(field)} has {len(entries)} entries, one per layer "
                "(the config gives no num_hidden_layers)",
            )
            return len(entries)
    names = ", ".join(view.prefix + f for f in NAMES["num_hidden_layers"])
    lists = ", ".join(view.prefix + f for f in EXPLICIT_LISTS)
    raise MissingFieldError(
        f"{view.source}: the layer count is missing: none of {names} is set (each is null or absent) "
        f"and no per-layer list ({lists}) gives it; set num_hidden_layers to the number of decoder layers"
    )


def layer_plan(view: ConfigView, num_layers: int) -> list[str]:
    """One tag per layer; records provenance under 'layer_types'."""
    plan = base_plan(view, num_layers)
    explicit = any(view.raw(k) is not None for k in EXPLICIT_LISTS)
    if explicit and not {"recurrent", "hybrid"} & set(plan):
        settle_state_fields(view)
    if view.model_type == "gemma4_text" and plan and plan[-1] == "sliding":
        # transformers configuration_gemma4.py, Gemma4TextConfig.__post_init__: "Last layer
        # must use `full_attention`" - it forces the last layer to full attention
        plan[-1] = "full"
        view.note(
            "layer_types",
            view.provenance.get("layer_types", "")
            + "; Gemma4TextConfig forces the last layer to full attention",
        )
    plan = cross_attention_overlay(view, plan)
    plan = kv_shared_overlay(view, plan)
    if "sliding" not in plan:
        # the plan has no sliding layer, so a sliding_window in the config caps nothing
        # (Nemotron-H and Llama 4 configs carry one their engines never use)
        view.raw("sliding_window")
    return plan


LayoutRule = Callable[[ConfigView, int], "list[str] | None"]


def base_plan(view: ConfigView, num_layers: int) -> list[str]:
    """The first layout rule that recognises the config decides every layer's kind."""
    for rule in LAYOUT_RULES:
        plan = rule(view, num_layers)
        if plan is not None:
            return plan
    raise AssertionError("every_layer_full always answers")  # pragma: no cover


def tags_from_list(
    view: ConfigView, field: str, entries: Sequence[Any], tags: Mapping[str, str], num_layers: int
) -> list[str]:
    """One tag per entry of a per-layer list, each looked up in `tags`."""
    if len(entries) != num_layers:
        raise ConfigError(
            f"{field} has {len(entries)} entries but num_hidden_layers is {num_layers} "
            f"({view.where(field)}); expected one entry per layer"
        )
    plan = []
    for i, entry in enumerate(entries):
        tag = tags.get(str(entry).lower())
        if tag is None:
            raise ConfigError(
                f"{field}[{i}] is {entry!r}, which kvwidgets does not know ({view.where(field)}); "
                f"expected one of {', '.join(sorted(tags))}"
            )
        plan.append(tag)
    return plan


def from_layer_types(view: ConfigView, num_layers: int) -> list[str] | None:
    types = view.cfg.get("layer_types")
    if types is None:
        return None
    if not isinstance(types, list):
        raise ConfigError(
            f"layer_types must be a list of strings, got {type(types).__name__} ({view.where('layer_types')})"
        )
    plan = tags_from_list(view, "layer_types", types, LAYER_TYPE_TAGS, num_layers)
    view.note("layer_types", view.where("layer_types"))
    view.settle("layer_kinds", plan, "layer_types")
    return plan


def falcon_h1_parallel(view: ConfigView, num_layers: int) -> list[str] | None:
    """Every Falcon-H1 layer runs attention and a Mamba-2 mixer side by side, so it keeps
    both a KV cache and a recurrent state (vLLM falcon_h1.py, FalconH1ParallelHybrid)."""
    if view.model_type != "falcon_h1":
        return None
    view.note(
        "layer_types",
        f"{view.source}: model_type falcon_h1, every layer is attention + Mamba-2 in "
        "parallel (vLLM falcon_h1.py FalconH1ParallelHybrid)",
    )
    return ["hybrid"] * num_layers


def from_full_attention_interval(view: ConfigView, num_layers: int) -> list[str] | None:
    interval = view.get("full_attention_interval", ("full_attention_interval",), default=None)
    if interval is None:
        return None
    n = view.check_int("full_attention_interval", interval, 1)
    view.note(
        "layer_types",
        f"{view.provenance['full_attention_interval']} = {n}: layer i is full attention "
        f"when (i + 1) % {n} == 0, Gated DeltaNet linear attention otherwise "
        "(transformers configuration_qwen3_next.py)",
    )
    return ["full" if (i + 1) % n == 0 else "recurrent" for i in range(num_layers)]


def from_block_types(view: ConfigView, num_layers: int) -> list[str] | None:
    blocks = view.cfg.get("layers_block_type")
    if not isinstance(blocks, list):
        return None
    plan = tags_from_list(view, "layers_block_type", blocks, BLOCK_TYPE_TAGS, num_layers)
    view.note("layer_types", view.where("layers_block_type"))
    view.settle("layer_kinds", plan, "layers_block_type")
    return plan


def from_hybrid_pattern(view: ConfigView, num_layers: int) -> list[str] | None:
    """Nemotron-H's hybrid_override_pattern, one letter per layer (PATTERN_TAGS)."""
    pattern = view.cfg.get("hybrid_override_pattern")
    if not isinstance(pattern, str):
        return None
    where = view.where("hybrid_override_pattern")
    if len(pattern) != num_layers:
        raise ConfigError(
            f"hybrid_override_pattern has {len(pattern)} letters but num_hidden_layers is "
            f"{num_layers} ({where})"
        )
    unknown = sorted(set(pattern) - set(PATTERN_TAGS))
    if unknown:
        raise ConfigError(
            f"hybrid_override_pattern has unknown letters {unknown} ({where}); expected M, *, - or E"
        )
    view.note("layer_types", where + " (M = Mamba, * = attention)")
    plan = [PATTERN_TAGS[c] for c in pattern]
    view.settle("layer_kinds", plan, "hybrid_override_pattern")
    return plan


def from_attn_layer_indices(view: ConfigView, num_layers: int) -> list[str] | None:
    """Bamba: transformers configuration_bamba.py, BambaConfig.layers_block_type makes the
    listed layers attention and every other layer Mamba-2; vLLM 0.22.0 bamba.py
    (BambaModel) builds its layers from that list (vLLM 0.23 dropped Bamba)."""
    indices = view.cfg.get("attn_layer_indices")
    if not isinstance(indices, list):
        return None
    bad = [i for i in indices if not (isinstance(i, int) and 0 <= i < num_layers)]
    if bad:
        raise ConfigError(
            f"attn_layer_indices {bad} are not layer indices 0..{num_layers - 1} ({view.where('attn_layer_indices')})"
        )
    view.note("layer_types", view.where("attn_layer_indices") + " (the other layers are Mamba-2)")
    return ["full" if i in indices else "recurrent" for i in range(num_layers)]


def from_attn_layer_period(view: ConfigView, num_layers: int) -> list[str] | None:
    """Jamba: layer i is attention when i % attn_layer_period == attn_layer_offset."""
    if view.model_type != "jamba" and "attn_layer_period" not in view.cfg:
        return None
    period = view.integer("attn_layer_period", ("attn_layer_period",))
    offset = view.integer("attn_layer_offset", ("attn_layer_offset",), minimum=0)
    view.note(
        "layer_types",
        f"{view.provenance['attn_layer_period']} and attn_layer_offset "
        f"(layer i is attention when i % {period} == {offset}, Mamba otherwise)",
    )
    return ["full" if i % period == offset else "recurrent" for i in range(num_layers)]


def chunked_local(view: ConfigView, num_layers: int) -> list[str] | None:
    """Llama 4's chunked attention (rule 4 of the module doc); another model's stray
    attention_chunk_size is noted and ignored."""
    if view.model_type not in CHUNKED_ATTENTION_MODEL_TYPES:
        if view.cfg.get("attention_chunk_size") is not None:
            view.note(
                "attention_chunk_size",
                f"{view.where('attention_chunk_size')} is ignored: model_type "
                f"{view.model_type!r} does not use chunked attention (only Llama 4 "
                "does; vLLM reads it in vllm/model_executor/models/llama4.py only)",
            )
        return None
    if view.get("attention_chunk_size", ("attention_chunk_size",), default=None) is None:
        return None
    no_rope = view.cfg.get("no_rope_layers")
    if isinstance(no_rope, list) and no_rope:
        if len(no_rope) != num_layers:
            raise ConfigError(
                f"no_rope_layers has {len(no_rope)} entries but num_hidden_layers is "
                f"{num_layers} ({view.where('no_rope_layers')})"
            )
        view.note("layer_types", view.where("no_rope_layers") + " (1 = RoPE layer = chunked attention)")
        return ["chunked" if flag else "full" for flag in no_rope]
    interval = view.integer("no_rope_layer_interval", ("no_rope_layer_interval",), default=4)
    view.note(
        "layer_types",
        f"no no_rope_layers list: every {interval}th layer global, the rest chunked "
        f"({view.provenance.get('no_rope_layer_interval', 'Llama4TextConfig')})",
    )
    return ["full" if (i + 1) % interval == 0 else "chunked" for i in range(num_layers)]


def sliding_window(view: ConfigView) -> Any:
    window = view.get("sliding_window", ("sliding_window",), default=None)
    if window is not None:
        view.settle("sliding_window", window, "sliding_window")
    return window


def sliding_pattern(view: ConfigView, num_layers: int) -> list[str] | None:
    """Gemma 2/3, Cohere 2: layer i is full when (i + 1) % sliding_window_pattern == 0."""
    window = sliding_window(view)
    pattern_n = view.get("sliding_window_pattern", ("sliding_window_pattern",), default=None)
    if pattern_n is None:
        return None
    if window is None:
        # a pattern of sliding layers with no window to size them: reading every layer as full
        # would be a silent number
        raise ConfigError(
            f"sliding_window_pattern is {pattern_n!r} ({view.where('sliding_window_pattern')}) but the "
            "config gives no sliding_window: the sliding layers' window size is needed (tokens)"
        )
    n = view.check_int("sliding_window_pattern", pattern_n, 1)
    view.note(
        "layer_types",
        f"{view.provenance['sliding_window_pattern']}: layer i is full when "
        f"(i + 1) % {n} == 0, sliding otherwise",
    )
    return ["full" if (i + 1) % n == 0 else "sliding" for i in range(num_layers)]


def qwen2_use_sliding_window(view: ConfigView, num_layers: int) -> list[str] | None:
    """Qwen2 family: use_sliding_window false means every layer is full even though
    sliding_window is set; true slides layers i >= max_window_layers."""
    window = sliding_window(view)
    use = view.get("use_sliding_window", ("use_sliding_window",), default=MISSING)
    if use is MISSING:
        return None
    if not use or window is None:
        view.raw("max_window_layers")  # only counts when use_sliding_window is true
        view.note(
            "layer_types",
            f"{view.provenance['use_sliding_window']} = {use!r}: every layer full (sliding_window is ignored)",
        )
        return ["full"] * num_layers
    first = view.integer("max_window_layers", ("max_window_layers",), minimum=0)
    view.note(
        "layer_types",
        f"use_sliding_window true: layers i >= max_window_layers ({first}) slide "
        f"({view.provenance['max_window_layers']})",
    )
    return ["sliding" if i >= first else "full" for i in range(num_layers)]


def every_layer_slides(view: ConfigView, num_layers: int) -> list[str] | None:
    """A plain sliding_window (Mistral 7B v0.1, Phi-3, Starcoder2)."""
    if sliding_window(view) is None:
        return None
    view.note("layer_types", f"{view.provenance['sliding_window']} with no layer_types: every layer slides")
    return ["sliding"] * num_layers


def every_layer_full(view: ConfigView, num_layers: int) -> list[str]:
    view.note("layer_types", f"{view.source}: no sliding_window or layer_types, every layer full attention")
    return ["full"] * num_layers


# The layout rules in the order they apply (the module doc): the first that answers wins.
LAYOUT_RULES: list[LayoutRule] = [
    from_layer_types,
    falcon_h1_parallel,
    from_full_attention_interval,
    from_block_types,
    from_hybrid_pattern,
    from_attn_layer_indices,
    from_attn_layer_period,
    chunked_local,
    sliding_pattern,
    qwen2_use_sliding_window,
    every_layer_slides,
    every_layer_full,
]


def cross_attention_overlay(view: ConfigView, plan: list[str]) -> list[str]:
    """Llama 3.2 Vision (mllama): the layers in cross_attention_layers attend to the image
    tokens only (transformers configuration_mllama.py, MllamaTextConfig)."""
    layers = view.get("cross_attention_layers", ("cross_attention_layers",), default=None)
    if layers is None:
        return plan
    if not isinstance(layers, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in layers
    ):
        raise ConfigError(
            f"cross_attention_layers must be a list of layer indices, got {layers!r} "
            f"({view.provenance.get('cross_attention_layers')})"
        )
    bad = [i for i in layers if not 0 <= i < len(plan)]
    if bad:
        raise ConfigError(
            f"cross_attention_layers {bad} are outside 0..{len(plan) - 1} "
            f"({view.provenance.get('cross_attention_layers')}); expected layer indices"
        )
    out = list(plan)
    for i in layers:
        out[i] = "cross"
    view.note(
        "layer_types",
        view.provenance.get("layer_types", "")
        + f"; layers {layers} are cross-attention ({view.provenance['cross_attention_layers']})",
    )
    return out


def kv_shared_layers(view: ConfigView, num_layers: int) -> int:
    """How many of the last layers reuse an earlier layer's KV and store nothing.

    Gemma 3n / Gemma 4's num_kv_shared_layers: layers i >= num_hidden_layers - N read the
    cache of the last earlier layer of the same type (vLLM 0.33.0,
    vllm/model_executor/models/gemma4.py, Gemma4Attention: kv_sharing_target_layer_name),
    and vLLM gives such a layer no KV-cache spec at all (vllm/v1/worker/gpu_model_runner.py,
    get_kv_cache_spec: "The layer doesn't need its own KV cache")."""
    n = view.get("num_kv_shared_layers", ("num_kv_shared_layers",), default=None)
    if n is None:
        return 0
    n = view.check_int("num_kv_shared_layers", n, 0)
    if n >= num_layers:
        raise ConfigError(
            f"num_kv_shared_layers={n} leaves no layer to store the cache "
            f"(num_hidden_layers={num_layers}; {view.provenance['num_kv_shared_layers']})"
        )
    return n


def kv_shared_overlay(view: ConfigView, plan: list[str]) -> list[str]:
    n = kv_shared_layers(view, len(plan))
    if not n:
        return plan
    first = len(plan) - n
    producers = set(plan[:first])
    orphans = sorted({t for t in plan[first:] if t != "none"} - producers)
    if orphans:
        raise ConfigError(
            f"num_kv_shared_layers={n}: the shared layers include {orphans} layers but no earlier "
            f"layer of that type stores a cache to share ({view.provenance['num_kv_shared_layers']})"
        )
    view.note(
        "layer_types",
        view.provenance.get("layer_types", "")
        + f"; the last {n} layers ({first}..{len(plan) - 1}) reuse earlier layers' KV and store nothing "
        f"({view.provenance['num_kv_shared_layers']})",
    )
    return plan[:first] + ["none"] * n
