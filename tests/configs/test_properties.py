"""Properties over many generated configs: the textbook formula holds whatever the names."""

from hypothesis import given, settings
from hypothesis import strategies as st

import kvwidgets as kw

NAME_SETS = [  # how different families spell layers, heads and width
    ("num_hidden_layers", "num_attention_heads", "hidden_size"),
    ("n_layer", "n_head", "n_embd"),
    ("num_layers", "num_heads", "d_model"),
]


@st.composite
def gqa_configs(draw):
    layers = draw(st.integers(1, 128))
    kv = draw(st.sampled_from([1, 2, 4, 8, 16]))
    group = draw(st.sampled_from([1, 2, 4, 8]))
    head_dim = draw(st.sampled_from([32, 64, 80, 96, 128, 256]))
    names = draw(st.sampled_from(NAME_SETS))
    explicit_head_dim = draw(st.booleans())
    heads = kv * group
    cfg = {names[0]: layers, names[1]: heads, names[2]: heads * head_dim, "num_key_value_heads": kv}
    if explicit_head_dim:  # hidden size no longer tells the head size
        cfg["head_dim"] = head_dim
        cfg[names[2]] = heads * head_dim + draw(st.sampled_from([0, 64, 512]))
    return cfg, layers, kv, heads, head_dim


@settings(max_examples=150, deadline=None)
@given(gqa_configs(), st.sampled_from(["bf16", "fp8", "fp32"]))
def test_gqa_formula(case, dtype):
    cfg, layers, kv, heads, head_dim = case
    m = kw.load_model(cfg)
    size = {"bf16": 2, "fp8": 1, "fp32": 4}[dtype]
    assert m.kv_bytes_per_token(kv_dtype=dtype) == 2 * layers * kv * head_dim * size
    assert m.kv_bytes(1000, kv_dtype=dtype) == 1000 * m.kv_bytes_per_token(kv_dtype=dtype)
    assert m.as_mha().kv_bytes_per_token() * kv == m.kv_bytes_per_token() * heads
    assert m.params > 0 and m.params_source.startswith("ESTIMATE")


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 100), st.sampled_from([128, 256, 512]), st.sampled_from([0, 32, 64]),
       st.sampled_from([64, 128]), st.sampled_from([16, 64, 128]))
def test_mla_formula(layers, rank, rope, nope, heads):
    cfg = {"num_hidden_layers": layers, "num_attention_heads": heads, "hidden_size": 1024,
           "kv_lora_rank": rank, "qk_rope_head_dim": rope, "qk_nope_head_dim": nope, "v_head_dim": 128}
    m = kw.load_model(cfg)
    assert m.kv_bytes_per_token() == layers * (rank + rope) * 2
    assert m.as_mha().kv_bytes_per_token() == layers * heads * (nope + rope + 128) * 2


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 96), st.integers(1, 12), st.integers(1, 8192), st.integers(0, 200_000))
def test_sliding_pattern_counts(layers, pattern, window, tokens):
    cfg = {"model_type": "gemma3_text", "num_hidden_layers": layers, "num_attention_heads": 8,
           "num_key_value_heads": 4, "head_dim": 128, "sliding_window": window, "sliding_window_pattern": pattern}
    m = kw.load_model(cfg)
    full = layers // pattern
    assert m.count("full") == full and m.count("sliding") == layers - full
    per_layer = 2 * 4 * 128 * 2
    assert m.kv_bytes(tokens) == per_layer * (full * tokens + (layers - full) * min(tokens, window))
