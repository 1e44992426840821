"""index.ipynb: the numbers its text states, read from the executed kernel (the lecture's are
in test_lecture.py)."""

import pytest

from .executed import check_stated, executed, notebook_text

INDEX = "index.ipynb"
INDEX_STATED = [
    # the hook question and its answer
    (
        "Llama 3.1 8B's weights take 16 GB of it",
        "(fit.model, round(fit.result['weights_bytes'] / 1e9), kw.GPUS['H100-SXM'].memory_gb)",
        ["llama-3.1-8b", 16, 80],
    ),
    (
        "**52**, and at 128K only **3**",
        "(kw.users_that_fit('llama-3.1-8b', 'H100', 8_192).users, kw.users_that_fit('llama-3.1-8b', 'H100', 131_072).users, "
        "kw.load_model('llama-3.1-8b').past_max_context(131_072))",
        [52, 3, False],
    ),
    (
        "the weights take 16 and leave 56\nGB",
        "(round(kw.users_that_fit('llama-3.1-8b', 'H100', 8_192).usable_bytes / 1e9), "
        "round(kw.users_that_fit('llama-3.1-8b', 'H100', 8_192).kv_budget_bytes / 1e9))",
        [72, 56],
    ),
    (
        "128 KiB per token, which\nis 1.07 GB at 8,192 tokens and 17.18 GB at 128K",
        "(kw.load_model('llama-3.1-8b').kv_bytes_per_token() // 1024, round(kw.load_model('llama-3.1-8b').kv_bytes(8_192) / 1e9, 2), "
        "round(kw.load_model('llama-3.1-8b').kv_bytes(131_072) / 1e9, 2))",
        [128, 1.07, 17.18],
    ),
    (
        "The model fits on the GPU four times over",
        "int(kw.GPUS['H100-SXM'].memory_bytes // kw.load_model('llama-3.1-8b').weight_bytes())",
        4,
    ),
    (
        "Drag the context to\n131,072 tokens",
        "[setattr(fit, 'context', 131_072), fit.result['users'], fit.reset()][1]",
        3,
    ),
    ("At 32,768\ntokens 13 conversations fit", "kw.users_that_fit('llama-3.1-8b', 'H100', 32_768).users", 13),
    ("`reset()` goes back to 8,192 tokens and 52", "(fit.context, fit.result['users'])", [8_192, 52]),
    ("90% is usable", "fit.result['usable_bytes']", 72_000_000_000),
    (
        "H100 80 GB, H200 141 GB",
        "(gpus.loc['H100-SXM', 'memory (GB)'], gpus.loc['H200', 'memory (GB)'])",
        [80, 141],
    ),
    ("scenario.scale = 1.5", "(memory_bar.scale, curve.scale)", [1.5, 1.5]),
    (
        "scenario.reset()",
        "(memory_bar.model, memory_bar.context, memory_bar.weight_dtype)",
        ["llama-3.1-8b", 8_192, "bf16"],
    ),
    (
        "Dense BF16 TFLOPS is half",
        "(gpus.loc['H100-SXM', 'dense BF16 TFLOPS'], gpus.loc['H100-SXM', 'bandwidth (GB/s)'])",
        [989, 3_350],
    ),
    ("presets = [", "models.loc['llama-3-8b', 'bytes per token (16-bit)']", 131_072),
]


def test_index_opens_with_a_question_not_a_manual():
    text = notebook_text(INDEX)
    first = text.split("\n## ")[0]
    assert "How many people can\nchat with the model" in first and "my_guess = None" in first
    assert "scenario" not in first.lower() and "to_html" not in first
    assert "By the end you can:" in text
    # DecodeStep steps tokens, not layers
    assert "layer by layer" not in text and "stepped one token at a time" in text


@pytest.fixture(scope="module")
def index():
    return executed(INDEX, [e for _, e, _ in INDEX_STATED])


@pytest.mark.parametrize("claim, expr, expected", INDEX_STATED, ids=[c[:40] for c, _, _ in INDEX_STATED])
def test_index_states(index, claim, expr, expected):
    check_stated(index, notebook_text(INDEX), claim, expr, expected)
