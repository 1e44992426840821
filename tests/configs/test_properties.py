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
@given(
    st.integers(1, 100),
    st.sampled_from([128, 256, 512]),
    st.sampled_from([0, 32, 64]),
    st.sampled_from([64, 128]),
    st.sampled_from([16, 64, 128]),
)
def test_mla_formula(layers, rank, rope, nope, heads):
    cfg = {
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "hidden_size": 1024,
        "kv_lora_rank": rank,
        "qk_rope_head_dim": rope,
        "qk_nope_head_dim": nope,
        "v_head_dim": 128,
    }
    m = kw.load_model(cfg)
    assert m.kv_bytes_per_token() == layers * (rank + rope) * 2
    assert m.as_mha().kv_bytes_per_token() == layers * heads * (nope + rope + 128) * 2


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 96), st.integers(1, 12), st.integers(1, 8192), st.integers(0, 200_000))
def test_sliding_pattern_counts(layers, pattern, window, tokens):
    cfg = {
        "model_type": "gemma3_text",
        "num_hidden_layers": layers,
        "num_attention_heads": 8,
        "num_key_value_heads": 4,
        "head_dim": 128,
        "sliding_window": window,
        "sliding_window_pattern": pattern,
    }
    m = kw.load_model(cfg)
    full = layers // pattern
    assert m.count("full") == full and m.count("sliding") == layers - full
    per_layer = 2 * 4 * 128 * 2
    assert m.kv_bytes(tokens) == per_layer * (full * tokens + (layers - full) * min(tokens, window))


# ---- every layer kind the loader builds ----------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 96),
    st.integers(1, 8),
    st.sampled_from([1, 2, 4]),
    st.sampled_from([64, 128, 256]),
    st.integers(0, 100_000),
)
def test_full_attention_interval_counts(layers, interval, kv, head_dim, tokens):
    # transformers configuration_qwen3_next.py: full when (i + 1) % interval == 0
    cfg = {
        "model_type": "qwen3_next",
        "num_hidden_layers": layers,
        "num_attention_heads": 16,
        "num_key_value_heads": kv,
        "head_dim": head_dim,
        "hidden_size": 2048,
        "full_attention_interval": interval,
    }
    m = kw.load_model(cfg)
    full = layers // interval
    assert m.count("full") == full and m.count("recurrent") == layers - full
    assert m.kv_bytes_per_token() == full * 2 * kv * head_dim * 2
    state = sum(g.count * g.spec.fixed_bytes() for g in m.groups)  # Qwen3NextConfig's Gated DeltaNet defaults
    assert state == (layers - full) * ((2 * 16 * 128 + 32 * 128) * 3 + 32 * 128 * 128) * 2
    assert m.kv_bytes(tokens) == tokens * m.kv_bytes_per_token() + state


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 10),
    st.integers(1, 6),
    st.sampled_from([1, 2, 4, 8]),
    st.sampled_from([1, 2, 4]),
    st.booleans(),
    st.integers(1, 4096),
)
def test_global_heads_on_full_layers_only(blocks, slide, kv, global_kv, k_eq_v, window):
    # Gemma 4 (configuration_gemma4.py): full layers take global_head_dim, and num_global_key_value_heads
    # only with attention_k_eq_v; sliding layers keep num_key_value_heads x head_dim
    types = (["sliding_attention"] * slide + ["full_attention"]) * blocks
    cfg = {
        "model_type": "gemma4_text",
        "num_hidden_layers": len(types),
        "num_attention_heads": 8,
        "num_key_value_heads": kv,
        "head_dim": 256,
        "global_head_dim": 512,
        "hidden_size": 2048,
        "num_global_key_value_heads": global_kv,
        "attention_k_eq_v": k_eq_v,
        "sliding_window": window,
        "max_position_embeddings": 1 << 20,
        "layer_types": types,
    }
    m = kw.load_model(cfg)
    full_kv = global_kv if k_eq_v else kv
    assert m.kv_bytes_per_token() == blocks * 2 * full_kv * 512 * 2
    assert m.kv_bytes_per_token_within_windows() == m.kv_bytes_per_token() + blocks * slide * 2 * kv * 256 * 2


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 48), st.data())
def test_kv_shared_layers_only_lower_the_cache(layers, data):
    types = ["full_attention"] * layers
    shared = data.draw(st.integers(0, layers - 1))
    cfg = {
        "model_type": "gemma4_text",
        "num_hidden_layers": layers,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "head_dim": 128,
        "global_head_dim": 128,
        "hidden_size": 1024,
        "layer_types": types,
        "num_kv_shared_layers": shared,
    }
    m = kw.load_model(cfg)
    assert m.kv_bytes_per_token() == (layers - shared) * 2 * 2 * 128 * 2


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 1 << 20), st.integers(1, 1 << 20), st.integers(1, 64))
def test_windows_at_least_the_context_count_as_full(window, max_pos, layers):
    cfg = {
        "num_hidden_layers": layers,
        "num_attention_heads": 8,
        "num_key_value_heads": 8,
        "head_dim": 64,
        "sliding_window": window,
        "max_position_embeddings": max_pos,
    }
    m = kw.load_model(cfg)
    per_layer = 2 * 8 * 64 * 2
    if window >= max_pos:
        assert m.count("full") == layers and m.kv_bytes_per_token() == layers * per_layer
    else:
        assert m.count("sliding") == layers and m.kv_bytes_per_token() == 0
    # either way a context the model can hold costs the same bytes
    t = min(window, max_pos)
    assert m.kv_bytes(t) == layers * per_layer * t


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([224, 448, 560, 700]), st.integers(1, 8), st.integers(1, 40), st.integers(0, 50_000))
def test_cross_attention_image_tokens(image_size, tiles, every, tokens):
    layers = 40
    cross = list(range(every - 1, layers, every)) if every <= layers else []
    cfg = {
        "model_type": "mllama",
        "text_config": {
            "model_type": "mllama_text_model",
            "num_hidden_layers": layers,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "hidden_size": 4096,
            "cross_attention_layers": cross,
        },
        "vision_config": {"image_size": image_size, "max_num_tiles": tiles},
    }
    m = kw.load_model(cfg)
    per_layer = 2 * 8 * 128 * 2
    images = tiles * ((image_size // 14) ** 2 + 1)  # vLLM 0.10.2 mllama.py calc_token_per_chunk x tiles
    assert m.kv_bytes(tokens) == (layers - len(cross)) * per_layer * tokens + len(cross) * per_layer * images
