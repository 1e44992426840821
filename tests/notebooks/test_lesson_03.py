"""Notebook 03: every number its text states, read from the executed notebook."""

import pytest

from .executed import check_stated, executed, notebook_text

NB = "03_attention_designs.ipynb"
X = "x smaller than its MHA form"

STATED = [
    (
        "Llama 3.1 8B has the same dimensions and was trained for 128K",
        "[(kw.load_model('llama-3.1-8b').with_kv_heads(32).kv_bytes(131_072) == shapes['MHA'].kv_bytes(131_072)), "
        "kw.load_model('llama-3.1-8b').max_context >= 131_072]",
        [True, True],
    ),
    ("With its 32 query heads", "llama8.num_query_heads", 32),
    (
        "Llama 3 70B pairs 64 with the same 8",
        "(kw.load_model('llama-3-70b').num_query_heads, kw.load_model('llama-3-70b').kv_bytes_per_token() // (2 * 80 * 128 * 2))",
        [64, 8],
    ),
    (
        "the MHA shape stores 512 KiB per token",
        "shapes['MHA'].kv_bytes_per_token()",
        524_288,
    ),
    ("**16 KiB** (16,384 B)", "shapes['MQA'].kv_bytes_per_token()", 16_384),
    (
        "so 32 times less than MHA",
        "shapes['MHA'].kv_bytes_per_token() // shapes['MQA'].kv_bytes_per_token()",
        32,
    ),
    (
        "four times smaller than MHA",
        "shapes['MHA'].kv_bytes_per_token() / llama8.kv_bytes_per_token()",
        4.0,
    ),
    (
        "MQA is eight times\nsmaller again",
        "llama8.kv_bytes_per_token() / shapes['MQA'].kv_bytes_per_token()",
        8.0,
    ),
    (
        "4,997,120 B (about 4.8 MiB)",
        "(mha_bytes, round(mha_bytes / MiB, 1), mha_bytes == 61 * 128 * (192 + 128) * 2)",
        [4_997_120, 4.8, True],
    ),
    ("layer, 70,272 B", "(mla_bytes, mla_bytes == 61 * (512 + 64) * 2)", [70_272, True]),
    ("about 71 times less than the same model stored as MHA", "round(mha_bytes / mla_bytes)", 71),
    (
        "eight times as much, 2,560 KiB (2.5 MiB)",
        "(mha_70.kv_bytes_per_token(), mha_70.kv_bytes_per_token() / KiB, mha_70.kv_bytes_per_token() / MiB, mha_70.kv_bytes_per_token() // llama31_70.kv_bytes_per_token())",
        [2_621_440, 2560.0, 2.5, 8],
    ),
    ("So DeepSeek-V3 shows its 71x", f"round(designs.set_index('model').loc['deepseek-v3', {X!r}])", 71),
    ("Llama 3.1 70B its 8x", f"designs.set_index('model').loc['llama-3.1-70b', {X!r}]", 8.0),
    (
        'the "past max context" column would mark a model that was not',
        "designs['past max context'].any()",
        False,
    ),
    ("Gemma 3 27B only 2x", f"designs.set_index('model').loc['gemma-3-27b', {X!r}]", 2.0),
    ("rows marked\n*shape*", f"designs[designs['row'] == 'shape'][{X!r}].tolist()[:3]", [1.0, 4.0, 32.0]),
    ("a 671 B-parameter mixture of experts", "round(deepseek.params / 1e9)", 671),
    (
        "stores less\nper token (70,272 B) than the 8 B dense Llama 3 (131,072 B)",
        "(deepseek.kv_bytes_per_token(), llama8.kv_bytes_per_token(), round(llama8.params / 1e9))",
        [70_272, 131_072, 8],
    ),
    ("**About 4.6 GB**", "round(deepseek.kv_bytes(131_072, 'fp8') / 1e9, 1)", 4.6),
    (
        "35,136 B per token in FP8, × 131,072 tokens = 4.61 GB",
        "(deepseek.kv_bytes_per_token('fp8'), round(deepseek.kv_bytes(131_072, 'fp8') / 1e9, 2))",
        [35_136, 4.61],
    ),
    (
        "switch the cache to\n`fp8` and read DeepSeek-V3's bar",
        "[setattr(designs_widget, 'kv_dtype', 'fp8'), designs_widget.result['models']['deepseek-v3']['long']][-1]",
        4_605_345_792,
    ),
    (
        "Llama 3.1 8B's GQA cache (Llama 3 8B's shape) at the same length is 8.6 GB in FP8",
        "round(llama8.kv_bytes(131_072, 'fp8') / 1e9, 1)",
        8.6,
    ),
    # the head-sharing diagram and its task
    # the diagram's own task: lines per KV head, and the bars they explain
    (
        "GQA stores 8 KV heads for its 32 query heads",
        "(llama8.num_query_heads, llama8.kv_bytes_per_token() // (2 * 32 * 128 * 2))",
        [32, 8],
    ),
    (
        "**4 lines** end at every GQA KV head: 32 query heads ÷ 8 KV heads",
        "per_kv_head",
        {"MHA": 1, "GQA": 4, "MQA": 32},
    ),
    (
        "the GQA bar is the MHA bar ÷ 4, at every length",
        "[heads_widget.result['designs']['MHA'][k] / heads_widget.result['designs']['GQA'][k] for k in ('short', 'long')]",
        [4.0, 4.0],
    ),
    (
        "its bar is MHA's ÷ 32",
        "heads_widget.result['designs']['MHA']['long'] / heads_widget.result['designs']['MQA']['long']",
        32.0,
    ),
    ("would draw 8\nlines to each", "kw.load_model('llama-3-70b').num_query_heads // 8", 8),
    # same-size models
    (
        "Falcon 7B has 6.9 B parameters and Llama 3 8B 8.0 B",
        "(leanest.name, round(leanest.params / 1e9, 1), largest.name, round(largest.params / 1e9, 1))",
        ["falcon-7b", 6.9, "llama-3-8b", 8.0],
    ),
    (
        "it stores 8 KiB per token against Llama's 128 KiB, sixteen times less",
        "(leanest.kv_bytes_per_token() / KiB, largest.kv_bytes_per_token() / KiB, largest.kv_bytes_per_token() // leanest.kv_bytes_per_token(), "
        "[g.spec.num_kv_heads for g in leanest.groups], [g.spec.head_size for g in leanest.groups])",
        [8.0, 128.0, 16, [1], [64]],
    ),
    (
        "differ four times or\nfar more",
        "largest.kv_bytes_per_token() / leanest.kv_bytes_per_token() >= 4",
        True,
    ),
    ("the dots along the top are the\n32 query heads", "llama8.num_query_heads", 32),
    (
        "**68.7 GB**: 512 KiB per token × 131,072 tokens",
        "(shapes['MHA'].kv_bytes_per_token() // KiB, round(shapes['MHA'].kv_bytes(131_072) / 1e9, 1))",
        [512, 68.7],
    ),
    (
        "its **Bar axis** starts linear",
        "[heads_widget.result['x_scale'], round(heads_widget.result['designs']['MHA']['long'] / 1e9, 1)]",
        ["linear", 68.7],
    ),
    (
        "their 4x difference",
        "heads_widget.result['designs']['MHA']['long'] / heads_widget.result['designs']['GQA']['long']",
        4.0,
    ),
    (
        "bring it down to 17.2 GB\nand MQA to 2.1 GB",
        "(round(heads_widget.result['designs']['GQA']['long'] / 1e9, 1), round(heads_widget.result['designs']['MQA']['long'] / 1e9, 1))",
        [17.2, 2.1],
    ),
    (
        "most of what an 80 GB GPU has",
        "(kw.GPUS['H100-SXM'].memory_gb, 0.5 < shapes['MHA'].kv_bytes(131_072) / kw.GPUS['H100-SXM'].memory_bytes < 1)",
        [80, True],
    ),
]


def test_mla_text_says_how_decode_avoids_rebuilding_keys_and_values():
    text = notebook_text(NB)
    assert (
        "**weight absorption**" in text
        and "At decode a head reads only the latents, and nothing is rebuilt." in text
    )
    assert "the attention kernel rebuilds keys and values\n  from it on the fly" not in text


@pytest.fixture(scope="module")
def nb():
    return executed(NB, [e for _, e, _ in STATED])


@pytest.mark.parametrize("claim, expr, expected", STATED, ids=[c[:50] for c, _, _ in STATED])
def test_stated(nb, claim, expr, expected):
    check_stated(nb, notebook_text(NB), claim, expr, expected)
