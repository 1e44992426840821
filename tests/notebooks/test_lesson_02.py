"""Notebook 02: every number its text states, read from the executed notebook."""

import pytest

from .executed import check_stated, executed, notebook_text

NB = "02_sizing_formula.ipynb"

STATED = [
    # the formula by hand and by the package
    (
        "Llama 3 8B",
        "(by_hand_8b, llama8.kv_bytes_per_token('bf16'), by_hand_8b // KiB)",
        [131_072, 131_072, 128],
    ),
    (
        "Llama 3 8B and 70B",
        "(by_hand_70b, llama70.kv_bytes_per_token('bf16'), by_hand_70b // KiB)",
        [327_680, 327_680, 320],
    ),
    (
        "Storing the cache in FP8 (one byte a number) halves it",
        "(fp8, fp8 // KiB, 2 * fp8 == by_hand_8b)",
        [65_536, 64, True],
    ),
    (
        "makes it four times too big",
        "(query_heads_by_mistake, query_heads_by_mistake // by_hand_8b)",
        [524_288, 4],
    ),
    ("the 32 *query* heads", "llama8.num_query_heads", 32),
    # the widget task
    ("**160 KiB** (163,840 B)", "llama70.kv_bytes_per_token('fp8')", 163_840),
    ("half the 320 KiB of\na 16-bit cache", "llama70.kv_bytes_per_token('fp8') / KiB", 160.0),
    (
        "choose `llama-3.1-70b` and switch the cache to `fp8`",
        "[setattr(per_token_widget, 'model', 'llama-3.1-70b'), setattr(per_token_widget, 'kv_dtype', 'fp8'), "
        "per_token_widget.result['bytes_per_token']][-1]",
        163_840,
    ),
    # the widget's model is trained past every bar it draws (1K to 128K), so no bar is past
    # the model's own context, the task's 70B included
    (
        "trained for 128K: every bar is a length it serves",
        "[kw.load_model(n).max_context >= 131_072 for n in ('llama-3.1-8b', 'llama-3.1-70b')]",
        [True, True],
    ),
    # one conversation, four
    ("one 8,192-token conversation holds\n2.5 GiB", "(one, one / GiB)", [2_684_354_560, 2.5]),
    ("(about 2.68 GB)", "round(one / GB, 2)", 2.68),
    ("four of them 10 GiB", "4 * one / GiB", 10.0),
    ("(320 KiB per token)", "llama31_70.kv_bytes_per_token() // KiB", 320),
    # the table
    (
        "Llama 3.1 8B at 128K is\n17.2 GB",
        "round(per_conversation.loc['llama-3.1-8b', '128K tokens (GB)'], 1)",
        17.2,
    ),
    (
        "The Llamas are the 3.1 releases, the same shapes as Llama 3 with a 128K maximum",
        "[(kw.load_model(a).kv_bytes_per_token(), kw.load_model(b).max_context) for a, b in (('llama-3-8b', 'llama-3.1-8b'), ('llama-3-70b', 'llama-3.1-70b'))]",
        [[131_072, 131_072], [327_680, 131_072]],
    ),
    ("names the columns that go beyond it", "per_conversation['past max context'].tolist()", ["1M"] * 4),
    ("No model here reaches 1M", "bool((per_conversation['max context (tokens)'] < 1_048_576).all())", True),
    (
        "The cache of **one** conversation",
        "all(per_conversation.loc[n, f'{l} tokens (GB)'] == kw.load_model(n).kv_bytes_per_token() * t / GB "
        "for n in ['llama-3.1-8b', 'llama-3.1-70b', 'deepseek-v3'] for l, t in {'1K': 1024, '8K': 8192, '32K': 32768, '128K': 131072}.items())",
        True,
    ),
    (
        "gpt-oss-120b keeps half its layers",
        "per_conversation.loc['gpt-oss-120b', 'bytes/token (KiB)'] * KiB",
        36_864.0,
    ),
    (
        "released with an 8,192-token window",
        "[kw.load_model(n).max_context for n in ('llama-3-8b', 'llama-3-70b')]",
        [8_192, 8_192],
    ),
    (
        "its row names 32K,\n128K and 1M",
        "cache_per_conversation_table(['llama-3-8b'])['past max context'].iloc[0]",
        "32K, 128K, 1M",
    ),
    (
        "was built for 40,960 tokens",
        "(kw.load_model('qwen3-32b').max_context, cache_per_conversation_table(['qwen3-32b'])['past max context'].iloc[0])",
        [40_960, "128K, 1M"],
    ),
    # a busy server
    (
        "Sixty-four users of Llama 3.1 70B holding 32,000 tokens each need 671 GB of cache",
        "busy.loc[0, ['model', 'users at once', 'tokens each']].tolist() + [round(busy.loc[0, 'cache (GB)'])]",
        ["llama-3.1-70b", 64, 32_000, 671],
    ),
    (
        "more\nthan the 640 GB of memory",
        "(round(server / GB), busy.loc[0, 'share of an 8x H100 server'] > 1)",
        [640, True],
    ),
    (
        "needs 67 GB",
        "busy.loc[3, ['model', 'users at once', 'tokens each']].tolist() + [round(busy.loc[3, 'cache (GB)'])]",
        ["llama-3.1-8b", 64, 8_000, 67],
    ),
    (
        "The table counts the cache alone",
        "bool((busy['cache (GB)'] * GB == busy['users at once'] * busy['tokens each'] * "
        "busy['model'].map(lambda n: kw.load_model(n).kv_bytes_per_token())).all())",
        True,
    ),
    # the config dict
    ("(the shape of Mistral 7B v0.3)", "mine.kv_bytes_per_token()", 2 * 32 * 8 * 128 * 2),
]


@pytest.fixture(scope="module")
def nb():
    return executed(NB, [e for _, e, _ in STATED])


@pytest.mark.parametrize("claim, expr, expected", STATED, ids=[e[:60] for _, e, _ in STATED])
def test_stated(nb, claim, expr, expected):
    check_stated(nb, notebook_text(NB), claim, expr, expected)
