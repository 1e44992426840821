"""Notebook 01: every number its text states, read from the executed notebook."""

import pytest

from .executed import check_stated, executed, notebook_text

NB = "01_keys_and_values.ipynb"

# (words in the notebook, expression in the executed kernel, the value they state)
STATED = [
    # reuse needs the same preceding text: token 300's key changes from layer 2 on when token 1 differs
    (
        "changes the first of the 500 tokens and looks at token 300",
        "(len(other_start), bool((other_start[1:] == tokens[1:500]).all()), bool((other_start[0] != tokens[0]).any()))",
        [500, True, True],
    ),
    ("In the first layer a key depends on its own token only", "same_key[0]", True),
    ("from the\nsecond layer on it depends on everything before it", "same_key[1:]", [False]),
    ("compares each layer's keys\nand values for the first 500", "unchanged", [True, True]),
    (
        "compares the result with running all 501 tokens from scratch",
        "bool(np.allclose(h, out_501[-1:], rtol=0, atol=1e-12))",
        True,
    ),
    ("scores the new query against **all 501 cached keys**", "(len(k_all), len(v_all))", [501, 501]),
    ("**125,250.**", "without_cache", 125_250),
    ("500 × 501 ÷ 2 = 125,250", "answer_tokens * (answer_tokens + 1) // 2", 125_250),
    ("With a cache it is only 500", "with_cache", 500),
    ("the reads\nadd up to the same 125,250 per layer", "reads_with_cache", 125_250),
    ("adds exactly one token's worth, 128 KiB", "one_more_token", 131_072),
    ("adds exactly one token's worth, 128 KiB", "kw.fmt_bytes(one_more_token)", "128 KiB"),
    ("about 262 MB, while", "round(short_chat / 1e6)", 262),
    (
        "Llama 3.1 8B\n(Llama 3 8B's shape with a 128K window)",
        "(llama31_8.max_context, llama31_8.kv_bytes_per_token() == llama8.kv_bytes_per_token())",
        [131_072, True],
    ),
    ("would hold 17.18 GB", "round(full_window / 1e9, 2)", 17.18),
    (
        "671 B\nparameter MoE model that stores less per token than an 8 B dense one",
        "round(kw.load_model('deepseek-v3').params / 1e9) == 671 and "
        "kw.load_model('deepseek-v3').kv_bytes_per_token() < llama8.kv_bytes_per_token()",
        True,
    ),
    # the DecodeStep task (evaluated in order: the widget is stepped as the task says)
    ("Two of the 32 layers are drawn", "(llama8.num_layers, decode_widget.result['num_layers'])", [32, 32]),
    (
        "**501**: the 500 tokens of the prompt and token 501 itself",
        "(first_step.tokens, first_step.read_bytes // first_step.written_bytes)",
        [501, 501],
    ),
    # the check under the answer grades a token count: what a layer that keeps every token reads
    (
        "checks your guess against the layers that keep\nevery token",
        "(tokens_read, [(g.kind, g.held_tokens) for g in first_step.groups])",
        [501, [["full", 501]]],
    ),
    (
        "The step writes 128 KiB",
        "(first_step.written_bytes, kw.fmt_bytes(first_step.written_bytes))",
        [131_072, "128 KiB"],
    ),
    (
        "reads 65.67 MB, 501 times as much",
        "(first_step.read_bytes, kw.fmt_bytes(first_step.read_bytes))",
        [65_667_072, "65.67 MB"],
    ),
    (
        "press **Step** once",
        "[setattr(decode_widget, 'generated', decode_widget.generated + 1), "
        "(decode_widget.result['read_bytes'], decode_widget.result['written_bytes'])][-1]",
        [65_667_072, 131_072],
    ),
    (
        "the read grows by another 128 KiB, while the write stays at 128 KiB",
        "[setattr(decode_widget, 'generated', 2), "
        "(decode_widget.result['read_bytes'] - 65_667_072, decode_widget.result['written_bytes'])][-1]",
        [131_072, 131_072],
    ),
    (
        "gpt-oss-20b's sliding layers keep only their latest 128 tokens",
        "[setattr(decode_widget, 'model', 'gpt-oss-20b'), "
        "sorted({g['held_tokens'] for g in decode_widget.result['groups'] if g['kind'] == 'sliding'})][-1]",
        [128],
    ),
]


def test_the_note_taker_objectives_and_when_not_to_cache_are_there():
    text = notebook_text(NB)
    assert "someone taking notes through a long meeting" in text
    assert "By the end of this notebook you can" in text
    assert "### When is a cache not worth keeping?" in text
    assert "**the same model** and **the same preceding text**" in text


@pytest.fixture(scope="module")
def nb():
    return executed(NB, [e for _, e, _ in STATED])


@pytest.mark.parametrize("claim, expr, expected", STATED, ids=[e for _, e, _ in STATED])
def test_stated(nb, claim, expr, expected):
    check_stated(nb, notebook_text(NB), claim, expr, expected)
