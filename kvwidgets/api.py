"""The public calculation functions, taking a Model or anything load_model accepts.

core works on Model objects only (it must not import configs); this thin layer lets a
notebook write kw.users_that_fit("llama-3-8b", "H100", 8000).
"""

from __future__ import annotations

import functools

from . import core
from .configs import load_model
from .core.model import Model


def as_model(model) -> Model:
    return model if isinstance(model, Model) else load_model(model)


def _takes_any_model(fn):
    @functools.wraps(fn)
    def wrapper(model, *args, **kwargs):
        return fn(as_model(model), *args, **kwargs)

    return wrapper


users_that_fit = _takes_any_model(core.users_that_fit)
max_context = _takes_any_model(core.max_context)
memory_budget = _takes_any_model(core.memory_budget)
decode_ceiling = _takes_any_model(core.decode_ceiling)
prefill_seconds = _takes_any_model(core.prefill_seconds)
reload_seconds = _takes_any_model(core.reload_seconds)
offload_vs_recompute = _takes_any_model(core.offload_vs_recompute)
prefix_sharing = _takes_any_model(core.prefix_sharing)
paged_vs_reserved = _takes_any_model(core.paged_vs_reserved)
vllm_kv_report = _takes_any_model(core.vllm_kv_report)
vllm_report_from_tokens = _takes_any_model(core.vllm_report_from_tokens)
sglang_kv_report = _takes_any_model(core.sglang_kv_report)
placement = _takes_any_model(core.placement)
vllm_start_check = _takes_any_model(core.vllm_start_check)
cache_transfer = _takes_any_model(core.cache_transfer)
fewest_gpus = _takes_any_model(core.fewest_gpus)


@functools.wraps(core.allocator_trace)
def allocator_trace(requests="sharegpt", *, model=None, **kwargs):
    # The model is a keyword here (a trace may be sized in kv_slots alone); any name
    # load_model takes works, as elsewhere.
    return core.allocator_trace(requests, model=None if model is None else as_model(model), **kwargs)


@functools.wraps(core.kv_slots_for)
def kv_slots_for(model, gpu, **kwargs):
    return core.kv_slots_for(as_model(model), gpu, **kwargs)
