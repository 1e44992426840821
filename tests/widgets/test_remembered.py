"""Parts of `result` kept between input changes (widgets/memo.py) are never stale: after
every change in a run of them, a widget's result is the one a fresh widget with the same
inputs computes, including when a model is replaced by another of the same name."""

from __future__ import annotations

import pytest

import kvwidgets as kw
from kvwidgets.widgets.memo import remember_last

# Each step sets one input; the runs revisit earlier values, so a kept answer would be
# reused exactly where a stale one could slip through.
RUNS = {
    kw.DecodeSpeed: [
        ("context", 32768),
        ("batch", 8),
        ("model", "gpt-oss-20b"),
        ("context", 131072),
        ("kv_dtype", "fp8"),
        ("num_gpus", 2),
        ("weight_dtype", "fp8"),
        ("params", 20_000_000_000),
        ("gpu", "H100"),
        ("context", 8192),
        ("model", "llama-3-8b"),
    ],
    kw.ContextVsUsers: [
        ("context", 32768),
        ("y_scale", "linear"),
        ("kv_dtype", "fp8"),
        ("model", "llama-3-70b"),
        ("utilization", 0.8),
        ("gpu", "H200"),
        ("num_gpus", 2),
        ("weight_dtype", "fp8"),
        ("params", 60_000_000_000),
        ("context", 1024),
        ("kv_dtype", "bf16"),
    ],
    kw.CacheTransfer: [
        ("context", 32768),
        ("link", "roce-400g"),
        ("tp", 8),
        ("model", "llama-3.1-70b"),
        ("weight_dtype", "fp8"),
        ("link", "nvlink4"),
        ("kv_dtype", "fp8"),
        ("gpu", "B200"),
        ("context", 8192),
    ],
    kw.OffloadOrRecompute: [
        ("context", 32768),
        ("speed", "low"),
        ("model", "gemma-3-27b"),
        ("kv_dtype", "fp8"),
        ("gpu", "H100"),
        ("params", 30_000_000_000),
        ("context", 2048),
        ("model", "llama-3-8b"),
        ("gpu", "H200"),
    ],
}


@pytest.mark.parametrize("cls", list(RUNS), ids=lambda c: c.__name__)
def test_every_change_gives_what_a_fresh_widget_computes(cls):
    w = cls()
    inputs = {}
    for name, value in RUNS[cls]:
        setattr(w, name, value)
        inputs[name] = value
        fresh = cls(**inputs)
        assert w.error == fresh.error == ""
        assert w.result == fresh.result, f"after {name}={value!r} (inputs {inputs})"


MY_CONFIG = dict(
    model_type="llama",
    num_hidden_layers=32,
    num_attention_heads=32,
    num_key_value_heads=8,
    hidden_size=4096,
    intermediate_size=14336,
    vocab_size=128256,
    torch_dtype="bfloat16",
)


@pytest.mark.parametrize("cls", list(RUNS), ids=lambda c: c.__name__)
def test_a_model_replaced_under_the_same_name_is_recomputed(cls):
    first = kw.load_model(dict(MY_CONFIG), name="mine-remembered")
    # twice the KV heads: every cache size doubles, so every kept line would be wrong
    second = kw.load_model(dict(MY_CONFIG, num_key_value_heads=16), name="mine-remembered")
    w = cls(model=first)
    before = w.result
    w.model = second
    w.context = 16384  # any change recomputes; the model is the new object
    fresh = cls(model=second, context=16384)
    assert w.result == fresh.result
    assert fresh.result != cls(model=first, context=16384).result
    assert before != w.result


def test_remember_last_computes_again_only_for_new_arguments():
    calls = []

    class Widgetish:
        @remember_last
        def answer(self, model, x):
            calls.append((model, x))
            return {"x": x}

    a, b = object(), object()
    w = Widgetish()
    assert w.answer(a, 1) == {"x": 1} and w.answer(a, 1) == {"x": 1}
    assert calls == [(a, 1)]
    w.answer(b, 1)  # another model object: computed, even with equal arguments
    w.answer(b, 2)
    w.answer(b, 1)  # only the last call is kept
    assert calls == [(a, 1), (b, 1), (b, 2), (b, 1)]
    other = Widgetish()
    other.answer(b, 1)  # kept per instance
    assert len(calls) == 5
