"""Each layer spec writes its own part of Model.shape(): the keys js/calc/layers.js reads
for its kind, and nothing the browser takes as the default (no cap when every token is
kept, no fixed_bytes when there is no fixed state)."""

from kvwidgets.core.layers import (
    ChunkedLocalSpec,
    CrossAttentionSpec,
    FullAttentionSpec,
    LayerGroup,
    MLASpec,
    RecurrentStateSpec,
    SlidingWindowSpec,
)
from kvwidgets.core.model import Model

HEADS = {"kv_heads": 8, "head_k": 128, "head_v": 64}


def test_each_kind_writes_its_own_fields():
    assert FullAttentionSpec(8, 128, 64).browser_data() == {"kind": "full", **HEADS}
    assert SlidingWindowSpec(8, 128, 64, window=4096).browser_data() == {
        "kind": "sliding",
        "cap": 4096,
        **HEADS,
    }
    assert ChunkedLocalSpec(8, 128, 64, chunk=8192).browser_data() == {
        "kind": "chunked",
        "cap": 8192,
        **HEADS,
    }
    assert CrossAttentionSpec(8, 128, 64, encoder_tokens=6404).browser_data() == {
        "kind": "cross",
        "cap": 0,
        **HEADS,
        "fixed_tokens": 6404,
    }
    assert MLASpec(512, 64).browser_data() == {"kind": "mla", "latent": 576}
    assert MLASpec(512, 64, index_bytes=132).browser_data() == {
        "kind": "mla",
        "latent": 576,
        "index_bytes": 132,
    }
    assert RecurrentStateSpec(1_001).browser_data() == {"kind": "recurrent", "cap": 0, "fixed_bytes": 1_001}


def test_model_shape_is_its_groups_browser_data_with_counts():
    groups = (LayerGroup(SlidingWindowSpec(2, 64, window=128), 5), LayerGroup(RecurrentStateSpec(10), 3))
    shape = Model("t", groups, 1_000).shape()
    assert shape["groups"] == [
        {"kind": "sliding", "count": 5, "cap": 128, "kv_heads": 2, "head_k": 64, "head_v": 64},
        {"kind": "recurrent", "count": 3, "cap": 0, "fixed_bytes": 10},
    ]
    # kind then count lead each group: the order the widgets' synced JSON keeps
    assert [list(g)[:2] for g in shape["groups"]] == [["kind", "count"]] * 2
