"""Per-sequence state of recurrent / linear-attention layers, as vLLM allocates it.

These layers keep a fixed state per sequence instead of one entry per token: two
tensors per layer (vLLM 0.33.0, vllm/model_executor/layers/mamba/mamba_utils.py,
MambaStateShapeCalculator), a convolution window and the SSM / delta-rule state:

  Mamba-1 (Jamba):    d_inner = expand x hidden
                      conv d_inner x (d_conv - 1);  ssm d_inner x d_state
  Mamba-2 (Nemotron-H, Falcon-H1):
                      d_inner = heads x head_dim
                      conv (d_inner + 2 x groups x d_state) x (d_conv - 1)
                      ssm heads x head_dim x d_state
  Gated DeltaNet (Qwen3-Next / Qwen3.5 linear_attention):
                      conv (2 x k_heads x k_dim + v_heads x v_dim) x (kernel - 1)
                      ssm v_heads x v_dim x k_dim

Their dtypes (MambaStateDtypeCalculator._mamba_state_dtype): the conv state takes
mamba_cache_dtype, "auto" = the model's dtype; the SSM state takes
mamba_ssm_cache_dtype, and "auto" means the same dtype as the conv state. What "auto"
becomes is decided per architecture in vllm/model_executor/models/config.py:
  NemotronH     the config's mamba_ssm_cache_dtype, else float32
                (NemotronHForCausalLMConfig.DEFAULT_MAMBA_SSM_CACHE_DTYPE)
  Qwen3.5       the config's mamba_ssm_dtype, else the model dtype
                (Qwen3_5ForConditionalGenerationConfig)
  others        the model dtype (Qwen3-Next, Jamba, Falcon-H1, ...)
The KV-cache dtype (--kv-cache-dtype, kv_dtype= here) does not change either.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.dtypes import dtype_bits, dtype_name
from ..core.errors import ConfigError, UnknownNameError
from .fields import ConfigView

# model_type -> (config field vLLM reads for the SSM-state dtype, default when absent or None
# for "the model dtype", the vLLM class that says so)
SSM_DTYPE_RULES: dict[str, tuple[str, str | None, str]] = {
    "nemotron_h": ("mamba_ssm_cache_dtype", "fp32", "NemotronHForCausalLMConfig"),
    "qwen3_5_text": ("mamba_ssm_dtype", None, "Qwen3_5ForConditionalGenerationConfig"),
    "qwen3_5_moe_text": ("mamba_ssm_dtype", None, "Qwen3_5ForConditionalGenerationConfig"),
}


@dataclass(frozen=True)
class RecurrentState:
    conv_bytes: int
    ssm_bytes: int
    ssm_dtype: str

    @property
    def total(self) -> int:
        return self.conv_bytes + self.ssm_bytes


def _bytes(numbers: int, dtype: str) -> int:
    return numbers * dtype_bits(dtype, "state dtype") // 8


def _dtype(view: ConfigView, key: str, value: object) -> str:
    try:
        return dtype_name(str(value), key)
    except UnknownNameError as e:
        raise ConfigError(
            f"{key} is {value!r} ({view.provenance.get(key, view.where(key))}); expected a dtype "
            "such as float32, bfloat16 or float16"
        ) from e


def model_dtype(view: ConfigView) -> str:
    """The dtype vLLM runs the model in with its default --dtype auto: the config's torch_dtype /
    dtype, except that a float32 model runs in bf16 (vLLM 0.33.0 vllm/config/model.py,
    _resolve_auto_dtype: "Downcast for float32 models" to the platform's first supported
    dtype, bf16 on the GPUs kvwidgets lists); bf16 if the config says none."""
    raw = view.get("model_dtype", ("torch_dtype", "dtype"), default=None, top_level=True)
    if raw is None:
        view.note("model_dtype", f"{view.source}: no torch_dtype; bf16 assumed for the recurrent state")
        return "bf16"
    dtype = _dtype(view, "model_dtype", raw)
    if dtype == "fp32":
        view.note(
            "model_dtype",
            f"{view.provenance['model_dtype']} is float32, which vLLM's --dtype auto runs as bf16 "
            "(vllm/config/model.py, _resolve_auto_dtype), so the recurrent state is bf16",
        )
        return "bf16"
    return dtype


def ssm_state_dtype(view: ConfigView, model: str) -> str:
    """The SSM-state dtype vLLM 0.33.0 uses for this architecture (rules in the module doc)."""
    rule = SSM_DTYPE_RULES.get(view.model_type or "")
    if rule is None:
        view.note(
            "ssm_state_dtype",
            f"model dtype {model} (vLLM's mamba_ssm_cache_dtype 'auto': the same dtype "
            "as the conv state; vllm/model_executor/layers/mamba/mamba_utils.py)",
        )
        return model
    field, default, cls = rule
    value = view.get("ssm_state_dtype", (field,), default=None)
    if value is not None:
        dtype = _dtype(view, "ssm_state_dtype", value)
        view.note(
            "ssm_state_dtype",
            f"{dtype} from {view.provenance['ssm_state_dtype']} (vLLM's {cls} reads it, "
            "vllm/model_executor/models/config.py)",
        )
        return dtype
    if default is None:
        view.note(
            "ssm_state_dtype",
            f"model dtype {model}: no {field} in the config (vLLM's {cls}, "
            "vllm/model_executor/models/config.py)",
        )
        return model
    view.note(
        "ssm_state_dtype",
        f"{default}: vLLM's default for this architecture when the config has no {field} "
        f"({cls}.DEFAULT_MAMBA_SSM_CACHE_DTYPE, vllm/model_executor/models/config.py)",
    )
    return default


def recurrent_state(view: ConfigView, hidden: int) -> RecurrentState:
    """The state one recurrent layer keeps per sequence (see module doc)."""
    cfg = view.cfg
    if (
        "linear_num_value_heads" in cfg
        or "linear_key_head_dim" in cfg
        or view.model_type in ("qwen3_next", "qwen3_5_text", "qwen3_5_moe_text")
    ):
        kh = view.integer("linear_num_key_heads", ("linear_num_key_heads",))
        vh = view.integer("linear_num_value_heads", ("linear_num_value_heads",))
        kd = view.integer("linear_key_head_dim", ("linear_key_head_dim",))
        vd = view.integer("linear_value_head_dim", ("linear_value_head_dim",))
        kernel = view.integer("linear_conv_kernel_dim", ("linear_conv_kernel_dim",), default=4)
        conv, ssm = (2 * kh * kd + vh * vd) * (kernel - 1), vh * vd * kd
        formula = f"Gated DeltaNet: conv (2x{kh}x{kd} + {vh}x{vd}) x ({kernel} - 1); state {vh}x{vd}x{kd}"
    elif any(k in cfg for k in ("mamba_num_heads", "mamba_n_heads", "mamba_head_dim")):
        heads = view.integer("mamba_num_heads", ("mamba_num_heads", "mamba_n_heads"))
        state = view.integer("ssm_state_size", ("ssm_state_size", "mamba_d_state"))
        groups = view.integer("mamba_n_groups", ("mamba_n_groups", "n_groups"), default=1)
        kernel = view.integer("conv_kernel", ("conv_kernel", "mamba_d_conv"), default=4)
        raw_head = view.get("mamba_head_dim", ("mamba_head_dim", "mamba_d_head"), default=None)
        if view.model_type == "falcon_h1":
            # vLLM falcon_h1.py get_mamba_state_shape_from_config: intermediate = mamba_d_ssm, or
            # mamba_expand x hidden_size when that is null; transformers configuration_falcon_h1.py
            # requires heads x head_dim to equal it ("auto" head_dim = intermediate // heads)
            d_ssm = view.get("mamba_d_ssm", ("mamba_d_ssm",), default=None)
            if d_ssm is None:
                d_inner = view.integer("mamba_expand", ("mamba_expand",), default=2) * hidden
            else:
                d_inner = view.check_int("mamba_d_ssm", d_ssm)
                view.raw("mamba_expand")  # only used when mamba_d_ssm is null
            head_dim = (
                d_inner // heads if raw_head in (None, "auto") else view.check_int("mamba_head_dim", raw_head)
            )
        else:
            # vLLM nemotron_h.py: intermediate_size = mamba_num_heads x mamba_head_dim;
            # granitemoehybrid.py and bamba.py take mamba_expand x hidden_size instead, and
            # BambaConfig's mamba_d_head "auto" is that // mamba_n_heads
            expand = view.get("mamba_expand", ("mamba_expand",), default=None)
            view.raw("expand")  # NemotronHConfig carries one; vLLM nemotron_h.py does not use it
            if expand is not None and view.model_type != "nemotron_h":
                d_inner = view.check_int("mamba_expand", expand) * hidden
                auto = raw_head in (None, "auto")
                head_dim = d_inner // heads if auto else view.check_int("mamba_head_dim", raw_head)
            else:
                head_dim = view.integer("mamba_head_dim", ("mamba_head_dim", "mamba_d_head"))
                d_inner = heads * head_dim
        conv, ssm = (d_inner + 2 * groups * state) * (kernel - 1), heads * head_dim * state
        formula = (
            f"Mamba-2: conv ({d_inner} + 2x{groups}x{state}) x ({kernel} - 1); ssm {heads}x{head_dim}x{state}"
        )
    else:
        if view.model_type != "jamba" and not any(
            k in cfg for k in ("mamba_expand", "mamba_d_state", "mamba_d_conv", "expand", "state_size")
        ):
            # no field says how big this state is: Mamba-1 defaults would be a guess (LFM2's
            # short-conv layers came out 19x too large that way)
            raise ConfigError(
                f"{view.source}: the layer plan ({view.provenance.get('layer_types', 'layer_types')}) has "
                f"recurrent layers, but model_type {view.model_type!r} gives no field kvwidgets can size "
                "their state from (Gated DeltaNet linear_*, Mamba-2 mamba_num_heads / mamba_head_dim, "
                "Mamba-1 mamba_expand / mamba_d_state)"
            )
        expand = view.integer("mamba_expand", ("mamba_expand", "expand"), default=2)
        state = view.integer("mamba_d_state", ("mamba_d_state", "state_size", "ssm_state_size"), default=16)
        kernel = view.integer("mamba_d_conv", ("mamba_d_conv", "conv_kernel"), default=4)
        d_inner = expand * hidden
        conv, ssm = d_inner * (kernel - 1), d_inner * state
        formula = f"Mamba-1: d_inner {d_inner}; conv {d_inner} x ({kernel} - 1); ssm {d_inner} x {state}"
    conv_dtype = model_dtype(view)
    ssm_dtype = ssm_state_dtype(view, conv_dtype)
    out = RecurrentState(_bytes(conv, conv_dtype), _bytes(ssm, ssm_dtype), ssm_dtype)
    view.note(
        "recurrent_state_bytes",
        f"from {view.source}: {formula}; conv {conv:,} numbers in {conv_dtype} = {out.conv_bytes:,} B + "
        f"SSM {ssm:,} numbers in {ssm_dtype} = {out.ssm_bytes:,} B = {out.total:,} B per layer per sequence "
        f"(vLLM's state shapes, vllm/model_executor/layers/mamba/mamba_utils.py; SSM dtype: "
        f"{view.provenance.get('ssm_state_dtype', '')})",
    )
    return out
