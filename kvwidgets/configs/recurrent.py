"""Estimated per-sequence state of recurrent / linear-attention layers.

These layers keep a fixed state per sequence instead of one entry per token. Its size
is an ESTIMATE from the config, following the state shapes vLLM allocates
(mamba_utils.py): a convolution window plus the SSM (or delta-rule) state, stored at
2 bytes a number (the model's 16-bit dtype; engines can keep it in fp32, doubling it).

  Mamba-1 (Jamba):    d_inner = expand x hidden
                      conv d_inner x (d_conv - 1)  +  ssm d_inner x d_state
  Mamba-2 (Nemotron-H, Falcon-H1):
                      d_inner = heads x head_dim
                      conv (d_inner + 2 x groups x d_state) x (d_conv - 1)
                      + ssm heads x head_dim x d_state
  Gated DeltaNet (Qwen3-Next linear_attention):
                      conv (2 x k_heads x k_dim + v_heads x v_dim) x (kernel - 1)
                      + state v_heads x k_dim x v_dim
"""

from __future__ import annotations

from .fields import ConfigView

STATE_BYTES_PER_NUMBER = 2


def recurrent_state_bytes(view: ConfigView, hidden: int) -> int:
    """Bytes of state one recurrent layer keeps per sequence (an estimate; see module doc)."""
    cfg = view.cfg
    if "linear_num_value_heads" in cfg or "linear_key_head_dim" in cfg:
        kh = view.integer("linear_num_key_heads", ("linear_num_key_heads",))
        vh = view.integer("linear_num_value_heads", ("linear_num_value_heads",))
        kd = view.integer("linear_key_head_dim", ("linear_key_head_dim",))
        vd = view.integer("linear_value_head_dim", ("linear_value_head_dim",))
        kernel = view.integer("linear_conv_kernel_dim", ("linear_conv_kernel_dim",), default=4)
        numbers = (2 * kh * kd + vh * vd) * (kernel - 1) + vh * kd * vd
        formula = (f"Gated DeltaNet: conv (2x{kh}x{kd} + {vh}x{vd}) x ({kernel} - 1) + state {vh}x{kd}x{vd}")
    elif any(k in cfg for k in ("mamba_num_heads", "mamba_n_heads", "mamba_head_dim")):
        heads = view.integer("mamba_num_heads", ("mamba_num_heads", "mamba_n_heads"))
        head_dim = view.integer("mamba_head_dim", ("mamba_head_dim", "mamba_d_head"))
        state = view.integer("ssm_state_size", ("ssm_state_size", "mamba_d_state"))
        groups = view.integer("mamba_n_groups", ("mamba_n_groups", "n_groups"), default=1)
        conv = view.integer("conv_kernel", ("conv_kernel", "mamba_d_conv"), default=4)
        d_inner = heads * head_dim
        numbers = (d_inner + 2 * groups * state) * (conv - 1) + heads * head_dim * state
        formula = (f"Mamba-2: conv ({d_inner} + 2x{groups}x{state}) x ({conv} - 1) + ssm {heads}x{head_dim}x{state}")
    else:
        expand = view.integer("mamba_expand", ("mamba_expand", "expand"), default=2)
        state = view.integer("mamba_d_state", ("mamba_d_state", "state_size", "ssm_state_size"), default=16)
        conv = view.integer("mamba_d_conv", ("mamba_d_conv", "conv_kernel"), default=4)
        d_inner = expand * hidden
        numbers = d_inner * (conv - 1) + d_inner * state
        formula = f"Mamba-1: d_inner {d_inner}; conv {d_inner} x ({conv} - 1) + ssm {d_inner} x {state}"
    size = numbers * STATE_BYTES_PER_NUMBER
    view.note("recurrent_state_bytes",
              f"ESTIMATE from {view.source}: {formula} = {numbers:,} numbers x {STATE_BYTES_PER_NUMBER} B "
              f"= {size:,} B per layer per sequence (16-bit state; engines may keep it in fp32)")
    return size
