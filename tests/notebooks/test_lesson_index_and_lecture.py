"""index.ipynb: the numbers its text states, read from the executed kernel (the lecture's are
in test_lecture.py)."""

import pytest

from .executed import check_stated, executed, notebook_text

INDEX = "index.ipynb"
INDEX_STATED = [
    ("At 32,768\ntokens 13 conversations fit", "kw.users_that_fit('llama-3-8b', 'H100', 32_768).users", 13),
    ("`reset()` goes back to 8,000 tokens and 53", "(fit.context, fit.result['users'])", [8_000, 53]),
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
        ["llama-3-8b", 8_000, "bf16"],
    ),
    (
        "Dense BF16 TFLOPS is half",
        "(gpus.loc['H100-SXM', 'dense BF16 TFLOPS'], gpus.loc['H100-SXM', 'bandwidth (GB/s)'])",
        [989, 3_350],
    ),
    ("presets = [", "models.loc['llama-3-8b', 'bytes per token (16-bit)']", 131_072),
]


@pytest.fixture(scope="module")
def index():
    return executed(INDEX, [e for _, e, _ in INDEX_STATED])


@pytest.mark.parametrize("claim, expr, expected", INDEX_STATED, ids=[c[:40] for c, _, _ in INDEX_STATED])
def test_index_states(index, claim, expr, expected):
    check_stated(index, notebook_text(INDEX), claim, expr, expected)
