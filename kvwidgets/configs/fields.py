"""Reading fields out of a config.json, with their provenance.

One ConfigView wraps one config dict. It knows which sub-dict holds the text model
(multimodal wrappers nest it in text_config), tries a field's alternative names in
order (GPT-2's n_layer, Falcon's n_head...), falls back to the library default of the
model's config class when the field is absent, and records where every value came
from, so a Model can say "config.json of google/gemma-3-27b-it: text_config.head_dim"
or "default of Gemma3TextConfig".

A field that is present with value null counts as decided by the config (Mistral
v0.2's "sliding_window": null means no window); only an absent field takes the
library default, as in transformers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import ConfigError, MissingFieldError
from .defaults import TEXT_MODEL_TYPE, library_default

MISSING = object()

# The names each quantity goes by across model families, in the order engines try them.
NAMES: dict[str, tuple[str, ...]] = {
    "num_hidden_layers": ("num_hidden_layers", "n_layer", "num_layers", "n_layers"),
    # XGLM's attention_heads (transformers XGLMConfig.attribute_map)
    "num_attention_heads": ("num_attention_heads", "n_head", "num_heads", "n_heads", "attention_heads"),
    # vLLM 0.33.0 vllm/transformers_utils/config.py, CONFIG_FIELD_ALIASES["total_num_kv_heads"]
    # adds ChatGLM's multi_query_group_num and Step3p5's num_attention_groups
    "num_key_value_heads": (
        "num_key_value_heads",
        "num_kv_heads",
        "n_head_kv",
        "num_query_groups",
        "multi_query_group_num",
        "num_attention_groups",
        "n_kv_heads",
    ),
    # BLOOM's n_embed (transformers BloomConfig takes it in place of hidden_size); dim,
    # n_kv_heads: the names of Meta's original params.json, which some configs keep
    "hidden_size": ("hidden_size", "n_embd", "d_model", "model_dim", "n_embed", "dim"),
    "head_dim": ("head_dim", "kv_channels"),
    "intermediate_size": ("intermediate_size", "n_inner", "ffn_hidden_size", "ffn_dim"),
    "vocab_size": ("vocab_size", "padded_vocab_size"),
    "max_position_embeddings": (
        "max_position_embeddings",
        "n_positions",
        "max_sequence_length",
        "seq_length",
    ),
    "num_experts": ("num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"),
    "experts_per_token": (
        "num_experts_per_tok",
        "experts_per_token",
        "moe_topk",
        "num_experts_per_token",
        "top_k_experts",
    ),
}


class ReadTracker(Mapping):
    """A read-only view of a config dict that remembers which keys were looked at.

    Every lookup (cfg[k], cfg.get(k), k in cfg) marks the key as read, so after a Model
    is built cache_fields.check_read can tell which cache-relevant fields no code path
    consulted: the fields kvwidgets does not understand for this model.
    """

    def __init__(self, data: Mapping[str, Any]):
        self.data = data
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self.data[key]

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.read.add(key)
        return key in self.data

    def __iter__(self):
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


class ConfigView:
    """A config dict plus where it came from (used in every provenance string)."""

    def __init__(self, config: Mapping[str, Any], source: str):
        if not isinstance(config, Mapping):
            raise ConfigError(
                f"{source}: a model config must be a JSON object (dict), got {type(config).__name__}"
            )
        if not config:
            raise ConfigError(
                f"{source}: the config is empty; expected the fields of a config.json "
                "(num_hidden_layers, num_attention_heads, hidden_size, ...)"
            )
        self.source = source
        self.top = config
        text = config.get("text_config")
        text = text if isinstance(text, Mapping) else {}
        # Multimodal wrappers (Gemma 3, Llama 4, Mistral 3...) keep the language model in
        # text_config; the KV cache is the language model's.
        layers = NAMES["num_hidden_layers"]
        wrapper = config.get("model_type") in TEXT_MODEL_TYPE and any(n in text for n in layers)
        if text and (wrapper or not any(n in config for n in layers)):
            self.cfg: Mapping[str, Any] = ReadTracker(text)
            self.prefix = "text_config."
            outer = config.get("model_type")
            self.model_type = text.get("model_type") or TEXT_MODEL_TYPE.get(outer, outer)
        else:
            self.cfg = ReadTracker(config)
            self.prefix = ""
            self.model_type = config.get("model_type")
        self.provenance: dict[str, str] = {}
        # sentences a reader must see beside any figure of this model (Model.engine_notes)
        self.warnings: list[str] = []
        # quantity -> (the value the reader settled on, the field it came from): what a
        # field restating it is compared with (cache_fields.RESTATES)
        self.settled: dict[str, tuple[Any, str]] = {}

    # ---- lookups ---------------------------------------------------------------------
    def where(self, name: str) -> str:
        return f"{self.source}: {self.prefix}{name}"

    def raw(self, name: str, default: Any = None) -> Any:
        """The value as written (no defaults, no provenance)."""
        return self.cfg.get(name, default)

    def get(
        self, key: str, names: Sequence[str] | None = None, *, default: Any = MISSING, top_level: bool = False
    ) -> Any:
        """First of `names` present in the config, else the library default, else `default`.

        Records provenance under `key`. top_level also looks in the outer dict of a
        wrapper (torch_dtype, quantization_config sit there in multimodal configs).
        """
        names = tuple(names or NAMES.get(key, (key,)))
        for name in names:
            if name in self.cfg:
                self.provenance[key] = self.where(name)
                return self.cfg[name]
        if top_level and self.prefix:
            for name in names:
                if name in self.top:
                    self.provenance[key] = f"{self.source}: {name}"
                    return self.top[name]
        for name in names:
            found, value, where = library_default(self.model_type, name)
            if found:
                self.provenance[key] = where + (f" ({name})" if name != key else "")
                return value
        return default

    def integer(
        self,
        key: str,
        names: Sequence[str] | None = None,
        *,
        minimum: int = 1,
        default: Any = MISSING,
        required: bool = True,
    ) -> int | None:
        """An integer field, validated: a clear ConfigError names the field and the value."""
        names = tuple(names or NAMES.get(key, (key,)))
        value = self.get(key, names, default=default)
        if value is MISSING or value is None:
            if not required:
                return None
            tried = ", ".join(self.prefix + n for n in names)
            raise MissingFieldError(
                f"{self.source}: no {key} in the config (tried {tried}); expected a whole number >= {minimum}"
            )
        return self.check_int(key, value, minimum)

    def check_int(self, key: str, value: Any, minimum: int = 1) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            where = self.provenance.get(key, self.where(key))
            raise ConfigError(f"{key} must be a whole number >= {minimum}, got {value!r} ({where})")
        return value

    def flag(self, key: str, names: Sequence[str] | None = None, default: bool = False) -> bool:
        value = self.get(key, names, default=default)
        return bool(value) if value is not MISSING else default

    def settle(self, quantity: str, value: Any, field: str) -> None:
        """Record a value the reading used, so a field that restates it can be checked."""
        self.settled[quantity] = (value, field)

    def warn(self, text: str) -> None:
        """A caveat on the reading, shown wherever the model's figures are (describe(),
        Fit.warnings, the widgets)."""
        if text not in self.warnings:
            self.warnings.append(text)

    @property
    def read_keys(self) -> set[str]:
        return self.cfg.read if isinstance(self.cfg, ReadTracker) else set(self.cfg)

    def note(self, key: str, text: str) -> None:
        """Provenance for a value derived from several fields or estimated."""
        self.provenance[key] = text
