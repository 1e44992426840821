"""A Model's layers as the token pools SGLang 0.5.23 allocates, and the bytes a token takes.

SGLang keeps one pool of token slots for the whole model (not vLLM's blocks per group):
  MHA   MHATokenToKVPool: per layer a K and a V buffer of rows x KV heads per TP rank x
        head_dim (mem_cache/memory_pool.py MHATokenToKVPool._kv_buffer_shapes)
  MLA   MLATokenToKVPool: per layer one buffer of rows x (kv_lora_rank + qk_rope_head_dim),
        the same on every TP rank (MLATokenToKVPool._create_buffers)
  SWA   SWAKVPool: a "Full" MHA pool for the full-attention layers and an "SWA" pool for
        the sliding ones, the SWA pool swa_full_tokens_ratio as large
        (mem_cache/swa_memory_pool.py SWAKVPool; model_executor/pool_configurator.py
        HybridSWAPoolConfigurator)
Each buffer has page_size more rows than the pool's tokens: the padded first page absorbs
writes of padded tokens. Layouts SGLang sizes some other way (recurrent state pools, chunked
local attention, cross attention, DeepSeek-V3.2's indexer) are refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError
from .layers import FullAttentionSpec, MLASpec, SlidingWindowSpec, kv_heads_per_gpu
from .model import Model

# model_type values whose architecture SGLang 0.5.23 runs with the hybrid SWA pool
# (configs/model_config.py is_hybrid_swa_model: SWA_SINK_ARCHS holds GptOssForCausalLM;
# MiMo-V2 and Gemma 4 are in the same list).
HYBRID_SWA_MODEL_TYPES = {"gpt_oss": "GptOssForCausalLM", "mimo_v2_flash": "MiMoV2FlashForCausalLM"}

# model_type values with windowed layers whose architecture SGLang 0.5.23 does not run with the
# hybrid SWA pool, so every layer is a full row of one pool. IQuest-LoopCoder: each loop's
# attention is its own layer (layer_id loop x num_hidden_layers + layer; models/
# iquest_loopcoder.py) and the pool has num_hidden_layers x loop_num layers
# (configs/model_config.py, ModelConfig num_attention_layers); its architecture is not in
# is_hybrid_swa_model.
SLIDING_AS_FULL_MODEL_TYPES = {"iquestloopcoder": "IQuestLoopCoderForCausalLM"}


@dataclass(frozen=True)
class Pool:
    """One pool SGLang allocates: its layers and what a token takes in one of them."""

    label: str  # "" for the only pool; "Full" / "SWA" in a hybrid (the log's allocation_label)
    layers: int
    k_numbers: int  # numbers of K per token per layer on one GPU (the MLA latent for MLA)
    v_numbers: int  # 0 for MLA (one buffer)
    window: int = 0  # sliding window of an SWA pool

    @property
    def numbers_per_token(self) -> int:
        return self.layers * (self.k_numbers + self.v_numbers)


@dataclass(frozen=True)
class Layout:
    kind: str  # "mha", "mla", "hybrid_swa"
    pools: tuple[Pool, ...]
    words: str
    notes: tuple[str, ...] = ()


_REFUSED = {
    "recurrent": "recurrent state layers (SGLang sizes a separate Mamba / linear-attention state pool "
    "per request slot from --max-mamba-cache-size and --mamba-full-memory-ratio, "
    "kv_cache_configurator.py _handle_max_mamba_cache)",
    "chunked": "chunked local attention (Llama 4: SGLang runs it through its own hybrid pool)",
    "cross": "cross-attention to encoder tokens (images or audio)",
    "compressed": "DeepSeek-V4's compressed layers (SGLang sizes its own compressed, indexer and "
    "compressor-state pools for them, which kvwidgets has not read)",
}


def _refuse(model: Model, what: str) -> InputError:
    return InputError(
        f"model {model.name!r}: the SGLang accounting does not model {what}; "
        "no SGLang figure is given rather than a wrong one"
    )


def _shape(spec: FullAttentionSpec, tp: int) -> tuple[int, int]:
    heads = kv_heads_per_gpu(spec.num_kv_heads, tp)
    return heads * spec.head_size, heads * spec.v_size


def model_layout(model: Model, *, tp: int, hybrid_swa: bool | None = None) -> Layout:
    """The pools SGLang builds for this model on one of `tp` tensor-parallel GPUs."""
    full, sliding, mla = _attention_groups(model)
    if mla:
        return _mla_layout(model, mla, others=full or sliding)
    shapes = {(g.spec.num_kv_heads, g.spec.head_size, g.spec.v_size) for g in full + sliding}
    if not shapes:
        raise _refuse(model, "a model without attention layers")
    if not sliding:
        if len(shapes) > 1:
            raise _refuse(
                model,
                "full-attention layers of different shapes (SGLang sizes every layer with one "
                "num_key_value_heads and head_dim)",
            )
        return _mha(model, full, tp, "")
    model_type = str(model.extra.get("model_type", ""))
    if not _runs_hybrid_swa(model, model_type, hybrid_swa):
        if len(shapes) > 1:
            raise _refuse(model, "sliding and full layers of different shapes sized as one pool")
        return _mha(
            model,
            full + sliding,
            tp,
            " (sliding layers sized as full: SGLang's hybrid SWA pool is not used)",
        )
    return _hybrid_swa_layout(model, model_type, full, sliding, tp)


def _attention_groups(model: Model) -> tuple[list, list, list]:
    """The model's layer groups as SGLang pools them: (full, sliding, MLA); layers that store
    nothing are left out, kinds SGLang's accounting here does not model are refused."""
    full, sliding, mla = [], [], []
    for g in model.groups:
        spec = g.spec
        if type(spec) is FullAttentionSpec:
            full.append(g)
        elif type(spec) is SlidingWindowSpec:
            sliding.append(g)
        elif type(spec) is MLASpec:
            if spec.index_bytes:
                raise _refuse(model, "DeepSeek-V3.2's sparse-attention indexer (SGLang's DSA pool)")
            mla.append(g)
        elif spec.kind in _REFUSED:
            raise _refuse(model, _REFUSED[spec.kind])
        elif spec.numbers_per_token(1) == 0 and spec.fixed_bytes(1) == 0:
            continue  # a layer reading another layer's cache stores nothing
        else:
            raise _refuse(model, f"layers of kind {spec.kind!r}")
    return full, sliding, mla


def _mla_layout(model: Model, mla: list, *, others: bool) -> Layout:
    """One pool of the latent, whole on every GPU."""
    # one row of the pool per MLA attention: LongCat-Flash's two per decoder layer are two
    # (configs/model_config.py, num_attention_layers = num_hidden_layers x 2)
    if others:
        raise _refuse(model, "MLA layers mixed with other attention layers")
    specs = {g.spec for g in mla}
    if len(specs) > 1:
        raise _refuse(model, "MLA layers of more than one shape")
    s = mla[0].spec
    layers = sum(g.count for g in mla)
    dim = s.kv_lora_rank + s.qk_rope_head_dim
    return Layout(
        "mla",
        (Pool("", layers, dim, 0),),
        f"MLA: {layers} layers x (kv_lora_rank {s.kv_lora_rank} + qk_rope_head_dim "
        f"{s.qk_rope_head_dim}) = {dim} numbers a token a layer, the same on every GPU",
    )


def _runs_hybrid_swa(model: Model, model_type: str, hybrid_swa: bool | None) -> bool:
    """Whether SGLang gives a model with sliding layers its separate SWA pool: as told, else
    by model_type; an InputError when SGLang's choice for the model is not known."""
    if hybrid_swa is None and model_type in SLIDING_AS_FULL_MODEL_TYPES:
        return False
    if hybrid_swa is not None:
        return hybrid_swa
    if model_type not in HYBRID_SWA_MODEL_TYPES:
        raise InputError(
            f"hybrid_swa: model {model.name!r} (model_type {model_type or 'unknown'!r}) has sliding-window "
            "layers; SGLang runs a separate SWA pool only for the architectures in "
            "configs/model_config.py is_hybrid_swa_model and sizes every layer as full otherwise. "
            "Pass hybrid_swa=True or False to say which"
        )
    return True


def _hybrid_swa_layout(model: Model, model_type: str, full: list, sliding: list, tp: int) -> Layout:
    """A Full pool and an SWA pool, each of one shape (and the SWA pool of one window)."""
    if not full:
        raise _refuse(model, "a model whose every layer is sliding (SGLang's all-SWA pool)")
    windows = {g.spec.window for g in sliding}
    if len(windows) > 1:
        raise _refuse(model, "sliding layers with different windows")
    fk = {_shape(g.spec, tp) for g in full}
    sk = {_shape(g.spec, tp) for g in sliding}
    if len(fk) > 1 or len(sk) > 1:
        raise _refuse(model, "full (or sliding) layers of more than one shape")
    (fkn, fvn), (skn, svn) = fk.pop(), sk.pop()
    f_layers = sum(g.count for g in full)
    s_layers = sum(g.count for g in sliding)
    window = windows.pop()
    return Layout(
        "hybrid_swa",
        (Pool("Full", f_layers, fkn, fvn), Pool("SWA", s_layers, skn, svn, window)),
        f"hybrid SWA ({HYBRID_SWA_MODEL_TYPES.get(model_type, model_type or model.name)}): a Full pool of "
        f"{f_layers} layers x {fkn + fvn} numbers a token and an SWA pool of {s_layers} layers x "
        f"{skn + svn} (window {window:,})",
    )


def _mha(model: Model, groups, tp: int, why: str) -> Layout:
    k, v = _shape(groups[0].spec, tp)
    layers = sum(g.count for g in groups)
    s = groups[0].spec
    heads = kv_heads_per_gpu(s.num_kv_heads, tp)
    return Layout(
        "mha",
        (Pool("", layers, k, v),),
        f"MHA/GQA: {layers} layers x {heads} KV head{'s' if heads != 1 else ''} per GPU x "
        f"(head_dim {s.head_size} + v_head_dim {s.v_size}){why}",
    )
