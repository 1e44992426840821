"""A Model: layer groups with counts, a parameter count, and where each number came from."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .dtypes import WeightFormat, dtype_bits, weight_format, weight_format_name
from .errors import ConfigError, InputError, check_int
from .layers import (
    CrossAttentionSpec,
    FullAttentionSpec,
    LayerGroup,
    LayerSpec,
    MLASpec,
    SlidingWindowSpec,
)


@dataclass(frozen=True)
class Model:
    """What kvwidgets knows about one model.

    groups            the attention layers, grouped by identical spec
    params            total parameter count (all experts of an MoE included)
    num_query_heads   attention (query) heads, kept to show the "query heads" mistake
    provenance        field -> where the number came from (config file, Hub metadata...)
    num_experts, experts_per_token, routed_expert_params
                      for a mixture of experts: each token runs experts_per_token of the
                      num_experts routed experts, so it computes with (and a small batch
                      reads) far fewer parameters than are held in memory
    max_context       max_position_embeddings: the longest context the model was built
                      for; past_max_context() / context_warning() say when a figure is
                      asked for beyond it (the arithmetic still answers)
    engine_notes      sentences to show beside every figure of this model: serving engines
                      that no longer run its architecture (kvwidgets/configs/engine_support.py)
                      and caveats on how its config was read (ConfigView.warn); Fit.warnings,
                      describe() and the widgets all show them
    """

    name: str
    groups: tuple[LayerGroup, ...]
    params: int
    params_source: str = "given"
    num_query_heads: int | None = None
    weight_dtype: str = "bf16"
    max_context: int | None = None
    provenance: Mapping[str, str] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)
    num_experts: int = 0
    experts_per_token: int = 0
    routed_expert_params: int = 0
    engine_notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.groups:
            raise ConfigError(f"model {self.name!r} has no attention layers")
        check_int("params", self.params, minimum=1)
        object.__setattr__(self, "groups", tuple(self.groups))
        object.__setattr__(self, "engine_notes", tuple(self.engine_notes))
        if self.max_context is not None:
            check_int("max_position_embeddings", self.max_context, minimum=1)
        object.__setattr__(self, "weight_dtype", weight_format_name(self.weight_dtype, "weight_dtype"))
        if self.num_experts:
            check_int("num_experts", self.num_experts, minimum=1)
            check_int("experts_per_token", self.experts_per_token, minimum=1)
            check_int("routed_expert_params", self.routed_expert_params)
            if self.experts_per_token > self.num_experts:
                raise ConfigError(
                    f"experts_per_token={self.experts_per_token} is more than num_experts={self.num_experts}"
                )

    # ---- shape -------------------------------------------------------------------
    @property
    def num_layers(self) -> int:
        return sum(g.count for g in self.groups)

    def count(self, kind: str) -> int:
        """Layers of one kind ('full', 'sliding', 'chunked', 'cross', 'mla', 'recurrent')."""
        return sum(g.count for g in self.groups if g.spec.kind == kind)

    @property
    def is_uniform(self) -> bool:
        return len(self.groups) == 1

    @property
    def attention_kind(self) -> str:
        kinds = sorted({g.spec.kind for g in self.groups})
        return kinds[0] if len(kinds) == 1 else "hybrid(" + "+".join(kinds) + ")"

    # ---- the contract ----------------------------------------------------------------
    def _whole_bytes(self, bits_of: Callable[[LayerSpec], int], kind: str | None = None) -> int:
        """Bits summed over the layer groups (of one kind), rounded up to whole bytes once.

        The one way every byte total here is made: integers throughout, so totals are exact
        (int4 on an odd count rounds up once, not per layer) and cheap in sweeps.
        """
        bits = sum(g.count * bits_of(g.spec) for g in self.groups if kind is None or g.spec.kind == kind)
        return -(-bits // 8)

    def _fixed_bytes(self, tp: int, kind: str | None = None) -> int:
        return sum(
            g.count * g.spec.fixed_bytes(tp) for g in self.groups if kind is None or g.spec.kind == kind
        )

    def kv_bytes_per_token(self, kv_dtype: str = "bf16", tp: int = 1) -> int:
        """Bytes each extra token adds once the conversation is longer than every window."""
        bits = dtype_bits(kv_dtype, "kv_dtype")
        return self._whole_bytes(lambda s: 0 if s.token_cap is not None else s.token_bits(bits, tp))

    def kv_bytes_per_token_within_windows(self, kv_dtype: str = "bf16", tp: int = 1) -> int:
        """Bytes each token adds while the conversation is shorter than every window.

        Every layer that grows counts (windows and chunks not yet full); recurrent state
        and cross-attention image tokens are fixed per sequence, not per token, so they
        add nothing. For a sliding-everywhere model this is the figure to show beside
        kv_bytes_per_token(), which is 0 once every layer is capped.
        """
        bits = dtype_bits(kv_dtype, "kv_dtype")
        return self._whole_bytes(lambda s: s.token_bits(bits, tp) if s.grows else 0)

    def kv_bytes_per_token_by_kind(self, kv_dtype: str = "bf16", tp: int = 1) -> dict[str, int]:
        """kv_bytes_per_token_within_windows split by layer kind (what each kind adds per token)."""
        bits = dtype_bits(kv_dtype, "kv_dtype")
        kinds = dict.fromkeys(g.spec.kind for g in self.groups)
        return {k: self._whole_bytes(lambda s: s.token_bits(bits, tp) if s.grows else 0, k) for k in kinds}

    def kv_bytes(self, tokens: int, kv_dtype: str = "bf16", tp: int = 1) -> int:
        """Bytes one sequence of `tokens` tokens holds (per GPU under tensor parallelism tp).

        Windowed layers are capped at their window, recurrent state and cross-attention
        image tokens are added once. A context past max_context is still answered (the
        arithmetic holds); past_max_context() / context_warning() say so.
        """
        tokens = check_int("context", tokens)
        bits = dtype_bits(kv_dtype, "kv_dtype")
        return self._whole_bytes(lambda s: s.bits_held(tokens, bits, tp)) + self._fixed_bytes(tp)

    def bytes_by_kind(self, tokens: int, kv_dtype: str = "bf16", tp: int = 1) -> dict[str, int]:
        """kv_bytes split by layer kind, for stacked bars and readouts."""
        tokens = check_int("context", tokens)
        bits = dtype_bits(kv_dtype, "kv_dtype")
        kinds = dict.fromkeys(g.spec.kind for g in self.groups)
        return {
            k: self._whole_bytes(lambda s: s.bits_held(tokens, bits, tp), k) + self._fixed_bytes(tp, k)
            for k in kinds
        }

    def past_max_context(self, context: int) -> bool:
        """True when `context` is longer than max_position_embeddings (when that is known)."""
        context = check_int("context", context)
        return self.max_context is not None and context > self.max_context

    def context_warning(self, context: int) -> str | None:
        """A sentence for results and widgets when `context` is past max_position_embeddings."""
        if not self.past_max_context(context):
            return None
        where = self.provenance.get("max_position_embeddings", "the config")
        return (
            f"context {context:,} is past {self.name}'s max_position_embeddings of {self.max_context:,} "
            f"({where}); the model was not built for it and serving engines refuse a longer "
            "max_model_len unless told otherwise, so treat this figure as arithmetic only"
        )

    def weight_format(self, weight_dtype: str | None = None) -> WeightFormat:
        """The weight format asked for (default: the checkpoint's own), checked against the model.

        A mixed format such as 'mxfp4' stores routed experts in one format and the rest in
        another, so it means nothing for a model without routed experts: that is an error,
        not a silent 16-bit figure.
        """
        fmt = weight_format(weight_dtype or self.weight_dtype, "weight_dtype")
        if fmt.mixed and not (self.num_experts and self.routed_expert_params):
            raise InputError(
                f"weight_dtype {fmt.name!r} stores the routed experts of a mixture of experts in "
                f"{float(fmt.routed_bits):g} bits and every other weight in {float(fmt.other_bits):g}; "
                f"{self.name} has no routed experts, so pick one format for all weights "
                "(for example 'int4' or 'fp8')"
            )
        return fmt

    def weight_bytes(self, weight_dtype: str | None = None, params: int | None = None) -> int:
        """Parameters x bytes per parameter, each part in its own format (whole bytes, rounded up).

        With a plain dtype every parameter has the same size (the series' convention); with a
        mixed format ('mxfp4') the routed experts and the rest are counted apart.
        """
        fmt = self.weight_format(weight_dtype)
        p, routed = self._routed(params)
        return fmt.total_bytes(p, routed)

    def decode_weight_bytes(
        self, batch: int, weight_dtype: str | None = None, params: int | None = None
    ) -> float:
        """Bytes of weights one decode step of `batch` sequences reads (expected value).

        decode_weight_params in bytes: with a mixed format, the shared part at its own size
        and the routed experts the batch picked at theirs. The operation order is the
        browser's (js/calc/model.js decodeWeightBytes), so both give the same double.
        """
        fmt = self.weight_format(weight_dtype)
        read = self.decode_weight_params(batch, params)
        if not fmt.mixed:
            return read * float(fmt.routed_bits) / 8
        p, routed = self._routed(params)
        shared = p - routed
        return shared * float(fmt.other_bits) / 8 + (read - shared) * float(fmt.routed_bits) / 8

    def _routed(self, params: int | None) -> tuple[int, int]:
        """(total params, routed-expert params) with an override of the total applied."""
        p = self.params if params is None else check_int("params", params, minimum=1)
        return p, min(self.routed_expert_params, p) if self.num_experts else 0

    def active_params(self, params: int | None = None) -> int:
        """Parameters one token computes with: everything but the routed experts it skips.

        Equal to params for a dense model. Prefill and recompute FLOPs follow this.
        """
        p, routed = self._routed(params)
        if not routed:
            return p
        return p - routed * (self.num_experts - self.experts_per_token) // self.num_experts

    def decode_weight_params(self, batch: int, params: int | None = None) -> float:
        """Parameters one decode step of `batch` sequences reads (expected value).

        Dense: all of them. MoE: the shared part plus each routed expert that at least one
        sequence picked; with every token choosing experts_per_token of num_experts
        uniformly, an expert is left untouched with probability (1 - k/E)^batch. Real
        routing is not uniform, so this is an estimate between active and total.
        The power is a plain loop so the browser's JavaScript gets the same bits.
        """
        batch = check_int("batch", batch, minimum=1)
        p, routed = self._routed(params)
        if not routed:
            return float(p)
        miss = 1 - self.experts_per_token / self.num_experts
        untouched = 1.0
        for _ in range(batch):
            untouched *= miss
        return p - routed * untouched

    # ---- variants ----------------------------------------------------------------------
    def with_params(self, params: int, source: str = "given") -> Model:
        return replace(self, params=check_int("params", params, minimum=1), params_source=source)

    def with_kv_heads(self, num_kv_heads: int, name: str | None = None) -> Model:
        """Same model with every full/sliding layer given another KV-head count (MQA/MHA shapes)."""
        groups = []
        for g in self.groups:
            spec = g.spec
            if isinstance(spec, FullAttentionSpec):
                spec = replace(spec, num_kv_heads=num_kv_heads)
            groups.append(LayerGroup(spec, g.count))
        return replace(self, name=name or f"{self.name} ({num_kv_heads} KV heads)", groups=tuple(groups))

    def as_full_attention(self, name: str | None = None) -> Model:
        """Same model with every window removed: what an engine that ignores windows sizes."""
        groups: dict[LayerSpec, int] = {}
        for g in self.groups:
            spec = g.spec
            windowed = isinstance(spec, FullAttentionSpec) and not isinstance(spec, CrossAttentionSpec)
            if windowed and type(spec) is not FullAttentionSpec:
                spec = FullAttentionSpec(spec.num_kv_heads, spec.head_size, spec.head_size_v)
            groups[spec] = groups.get(spec, 0) + g.count
        return replace(
            self,
            name=name or f"{self.name} (every layer full)",
            groups=tuple(LayerGroup(s, c) for s, c in groups.items()),
        )

    def as_mha(self, name: str | None = None, *, mla_form: str = "expanded") -> Model:
        """Same model stored as plain multi-head attention: one K and V per query head.

        GQA/MQA layers get num_query_heads KV heads (windows kept). MLA layers become a
        plain MHA cache of the same model; mla_form says which head sizes:
          "expanded"  (default) keys of qk_nope_head_dim + qk_rope_head_dim and values of
                      v_head_dim: the keys and values MLA's up-projections produce, what an
                      engine holds if it caches them whole (DeepSeek-V3: 192 + 128; the
                      series' 4,997,120 B per token)
          "paper"     keys and values of the attention head size d_h = qk_nope_head_dim,
                      no decoupled RoPE key: the MHA the DeepSeek-V2 paper compares MLA
                      with (its Table 1: 2 n_h d_h l elements per token; V2-Lite
                      2 x 16 x 128 x 27 = 110,592)
        The loader keeps those sizes in extra["mla_key_dim"], extra["mla_value_dim"] and
        extra["mla_nope_dim"]. Recurrent state is left as it is.
        """
        if mla_form not in ("expanded", "paper"):
            raise ConfigError(f"mla_form must be 'expanded' or 'paper', got {mla_form!r}")
        if not self.num_query_heads:
            raise ConfigError(
                f"model {self.name!r} has no num_query_heads (num_attention_heads), "
                "so it cannot be written as MHA; give the query-head count"
            )
        heads = self.num_query_heads
        groups: dict[LayerSpec, int] = {}
        for g in self.groups:
            spec = g.spec
            if isinstance(spec, FullAttentionSpec):
                spec = replace(spec, num_kv_heads=heads)
            elif isinstance(spec, MLASpec):
                key, value = self.extra.get("mla_key_dim"), self.extra.get("mla_value_dim")
                if mla_form == "paper":
                    key = value = self.extra.get("mla_nope_dim")
                if not key or not value:
                    raise ConfigError(
                        f"model {self.name!r} is MLA but has no extra['mla_key_dim'] / "
                        "extra['mla_value_dim'] / extra['mla_nope_dim'] (qk_nope_head_dim + "
                        "qk_rope_head_dim, v_head_dim, qk_nope_head_dim)"
                    )
                spec = FullAttentionSpec(heads, key, value)
            groups[spec] = groups.get(spec, 0) + g.count
        return replace(
            self,
            name=name or f"{self.name} (as MHA)",
            groups=tuple(LayerGroup(s, c) for s, c in groups.items()),
        )

    # ---- description ---------------------------------------------------------------------
    @property
    def params_estimated(self) -> bool:
        """True when params was estimated from the config, not read from a checkpoint or given."""
        return "ESTIMATE" in str(self.params_source)

    def describe(self) -> str:
        """One line per model, then one per engine note / reading caveat (the same sentences
        Fit.warnings and the widgets show)."""
        parts = [f"{g.count} x {g.spec.describe()}" for g in self.groups]
        estimate = " (estimate)" if self.params_estimated else ""
        line = f"{self.name}: " + "; ".join(parts) + f"; {self.params / 1e9:,.2f} B params{estimate}"
        return "\n".join([line, *(f"  note: {n}" for n in self.engine_notes)])

    def shape(self) -> dict[str, Any]:
        """The compact JSON the widgets' JavaScript evaluates (numbers, not bytes:
        the dtype is applied in the browser so a dtype menu needs no kernel). Each layer
        group writes its own part (LayerGroup.browser_data, from its spec's class)."""
        groups = [g.browser_data() for g in self.groups]
        return {
            "name": self.name,
            "params": self.params,
            "query_heads": self.num_query_heads,
            "max_context": self.max_context,
            "groups": groups,
            # mixture of experts: what a decode step reads depends on the batch's routing
            "moe": (
                {
                    "experts": self.num_experts,
                    "per_token": self.experts_per_token,
                    "routed_params": self.routed_expert_params,
                }
                if self.num_experts
                else None
            ),
        }

    def __repr__(self) -> str:  # a one-liner a notebook can print
        return f"<Model {self.describe().splitlines()[0]}>"


def uniform_model(
    name: str,
    layers: int,
    kv_heads: int,
    head_dim: int,
    params: int,
    *,
    query_heads: int | None = None,
    window: int | None = None,
    **kw: Any,
) -> Model:
    """Shortcut for the textbook case: `layers` identical full (or sliding) layers."""
    layers = check_int("num_hidden_layers", layers, minimum=1)
    spec: LayerSpec
    if window:
        spec = SlidingWindowSpec(kv_heads, head_dim, window=window)
    else:
        spec = FullAttentionSpec(kv_heads, head_dim)
    return Model(name, (LayerGroup(spec, layers),), params, num_query_heads=query_heads, **kw)
