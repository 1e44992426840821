"""The engine flags of one vLLM run, and the same flags with the version's defaults filled in.

VLLMSettings is what a caller states (the `vllm serve` flags that decide the cache), None
meaning "not given". resolve() checks them and fills in what the named version would
pick, keeping a sentence for every default that changes the figures and that a start-up
log would settle (the mamba cache mode), so the report can say what it assumed.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from .errors import InputError, check_int
from .gpus import GPU, get_gpu
from .model import Model
from .vllm_rules import MAMBA_KINDS, VersionRules, default_max_num_batched_tokens, version_rules

MAMBA_CACHE_MODES = ("none", "align")


@dataclass(frozen=True)
class VLLMSettings:
    """The vLLM flags that decide the KV cache (None: the version's default).

    max_model_len                 --max-model-len (default: the model's context)
    kv_dtype                      --kv-cache-dtype (bf16 = "auto" for a 16-bit model)
    block_size                    --block-size
    num_gpus                      --tensor-parallel-size
    max_num_batched_tokens        --max-num-batched-tokens (default: as `vllm serve` picks it)
    hybrid_kv_cache_manager       False for --disable-hybrid-kv-cache-manager
    async_scheduling              --async-scheduling (0.33: on by default)
    mamba_cache_mode              "none" or "align" (0.33 derives it from prefix caching)
    mamba_kind                    "mamba1", "mamba2" or "gdn" where the model does not say
    enable_prefix_caching         --enable-prefix-caching / --no-enable-prefix-caching
    decode_context_parallel_size  --decode-context-parallel-size (-dcp)
    draft                         the speculative model (EAGLE head, MTP layers) whose
                                  attention layers share the pool (--speculative-config)
    num_speculative_tokens        its num_speculative_tokens
    """

    vllm_version: str = "0.33"
    max_model_len: int | None = None
    kv_dtype: str = "bf16"
    block_size: int = 16
    num_gpus: int = 1
    max_num_batched_tokens: int | None = None
    hybrid_kv_cache_manager: bool | None = None
    async_scheduling: bool | None = None
    mamba_cache_mode: str | None = None
    mamba_kind: str | None = None
    enable_prefix_caching: bool | None = None
    decode_context_parallel_size: int = 1
    draft: Model | None = None
    num_speculative_tokens: int = 0

    def resolve(self, model: Model, gpu: str | GPU | None) -> ResolvedSettings:
        return _resolve(self, model, gpu)


ENGINE_FLAGS = tuple(f.name for f in fields(VLLMSettings))


def merge_settings(settings: VLLMSettings | None, flags: dict[str, Any], caller: Callable) -> VLLMSettings:
    """settings= with the engine flags given as keywords merged in (the one definition of
    the flags is VLLMSettings: the keywords are its fields).

    A keyword fills in or repeats what settings holds; one that contradicts a value the
    settings object states (away from VLLMSettings' default) is refused, naming it. A
    keyword that is no flag of VLLMSettings and no parameter of `caller` is a TypeError
    naming it and the valid ones, as Python's own would be."""
    unknown = sorted(set(flags) - set(ENGINE_FLAGS))
    if unknown:
        own = [p.name for p in inspect.signature(caller).parameters.values() if p.kind is p.KEYWORD_ONLY]
        raise TypeError(
            f"{caller.__name__}() got an unexpected keyword argument {', '.join(map(repr, unknown))}; "
            f"its keywords are {', '.join(own)} and the engine flags (VLLMSettings fields) {', '.join(ENGINE_FLAGS)}"
        )
    if settings is None:
        return VLLMSettings(**flags)
    if not isinstance(settings, VLLMSettings):
        raise InputError(f"settings: expected a VLLMSettings, got {type(settings).__name__}")
    default = VLLMSettings()
    clash = [
        name
        for name, value in flags.items()
        if value != getattr(settings, name) and getattr(settings, name) != getattr(default, name)
    ]
    if clash:
        raise InputError(
            "give each engine flag either in settings= or as a keyword, not both with different values "
            f"({', '.join(clash)} given twice)"
        )
    return replace(settings, **flags)


@dataclass(frozen=True)
class ResolvedSettings:
    """The flags checked, with the version's defaults filled in.

    assumed   sentences for defaults a log would settle and the caller did not state
    """

    rules: VersionRules
    max_model_len: int
    kv_dtype: str
    block_size: int
    num_gpus: int
    max_num_batched_tokens: int
    hybrid_kv_cache_manager: bool | None
    async_scheduling: bool
    mamba_cache_mode: str
    mamba_kind: str | None
    gpu_name: str | None
    dcp: int
    draft: Model | None
    num_speculative_tokens: int
    assumed: tuple[str, ...] = ()


def _has_state_layers(model: Model) -> bool:
    return any(g.spec.numbers_per_token(1) == 0 and g.spec.fixed_bytes(1) > 0 for g in model.groups)


def _has_attention(model: Model) -> bool:
    return any(g.spec.numbers_per_token(1) > 0 for g in model.groups)


def _mamba_mode(s: VLLMSettings, model: Model, rules: VersionRules) -> tuple[str, tuple[str, ...]]:
    """The mamba cache mode, and what was assumed to get it.

    0.33 derives the mode from prefix caching: on -> "align", off -> "none"
    (0.33.0 model_executor/models/config.py MambaModelConfig.verify_and_update_config, which
    logs "Mamba cache mode is set to 'align' ... when prefix caching is enabled"). Prefix
    caching is on by default (config/cache.py) except for attention-free models, which do not
    support it (config/model.py is_prefix_caching_supported). 0.11 keeps one state page and
    refuses prefix caching with mamba layers (0.11.0 v1/worker/gpu_model_runner.py
    get_kv_cache_spec: "Prefix caching is not supported for Mamba yet").
    """
    mode, caching = s.mamba_cache_mode, s.enable_prefix_caching
    if mode is not None and mode not in MAMBA_CACHE_MODES:
        raise InputError(f"mamba_cache_mode must be 'none' or 'align', got {mode!r}")
    state = _has_state_layers(model)
    if rules.version == "0.11":
        if caching and state:
            raise InputError(
                "enable_prefix_caching=True: vLLM 0.11 refuses prefix caching for models with mamba / "
                "linear-attention layers (gpu_model_runner.py get_kv_cache_spec)"
            )
        return (mode if mode is not None else rules.mamba_cache_mode_default), ()
    if caching is not None:
        derived = "align" if caching else "none"
        if mode is not None and mode != derived:
            raise InputError(
                f"mamba_cache_mode={mode!r} contradicts enable_prefix_caching={caching}: vLLM 0.33 sets the "
                f"mode to {derived!r} from prefix caching (MambaModelConfig.verify_and_update_config)"
            )
        return derived, ()
    if mode is not None:
        return mode, ()
    if not _has_attention(model):
        mode = "none"
        why = "prefix caching off, as vLLM has it for attention-free models"
    else:
        mode = rules.mamba_cache_mode_default
        why = "prefix caching on, vLLM 0.33's default"
    assumed = ()
    if state:
        assumed = (
            f"Assumed {why}, so mamba cache mode '{mode}'; the start-up log says which ('Mamba cache mode "
            "is set to ...'); pass enable_prefix_caching or mamba_cache_mode if yours differs.",
        )
    return mode, assumed


def _check_patch(version: object, rules: VersionRules, model: Model) -> None:
    """The 0.11 rules were read from 0.11.0; 0.11.1 rewrote the hybrid block size (an MLA
    alignment of 64 / 128, prefix caching aligned to the mamba chunk: 0.11.1
    model_executor/models/config.py HybridAttentionMambaModelConfig), so a later 0.11 patch
    is refused for models with state layers rather than given 0.11.0's numbers."""
    m = re.fullmatch(r"v?\d+\.\d+\.(\d+)\S*", str(version).strip())
    if rules.version == "0.11" and m and int(m.group(1)) > 0 and _has_state_layers(model):
        raise InputError(
            f"vllm_version={version!r}: kvwidgets' 0.11 rules are 0.11.0's, and 0.11.1 changed how a model with "
            "mamba / linear-attention layers sizes its blocks (HybridAttentionMambaModelConfig); give '0.11.0' or '0.33'"
        )


def _resolve(s: VLLMSettings, model: Model, gpu: str | GPU | None) -> ResolvedSettings:
    rules = version_rules(s.vllm_version)
    block_size = check_int("block_size", s.block_size, minimum=1)
    num_gpus = check_int("num_gpus", s.num_gpus, minimum=1)
    max_model_len = s.max_model_len
    if max_model_len is None:
        if not model.max_context:
            raise InputError(
                f"max_model_len: {model.name} has no max_position_embeddings to default to; give --max-model-len"
            )
        max_model_len = model.max_context  # vLLM derives it from the config when not given
    max_model_len = check_int("max_model_len", max_model_len, minimum=1)
    batched = s.max_num_batched_tokens
    if batched is None:
        g = get_gpu(gpu) if gpu is not None else None
        device = (g.device_bytes or g.memory_bytes) if g is not None else None
        batched = default_max_num_batched_tokens(rules, g.name if g else None, device)
    batched = check_int("max_num_batched_tokens", batched, minimum=1)
    async_scheduling = rules.async_scheduling_default if s.async_scheduling is None else s.async_scheduling
    if s.mamba_kind is not None and s.mamba_kind not in MAMBA_KINDS:
        raise InputError(
            f"mamba_kind must be one of {', '.join(MAMBA_KINDS)} (or None), got {s.mamba_kind!r}"
        )
    _check_patch(s.vllm_version, rules, model)
    mode, assumed = _mamba_mode(s, model, rules)
    dcp = check_int("decode_context_parallel_size", s.decode_context_parallel_size, minimum=1)
    if num_gpus % dcp:
        # DCP reuses the TP ranks (0.11.0 config/parallel.py; 0.33.0 config/parallel.py:
        # "tp_size={tp} must be divisible by dcp_size={dcp}")
        raise InputError(
            f"decode_context_parallel_size={dcp}: tensor parallel size num_gpus={num_gpus} must be divisible by it"
        )
    spec_tokens = check_int("num_speculative_tokens", s.num_speculative_tokens, minimum=0)
    if s.draft is not None and not isinstance(s.draft, Model):
        raise InputError(f"draft: expected a Model (the draft's layers), got {type(s.draft).__name__}")
    if s.draft is not None and spec_tokens == 0:
        raise InputError("num_speculative_tokens: a draft model needs num_speculative_tokens >= 1")
    return ResolvedSettings(
        rules=rules,
        max_model_len=max_model_len,
        kv_dtype=s.kv_dtype,
        block_size=block_size,
        num_gpus=num_gpus,
        max_num_batched_tokens=batched,
        hybrid_kv_cache_manager=s.hybrid_kv_cache_manager,
        async_scheduling=async_scheduling,
        mamba_cache_mode=mode,
        mamba_kind=s.mamba_kind,
        gpu_name=get_gpu(gpu).name if gpu is not None else None,
        dcp=dcp,
        draft=s.draft,
        num_speculative_tokens=spec_tokens,
        assumed=assumed,
    )
