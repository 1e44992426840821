"""DecodeStep: the cache of one conversation filling token by token.

Prefill stores the prompt's keys and values at once; each decode step then appends one
key row and one value row per layer and KV head (one latent row per MLA layer), uses
its query once and keeps nothing of it, and reads every row still held. Sliding layers
let their oldest rows go once the window is full; a recurrent layer rewrites a fixed
state. The browser draws a readable sample of the layers (up to two per layer group)
on a token axis that stays put while the conversation grows, and plays the steps; every
total counts all the layers (core.step.decode_step_bytes, js/calc/step.js decodeStepBytes).

Under the cache, for one layer (`attention_layer`: the first windowed layer, or the first
full one; it follows the model, so a model with no windowed layer shows a full one and says
so in its menu), the browser draws what attention does with it: the new token's query scored
against each key held (a window's keys only), the weights, the weighted sum of the values
passed to the next layer. The weights are an illustrative pattern, labelled as such: the
widget has the cache's sizes, not the model's numbers.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import traitlets

from ..core.errors import InputError, check_int
from ..core.step import decode_step_bytes
from . import traits
from .base import KVWidget

SPEEDS = (1, 2, 5, 10, 30, 100)
ATTENTION_LAYERS = (
    "windowed",
    "full",
)  # which layer the attention picture shows  # decode steps per second the Speed menu offers
LAYERS_DRAWN_PER_GROUP = 2  # the sample: a group of 18 identical layers shows 2


class DecodeStep(KVWidget):
    """Play, pause or step one conversation's decode; counters of bytes stored, read, written."""

    _render_file = "decode_step.js"
    _inputs = ("model", "kv_dtype", "prompt_tokens", "generated", "speed", "attention_layer")
    _axes = {"speeds": SPEEDS, "layers_per_group": (LAYERS_DRAWN_PER_GROUP,)}

    model = traits.model("gpt-oss-20b")
    kv_dtype = traits.kv_dtype()
    # 125 prompt tokens: gpt-oss-20b's sliding layers (window 128) fill at the 3rd step and
    # drop their first row at the 4th, so the default shows the window within a few steps
    prompt_tokens = traitlets.Int(125, help="tokens of the prompt, stored at once by the prefill").tag(
        sync=True
    )
    generated = traitlets.Int(0, help="decode steps taken after the prefill").tag(sync=True)
    speed = traitlets.Int(5, help="decode steps per second while playing").tag(sync=True)
    attention_layer = traitlets.Unicode(
        "windowed", help="the layer whose attention is drawn: 'windowed' (sliding, chunked) or 'full'"
    ).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # The menu names a kind the model has: a model with no windowed layer starts at (and
        # a model swap moves to) "full", and the reset button restores that
        self._follow_model_kinds()
        self.initial = {**self.initial, "attention_layer": self.attention_layer}
        self.observe(lambda _change: self._follow_model_kinds(), names="model")

    def _follow_model_kinds(self) -> None:
        """Move attention_layer to the kind the model has when it has none of the chosen one
        (js/widgets/decode_step.js does the same when the model changes in the browser)."""
        if self.attention_layer not in ATTENTION_LAYERS:
            return  # compute() names the bad value under the widget
        try:
            m = self.get_model(self.model)
        except Exception:  # an unknown model: compute() says so under the widget
            return
        self.attention_layer = attention_kind_held(m, self.attention_layer)

    def compute(self) -> dict[str, Any]:
        m = self.get_model(self.model)
        check_int("speed", self.speed, minimum=1)
        if self.speed not in SPEEDS:
            raise InputError(
                f"speed must be one of {', '.join(map(str, SPEEDS))} steps per second, got {self.speed!r}"
            )
        if self.attention_layer not in ATTENTION_LAYERS:
            raise InputError(f"attention_layer must be 'windowed' or 'full', got {self.attention_layer!r}")
        step = decode_step_bytes(m, self.prompt_tokens, self.generated, self.kv_dtype)
        result = dataclasses.asdict(step)
        result["groups"] = [dataclasses.asdict(g) for g in step.groups]
        result["model"] = m.name
        result["kv_dtype"] = self.kv_dtype
        result["num_layers"] = m.num_layers
        result["max_context"] = m.max_context
        result["beyond_max_context"] = m.max_context is not None and step.tokens > m.max_context
        pick = _attention_group(step, self.attention_layer)
        # the layer whose attention is drawn, and how many keys its query scores
        result["attention_kind"] = pick.kind if pick else None
        result["attention_scored"] = pick.held_tokens if pick else 0
        return result


def attention_kind_held(m: Any, want: str) -> str:
    """`want` when the model has a layer of that kind that keeps keys, else the other kind
    (a model whose layers all keep no keys, every one a recurrent state, keeps `want`)."""
    pick = _attention_group(decode_step_bytes(m, 1, 0), want)
    if pick is None:
        return want
    return "windowed" if pick.cap is not None and pick.cap > 0 else "full"


def _attention_group(step, want: str):
    """The layer group whose attention is drawn (js/widgets/decode_step.js `pick`): the first
    group of the wanted sort (windowed: a cap above 0) that keeps rows, else the first of the
    other sort; None when no layer keeps keys (every layer a recurrent state)."""
    keyed = [g for g in step.groups if g.held_tokens > 0]
    windowed = [g for g in keyed if g.cap is not None and g.cap > 0]
    full = [g for g in keyed if g.cap is None]
    first, second = (windowed, full) if want == "windowed" else (full, windowed)
    return (first or second or [None])[0]
