"""DecodeStep: the cache of one conversation filling token by token.

Prefill stores the prompt's keys and values at once; each decode step then appends one
key row and one value row per layer and KV head (one latent row per MLA layer), uses
its query once and keeps nothing of it, and reads every row still held. Sliding layers
let their oldest rows go once the window is full; a recurrent layer rewrites a fixed
state. The browser draws a readable sample of the layers (up to two per layer group)
and plays the steps; every total counts all the layers (core.step.decode_step_bytes,
js/calc/step.js decodeStepBytes).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import traitlets

from ..core.errors import InputError, check_int
from ..core.step import decode_step_bytes
from . import traits
from .base import KVWidget

SPEEDS = (1, 2, 5, 10, 30, 100)  # decode steps per second the Speed menu offers
LAYERS_DRAWN_PER_GROUP = 2  # the sample: a group of 18 identical layers shows 2


class DecodeStep(KVWidget):
    """Play, pause or step one conversation's decode; counters of bytes stored, read, written."""

    _render_file = "decode_step.js"
    _inputs = ("model", "kv_dtype", "prompt_tokens", "generated", "speed")
    _axes = {"speeds": SPEEDS, "layers_per_group": (LAYERS_DRAWN_PER_GROUP,)}

    model = traits.model("gpt-oss-20b")
    kv_dtype = traits.kv_dtype()
    prompt_tokens = traitlets.Int(100, help="tokens of the prompt, stored at once by the prefill").tag(
        sync=True
    )
    generated = traitlets.Int(0, help="decode steps taken after the prefill").tag(sync=True)
    speed = traitlets.Int(5, help="decode steps per second while playing").tag(sync=True)

    def compute(self) -> dict[str, Any]:
        m = self.get_model(self.model)
        check_int("speed", self.speed, minimum=1)
        if self.speed not in SPEEDS:
            raise InputError(
                f"speed must be one of {', '.join(map(str, SPEEDS))} steps per second, got {self.speed!r}"
            )
        step = decode_step_bytes(m, self.prompt_tokens, self.generated, self.kv_dtype)
        result = dataclasses.asdict(step)
        result["groups"] = [dataclasses.asdict(g) for g in step.groups]
        result["model"] = m.name
        result["kv_dtype"] = self.kv_dtype
        result["num_layers"] = m.num_layers
        result["max_context"] = m.max_context
        result["beyond_max_context"] = m.max_context is not None and step.tokens > m.max_context
        return result
