"""vLLM's KV accounting for any model, as a named vLLM version logs it, and a parser for the lines.

vLLM measures the memory left for the cache at start-up, groups the layers into KV cache
groups (kvwidgets.core.vllm_groups), cuts the memory into blocks and logs
    Available KV cache memory: 60.5 GiB
    GPU KV cache size: 396,272 tokens
    Maximum concurrency for 16,384 tokens per request: 24.19x
(0.33 logs the last two on one line). The concurrency is blocks / blocks one
max-length request needs, summed over the groups (a sliding group needs its window and
the tokens in flight, not the whole length): how many requests could use all of
--max-model-len at once. It is not a cap on running requests.

The token count is computed differently by version:
  0.11  num_blocks // num_groups * block_size   (0.11.0 v1/core/kv_cache_utils.py,
        get_kv_cache_config_from_groups)
  0.33  int(max_concurrency * max_model_len)    (0.33.0 v1/core/kv_cache_utils.py,
        get_kv_cache_capacity)
For a hybrid model neither is "tokens x bytes per token": the 0.11 figure counts one
group's blocks, the 0.33 figure is concurrency times length.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .budget import memory_budget
from .dtypes import PACKED_KV_FORMATS
from .errors import InputError, check_int
from .gpus import GPU
from .layers import LayerGroup
from .model import Model
from .vllm_groups import KVCacheGroup, Plan, plan_kv_cache
from .vllm_rules import VersionRules, mamba_checkpoint
from .vllm_settings import ResolvedSettings, VLLMSettings, merge_settings
from .vllm_specs import IndexerCache, MambaCache, MLACache, gib, layer_cache_specs


@dataclass(frozen=True)
class VLLMReport:
    kv_cache_bytes: int  # per GPU: num_blocks x the bytes one block takes across the layers
    num_blocks: int
    block_size: int  # attention block size (raised for a mamba hybrid)
    gpu_kv_cache_tokens: int  # "GPU KV cache size: N tokens", as the version computes it
    max_model_len: int
    max_concurrency: float  # "Maximum concurrency for L tokens per request: Xx"
    vllm_version: str = "0.33"
    available_bytes: int = 0  # memory given to the cache, per GPU
    groups: tuple[KVCacheGroup, ...] = ()
    page_size_bytes: int = 0  # one layer's block (or the summed page of a one-type group)
    bytes_per_block: int = 0  # one block id across the layers of a group
    group_size: int = 0
    padding_layers: int = 0
    hybrid_allocator: bool = True
    layout: str = "one spec"
    blocks_per_request: int = 0
    needed_bytes: int = 0  # vLLM's start-up check: one request at max_model_len
    max_num_batched_tokens: int = 0
    model_name: str = ""
    num_gpus: int = 1
    kv_dtype: str = "bf16"
    memory_source: str = ""
    flat_tokens: int = 0  # memory / bytes a token takes in every attention layer (no groups, no windows)
    notes: tuple[str, ...] = field(default=())
    decode_context_parallel_size: int = 1
    mamba_cache_mode: str = ""  # the mode the state pages were counted in ("" : no state layers)

    @property
    def starts(self) -> bool:
        """False where vLLM refuses to start: not even one max-length request fits."""
        return (
            0
            < self.needed_bytes
            <= self.available_bytes - (self.bytes_per_block if self.vllm_version != "0.11" else 0)
        )

    def available_line(self) -> str:
        g = gib(self.available_bytes)
        # 0.11.0 v1/worker/gpu_worker.py "%.2f GiB"; 0.33.0 utils/mem_utils.py format_gib: round(x, 2)
        value = f"{g:.2f}" if self.vllm_version == "0.11" else f"{round(g, 2)}"
        return f"Available KV cache memory: {value} GiB"

    def log_lines(self, *, memory: bool = False) -> str:
        """The lines this vLLM version logs (memory=True adds the 'Available KV cache memory' line)."""
        tokens = f"GPU KV cache size: {self.gpu_kv_cache_tokens:,} tokens"
        conc = (
            f"Maximum concurrency for {self.max_model_len:,} tokens per request: {self.max_concurrency:.2f}x"
        )
        lines = [tokens + ", " + conc] if self.vllm_version != "0.11" else [tokens, conc]
        return "\n".join(([self.available_line()] if memory else []) + lines)

    def explain(self) -> str:
        """The result in words: groups, page, blocks, and why the numbers are what they are."""
        out = [*self._explain_setting(), *self.notes, self._explain_layout()]
        out += self._explain_groups()
        out += self._explain_sizes()
        out += self._explain_flat_and_refusal()
        return "\n".join(out)

    def _explain_setting(self) -> list[str]:
        """The version, model and flags, and the memory the cache gets."""
        return [
            f"vLLM {self.vllm_version} accounting for {self.model_name or 'the model'}: "
            f"{self.kv_dtype} cache, max_model_len {self.max_model_len:,}"
            + (f", tensor parallel {self.num_gpus} (figures per GPU)" if self.num_gpus > 1 else "")
            + (
                f", decode context parallel {self.decode_context_parallel_size}"
                if self.decode_context_parallel_size > 1
                else ""
            )
            + ".",
            f"Memory for the cache: {self.available_bytes:,} B = {gib(self.available_bytes):.2f} GiB "
            f"({self.memory_source}).",
        ]

    def _explain_layout(self) -> str:
        """How the layers were grouped: hybrid groups, one group of one type, or one spec."""
        if self.layout == "hybrid":
            return (
                f"Hybrid allocator: {len(self.groups)} KV cache groups of {self.group_size} layers each "
                f"({self.padding_layers} padding layer{'s' if self.padding_layers != 1 else ''}); "
                f"every group uses one page size, {self.page_size_bytes:,} B per layer per block."
            )
        if self.layout == "one type":
            return (
                f"One KV cache group holding every layer; a block is {self.page_size_bytes:,} B across them."
            )
        return (
            f"One KV cache group of {self.groups[0].layers} identical layers; "
            f"a page is {self.page_size_bytes:,} B per layer per block of {self.block_size} tokens."
        )

    def _explain_groups(self) -> list[str]:
        """A line per run of consecutive groups of one kind: layers, block, blocks a request needs."""
        out = []
        n = len(self.groups)
        i = 0
        while i < n:
            g = self.groups[i]
            j = i
            while j + 1 < n and (self.groups[j + 1].what, self.groups[j + 1].rule) == (g.what, g.rule):
                j += 1
            run = self.groups[i : j + 1]
            layers = sum(x.layers for x in run)
            pad = sum(x.padding for x in run)
            name = f"group {i}" if i == j else f"groups {i}-{j}"
            pad_words = f" + {pad} padding" if pad else ""
            each = " each" if i != j else ""
            blocks = f"{g.blocks_per_request:,} block{'s' if g.blocks_per_request != 1 else ''}"
            out.append(
                f"  {name}: {layers}{pad_words} x {g.what}; block of {g.block_size:,} tokens; "
                f"a max-length request needs {blocks}{each}: {g.rule}"
            )
            i = j + 1
        return out

    def _explain_sizes(self) -> list[str]:
        """num_blocks, maximum concurrency and the logged GPU KV cache size, by the version's rule."""
        n = len(self.groups)
        out = [
            f"One block id takes {self.bytes_per_block:,} B (group size x page), so "
            f"num_blocks = {self.available_bytes:,} // {self.bytes_per_block:,} = {self.num_blocks:,}.",
            f"Maximum concurrency = {self.num_blocks:,} / {self.blocks_per_request:,} blocks per request "
            f"= {self.max_concurrency:.2f}x.",
        ]
        if self.vllm_version == "0.11":
            dcp = self.decode_context_parallel_size
            out.append(
                f"GPU KV cache size = num_blocks // {n} group{'s' if n > 1 else ''} x "
                f"{self._min_block()}"
                + (f" x {dcp} DCP ranks" if dcp > 1 else "")
                + f" = {self.gpu_kv_cache_tokens:,} tokens (0.11 counts one group's blocks)."
            )
        else:
            out.append(
                f"GPU KV cache size = int(concurrency x {self.max_model_len:,}) = "
                f"{self.gpu_kv_cache_tokens:,} tokens (0.33 rule)."
            )
        return out

    def _explain_flat_and_refusal(self) -> list[str]:
        """What bytes-per-token arithmetic would say, and why vLLM would refuse to start."""
        out = []
        if self.flat_tokens:
            ratio = self.gpu_kv_cache_tokens / self.flat_tokens
            out.append(
                "Bytes-per-token arithmetic (every attention layer keeping every token"
                + (", state pages left out" if any(g.kind == "mamba" for g in self.groups) else "")
                + f") would give {self.flat_tokens:,} tokens; the logged figure is {ratio:.2f} times that."
            )
        if self.available_bytes <= 0:
            out.append(
                "vLLM would refuse to start: no available memory for the cache blocks "
                "(the weights take the whole budget)."
            )
        elif not self.starts:
            out.append(
                f"vLLM would refuse to start: one request at max_model_len needs {self.needed_bytes:,} B "
                f"({gib(self.needed_bytes):.2f} GiB), more than the cache memory."
            )
        return out

    @property
    def summary(self) -> str:
        return self.explain()

    def as_dict(self) -> dict:
        """Plain numbers and strings (groups as dicts), for a widget's JSON or a table."""
        d = asdict(self)
        d["starts"] = self.starts
        return d

    def _min_block(self) -> int:
        return min(g.block_size for g in self.groups) if self.groups else self.block_size


def _mamba_kind(model: Model, given: str | None) -> str | None:
    """Mamba-1, Mamba-2 or Gated DeltaNet: given, carried by the layer spec, or named in the
    provenance the config loader writes for the state size; None when nothing says. (A given
    kind was checked against MAMBA_KINDS when the settings were resolved.)"""
    if given is not None:
        return given
    for g in model.groups:
        kind = getattr(g.spec, "mamba_type", None)
        if kind:
            return {"gated_delta_net": "gdn", "linear_attention": "gdn"}.get(
                str(kind).lower(), str(kind).lower()
            )
    text = str(model.provenance.get("recurrent_state_bytes", ""))
    for marker, kind in (("Gated DeltaNet", "gdn"), ("Mamba-2", "mamba2"), ("Mamba-1", "mamba1")):
        if marker in text:
            return kind
    return None


# kvwidgets GPUs of CUDA capability family 100 (Blackwell B200)
SM100_GPUS = frozenset({"B200"})


def _model_notes(
    model: Model, rules: VersionRules, specs, *, kv_dtype, block_size, max_model_len, gpu_name=None
) -> tuple[str, ...]:
    """What vLLM would do or refuse for this model and these settings, beyond the arithmetic."""
    notes = list(getattr(model, "engine_notes", ()) or ())
    if (
        rules.version == "0.33"
        and model.extra.get("model_type") == "glm_moe_dsa"
        and gpu_name in SM100_GPUS
        and kv_dtype in ("bf16", "fp16")
    ):
        notes.append(
            f"On {gpu_name} (SM100) vLLM 0.33.0 gives GlmMoeDsaForCausalLM an fp8_e4m3 cache when "
            "--kv-cache-dtype is auto (model_executor/models/config.py, GlmMoeDsaForCausalLM."
            "verify_and_update_config); these figures are for the 16-bit cache asked for "
            "(--kv-cache-dtype bfloat16): pass kv_dtype='fp8' for vLLM's default."
        )
    packed = PACKED_KV_FORMATS.get(str(kv_dtype).strip().lower())
    if packed is not None:
        d = next((g.spec.head_size for g in model.groups if getattr(g.spec, "head_size", None)), None)
        size = f" ({packed.head_bytes(d)} B a key or value of {d} numbers)" if d else ""
        notes.append(f"KV format {packed.name}: {packed.source}{size}.")
    if rules.version == "0.11" and kv_dtype != "fp8" and any(isinstance(s, IndexerCache) for s, _ in specs):
        notes.append(
            "vLLM 0.11 stores DeepSeek-V3.2's cache as fp8_ds_mla (656 B a token) unless "
            "--kv-cache-dtype bfloat16 is given (model_executor/models/config.py, DeepseekV32ForCausalLM); "
            "these figures are for the bfloat16 cache asked for."
        )
    if model.max_context and max_model_len > model.max_context:
        notes.append(
            f"max_model_len {max_model_len:,} is past the model's context ({model.max_context:,}): vLLM "
            "refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (config/model.py, _get_and_verify_max_len)."
        )
    if any(type(s) is MLACache for s, _ in specs) and block_size % 64:
        # 0.11.0 platforms/cuda.py sets 64 (FlashMLA, sparse) or 128 (CUTLASS MLA); 0.33.0's
        # FlashMLA takes multiples of 64 (get_supported_kernel_block_sizes) and picks 64.
        notes.append(
            f"Block size {block_size}: on NVIDIA GPUs vLLM runs MLA with 64-token blocks (FlashMLA; 128 "
            "with CUTLASS MLA on Blackwell); pass block_size=64 to match a real run."
        )
    return tuple(notes)


def mtp_draft(model: Model, layers: int = 1, *, params: int | None = None) -> Model:
    """The draft vLLM runs for a model's own next-token-prediction layers (MTP:
    DeepSeek-V3's num_nextn_predict_layers, Qwen3-Next, GLM-4.5, MiMo): `layers` decoder
    layers whose attention is the target's full-attention (or MLA) layer
    (0.33.0 model_executor/models/deepseek_mtp.py builds a DeepseekV2DecoderLayer,
    qwen3_next_mtp.py a full-attention Qwen3NextDecoderLayer, per MTP layer).

    params: the draft's weights for the memory budget; by default the target's parameters
    per layer times `layers`, marked as an estimate (params_source)."""
    layers = check_int("layers", layers, minimum=1)
    grows = [g.spec for g in model.groups if g.spec.token_cap is None and g.spec.numbers_per_token(1) > 0]
    # an MTP layer of a DSA model builds its indexer whatever index_topk_freq skips (0.33.0
    # models/deepseek_v32/attention.py, DeepseekV32Attention.__init__: "not skip_topk or is_mtp_layer")
    spec = next((s for s in grows if getattr(s, "index_bytes", 0)), grows[0] if grows else None)
    if spec is None:
        raise InputError(f"model {model.name!r} has no full-attention or MLA layer for an MTP draft to copy")
    total = sum(g.count for g in model.groups)
    source = "given"
    if params is None:
        params, source = (
            max(1, model.params * layers // total),
            "estimated: the target's parameters per layer",
        )
    return Model(
        f"{model.name} MTP x{layers}",
        (LayerGroup(spec, layers),),
        check_int("params", params, minimum=1),
        params_source=source,
        max_context=model.max_context,
    )


def _draft_specs(model: Model, draft: Model, r: ResolvedSettings, target: list) -> tuple[list, str]:
    """The target's specs with the draft's joined to them, and a note saying how many.

    vLLM collects every attention layer in the static forward context, the drafter's
    included, into one dict of specs (0.11.0 v1/worker/gpu_model_runner.py get_kv_cache_spec;
    0.33.0 the same, with KVCacheSpec.is_draft excluded from equality "so it never affects
    grouping"): a draft layer shaped like a target layer joins its group, any other makes a
    group of its own, and all of them draw blocks from the one pool."""
    draft_specs = layer_cache_specs(
        draft,
        kv_dtype=r.kv_dtype,
        tp=r.num_gpus,
        block_size=r.block_size,
        version=r.rules.version,
        num_spec=r.num_speculative_tokens,
    )
    merged: dict = dict(target)
    for s, n in draft_specs:
        merged[s] = merged.get(s, 0) + n
    layers = sum(n for _, n in draft_specs)
    joined = sum(1 for s, _ in draft_specs if s in dict(target))
    how = (
        "shaped like the target's, so they join its groups"
        if joined == len(draft_specs)
        else "their own spec, so they add a KV cache group"
        if joined == 0
        else "some shaped like the target's layers, some with their own group"
    )
    note = (
        f"Speculative decoding: the draft {draft.name!r} adds {layers} attention layer{'s' if layers != 1 else ''} "
        f"to the pool ({how}); {r.num_speculative_tokens} speculative token{'s' if r.num_speculative_tokens != 1 else ''}."
    )
    return list(merged.items()), note


def _plan(model: Model, r: ResolvedSettings) -> tuple[Plan, int]:
    """The groups, and the bytes a token takes across every attention layer (for the flat count)."""
    rules = r.rules
    specs = layer_cache_specs(
        model,
        kv_dtype=r.kv_dtype,
        tp=r.num_gpus,
        block_size=r.block_size,
        version=rules.version,
        num_spec=r.num_speculative_tokens,
    )
    target_specs = specs
    draft_note = ""
    if r.draft is not None:
        specs, draft_note = _draft_specs(model, r.draft, r, specs)
    kind = _mamba_kind(model, r.mamba_kind)
    extra, grid, why = 0, 1, ""
    spec_blocks = 0
    has_state = any(isinstance(s, MambaCache) for s, _ in specs)
    if has_state:
        extra, grid, why = mamba_checkpoint(rules, r.mamba_cache_mode, kind, r.gpu_name)
        if kind is None and rules.version != "0.11" and r.mamba_cache_mode == "align":
            why = (
                "The kind of state layer is not known (pass mamba_kind='mamba2' or 'gdn'): counted without "
                "the prefill-checkpoint page those layers keep."
            )
        specs = [(replace(s, checkpoint=extra) if isinstance(s, MambaCache) else s, n) for s, n in specs]
        # MambaSpec.num_speculative_blocks = num_speculative_tokens: one more state page a draft
        # token, counted by 0.33.0 max_memory_usage_bytes (model_executor/layers/mamba/abstract.py
        # get_kv_cache_spec); 0.11.0's MambaSpec.max_memory_usage_bytes counts one page whatever it is
        spec_blocks = r.num_speculative_tokens if rules.version != "0.11" else 0
    plan = plan_kv_cache(
        specs,
        rules,
        max_model_len=r.max_model_len,
        block_size=r.block_size,
        hybrid=r.hybrid_kv_cache_manager,
        max_num_batched_tokens=r.max_num_batched_tokens,
        async_scheduling=r.async_scheduling,
        mamba_cache_mode=r.mamba_cache_mode,
        checkpoint_grid=grid,
        dcp=r.dcp,
        speculative_blocks=spec_blocks,
    )
    lead = tuple(x for x in (why,) if x) + r.assumed
    if draft_note:
        lead += (draft_note,)
    if has_state and r.num_speculative_tokens and rules.version == "0.11":
        lead += (
            "vLLM 0.11 runs speculative decoding with mamba layers for Qwen3-Next only (gpu_model_runner.py "
            "get_kv_cache_spec), and counts one state page a request whatever the draft tokens.",
        )
    if r.dcp > 1:
        lead += (
            f"Decode context parallel over {r.dcp} ranks: each GPU keeps every {r.dcp}th token of a request, so a "
            "full-attention request needs cdiv(max_model_len, dcp) tokens of blocks on each"
            + (
                f"; vLLM 0.11 logs 'Multiplying the GPU KV cache size by the dcp_world_size {r.dcp}.' "
                "(v1/core/kv_cache_utils.py get_kv_cache_config_from_groups)."
                if rules.version == "0.11"
                else "."
            ),
        )
    notes = _model_notes(
        model,
        rules,
        target_specs,
        kv_dtype=r.kv_dtype,
        block_size=r.block_size,
        max_model_len=r.max_model_len,
        gpu_name=r.gpu_name,
    )
    plan = replace(plan, notes=notes + lead + plan.notes)
    per_token = sum(n * s.per_token for s, n in specs)
    return plan, per_token


def _tokens(
    rules: VersionRules, plan: Plan, num_blocks: int, max_model_len: int, dcp: int = 1
) -> tuple[int, float, int]:
    per_request = sum(g.blocks_per_request for g in plan.groups)
    concurrency = num_blocks / per_request
    if rules.tokens_rule == "blocks_per_group":
        tokens = num_blocks // len(plan.groups) * min(g.block_size for g in plan.groups)
        # "Multiplying the GPU KV cache size by the dcp_world_size" (0.11.0 v1/core/kv_cache_utils.py
        # get_kv_cache_config_from_groups); 0.33's concurrency x length already counts the split
        tokens *= dcp
    else:
        tokens = int(concurrency * max_model_len)
    return tokens, concurrency, per_request


def _build(
    model: Model,
    r: ResolvedSettings,
    plan: Plan,
    *,
    num_blocks: int,
    available: int,
    source: str,
    per_token: int,
    extra_notes: tuple[str, ...] = (),
) -> VLLMReport:
    tokens, concurrency, per_request = _tokens(r.rules, plan, num_blocks, r.max_model_len, r.dcp)
    return VLLMReport(
        kv_cache_bytes=num_blocks * plan.bytes_per_block,
        num_blocks=num_blocks,
        block_size=plan.block_size,
        gpu_kv_cache_tokens=tokens,
        max_model_len=r.max_model_len,
        max_concurrency=concurrency,
        vllm_version=r.rules.version,
        available_bytes=available,
        groups=plan.groups,
        page_size_bytes=plan.page_size,
        bytes_per_block=plan.bytes_per_block,
        group_size=plan.group_size,
        padding_layers=plan.padding_layers,
        hybrid_allocator=plan.hybrid_allocator,
        layout=plan.layout,
        blocks_per_request=per_request,
        needed_bytes=plan.needed_bytes,
        max_num_batched_tokens=r.max_num_batched_tokens,
        model_name=model.name,
        num_gpus=r.num_gpus,
        kv_dtype=r.kv_dtype,
        memory_source=source,
        flat_tokens=available // per_token if per_token else 0,
        notes=plan.notes + extra_notes,
        decode_context_parallel_size=r.dcp,
        mamba_cache_mode=r.mamba_cache_mode if any(g.kind == "mamba" for g in plan.groups) else "",
    )


def vllm_kv_report(
    model: Model,
    gpu: str | GPU | None = None,
    *,
    settings: VLLMSettings | None = None,
    kv_cache_memory_bytes: int | None = None,
    utilization: float = 0.9,
    weight_dtype: str = "bf16",
    working_bytes: int = 0,
    params: int | None = None,
    memory: str = "marketed",
    **flags: Any,
) -> VLLMReport:
    """What the named vLLM version would log, per GPU under tensor parallelism `num_gpus`.

    The engine flags are one VLLMSettings: settings=VLLMSettings(max_model_len=..., ...).
    Each of its fields may also be given as a keyword (vllm_kv_report(m, gpu,
    max_model_len=8192)); keywords are merged into settings=, a keyword that contradicts a
    value settings= states is an InputError, and a misspelt one a TypeError naming the
    valid ones. The cache memory is exactly `kv_cache_memory_bytes` when given (vLLM's
    --kv-cache-memory-bytes, per GPU), else the GPU's budget: memory x utilization - weights
    (the draft's too) - working area (kvwidgets' convention; vLLM 0.33's own default
    utilization is 0.92). max_model_len defaults to the model's context, as vLLM's does.
    Defaults follow the version: max_num_batched_tokens as `vllm serve` picks it for the GPU,
    async scheduling (0.33), prefix caching and so mamba cache mode "align" (0.33; a note
    says so where a model has state layers), and the hybrid allocator switched off for
    chunked local attention. mamba_kind ("mamba1", "mamba2", "gdn"; read from the model when
    it says) decides 0.33's prefill-checkpoint page and block grid for state layers.
    decode_context_parallel_size splits each request's tokens over that many of the TP
    ranks. draft (a Model: an EAGLE head, or MTP layers, see mtp_draft) adds its attention
    layers to the pool, and num_speculative_tokens adds state pages in 0.33. vLLM also
    switches the allocator off for a KV connector (--kv-transfer-config), for KV events
    (0.11) and off NVIDIA/AMD GPUs: pass hybrid_kv_cache_manager=False for those.
    `.explain()` says how it came out.

    Not modelled: pipeline parallelism, --num-gpu-blocks-override, the window a
    multi-module MTP keeps past a sliding window (0.33 extra_retained_tokens), and 0.33's
    multimodal reservation taken after the memory line is logged.
    """
    s = merge_settings(settings, flags, vllm_kv_report)
    r = s.resolve(model, gpu)
    plan, per_token = _plan(model, r)
    if kv_cache_memory_bytes is not None:
        available = check_int("kv_cache_memory_bytes", kv_cache_memory_bytes)
        source = "kv_cache_memory_bytes, per GPU"
    else:
        if gpu is None:
            raise InputError("gpu: give a GPU (its memory budget sizes the cache) or kv_cache_memory_bytes")
        if r.draft is not None:
            # the drafter's weights are loaded beside the target's before the cache is sized
            params = (params if params is not None else model.params) + r.draft.params
        b = memory_budget(
            model,
            gpu,
            num_gpus=r.num_gpus,
            weight_dtype=weight_dtype,
            utilization=utilization,
            working_bytes=working_bytes,
            params=params,
            memory=memory,
        )
        available = max(0, math.floor(b.per_gpu_kv_budget))
        source = (
            f"{b.gpu.name} budget: {memory} memory x {utilization} - weights"
            + (
                ""
                if r.draft is None
                else " (target + draft)"
                if r.draft.params_source == "given"
                else " (target + draft, the draft's estimated)"
            )
            + (" - working area" if working_bytes else "")
            + (f", over {r.num_gpus} GPUs" if r.num_gpus > 1 else "")
        )
    num_blocks = available // plan.bytes_per_block
    return _build(
        model, r, plan, num_blocks=num_blocks, available=available, source=source, per_token=per_token
    )


def vllm_report_from_tokens(
    model: Model,
    gpu_kv_cache_tokens: int,
    *,
    gpu: str | GPU | None = None,
    settings: VLLMSettings | None = None,
    **flags: Any,
) -> VLLMReport:
    """Work back from a logged token count: the fewest blocks that log it, and what follows
    (bytes, concurrency). Several block counts can log the same tokens (0.11 floors by the
    group count, and multiplies by the DCP size); the range is in the notes. The engine
    flags are those of vllm_kv_report (settings= and/or keywords); max_model_len must be
    given (in either)."""
    tokens = check_int("gpu_kv_cache_tokens", gpu_kv_cache_tokens, minimum=1)
    s = merge_settings(settings, flags, vllm_report_from_tokens)
    if s.max_model_len is None:
        raise InputError("max_model_len: give the length the log's concurrency line names")
    check_int("max_model_len", s.max_model_len, minimum=1)
    check_int("block_size", s.block_size, minimum=1)
    r = s.resolve(model, gpu)
    plan, per_token = _plan(model, r)

    def logged(nb: int) -> int:
        return _tokens(r.rules, plan, nb, r.max_model_len, r.dcp)[0]

    def first_at_least(t: int) -> int:  # logged() never falls as blocks grow
        lo, hi = 0, 1
        while logged(hi) < t:
            hi *= 2
        while lo < hi:
            mid = (lo + hi) // 2
            if logged(mid) >= t:
                hi = mid
            else:
                lo = mid + 1
        return lo

    low = first_at_least(tokens)
    high = first_at_least(tokens + 1) - 1
    if logged(low) != tokens:
        note = (
            f"No block count logs exactly {tokens:,} tokens with this model and settings; "
            f"the nearest above is {logged(low):,} ({low:,} blocks)."
        )
    elif high > low:
        note = f"{low:,} to {high:,} blocks all log {tokens:,} tokens; the figures use {low:,}."
    else:
        note = f"Only {low:,} blocks log {tokens:,} tokens."
    return _build(
        model,
        r,
        plan,
        num_blocks=low,
        available=low * plan.bytes_per_block,
        source="worked back from the logged token count (num_blocks x bytes per block)",
        per_token=per_token,
        extra_notes=(note,),
    )


_TOKENS = re.compile(r"KV cache size:\s*([\d,]+)\s*tokens")
_CONC = re.compile(r"Maximum concurrency for\s*([\d,]+)\s*tokens per request:\s*([\d.]+)x")
_AVAILABLE = re.compile(r"Available KV cache memory:\s*([\d.]+)\s*GiB")
_PADDING = re.compile(r"Add (\d+) padding layers")
_BLOCK = re.compile(r"Setting attention block size to (\d+) tokens")
_MAMBA_MODE = re.compile(r"Mamba cache mode is set to '(\w+)'")
_DCP = re.compile(r"Multiplying the GPU KV cache size by the dcp_world_size (\d+)")


def parse_vllm_log(text: str) -> dict:
    """Pull the KV numbers out of vLLM start-up output (either version's wording).

    Returns gpu_kv_cache_tokens, and where present max_model_len, max_concurrency,
    available_kv_cache_gib (logged to 2 decimals: +-0.005 GiB), padding_layers (the hybrid
    allocator's "Add N padding layers" warnings, summed), attention_block_size (the block
    size a mamba hybrid's attention was raised to), mamba_cache_mode (0.33's "Mamba cache
    mode is set to ..." line) and decode_context_parallel_size (0.11's "Multiplying the GPU
    KV cache size by the dcp_world_size N").
    """
    m = _TOKENS.search(text or "")
    if not m:
        raise InputError("vLLM log: no line 'GPU KV cache size: N tokens' found in the text given")
    out: dict = {"gpu_kv_cache_tokens": int(m.group(1).replace(",", ""))}
    c = _CONC.search(text)
    if c:
        out["max_model_len"] = int(c.group(1).replace(",", ""))
        out["max_concurrency"] = float(c.group(2))
    a = _AVAILABLE.search(text)
    if a:
        out["available_kv_cache_gib"] = float(a.group(1))
    pads = _PADDING.findall(text)
    if pads:
        out["padding_layers"] = sum(int(p) for p in pads)
    b = _BLOCK.search(text)
    if b:
        out["attention_block_size"] = int(b.group(1))
    mode = _MAMBA_MODE.search(text)
    if mode:
        out["mamba_cache_mode"] = mode.group(1)
    dcp = _DCP.search(text)
    if dcp:
        out["decode_context_parallel_size"] = int(dcp.group(1))
    return out
