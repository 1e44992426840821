"""Notebook 10: the folded answers are what the package computes, and the checks never fail."""

import pytest

from .executed import check_stated, executed, notebook_text, run

NB = "10_mistakes.ipynb"

STATED = [
    ("**8 times.**", "expected_1", 8.0),
    ("65,536 ÷ 8,192 = 8", "65_536 / 8_192", 8.0),
    ("**About 67 GB.**", "round(expected_2)", 67),
    ("= 67.1 GB", "round(expected_2, 1)", 67.1),
    ("**False.** MLA stores 70,272 B per token for DeepSeek-V3, against 131,072 B for Llama 3 8B",
     "(expected_3, deepseek.kv_bytes_per_token(), llama8.kv_bytes_per_token())", [False, 70_272, 131_072]),
    ("**512 KiB**, four times the true 128 KiB", "(expected_4, expected_4 / (llama8.kv_bytes_per_token() / KiB))", [512.0, 4.0]),
    ("2 × 32 × 32 × 128 × 2 = 524,288 B", "2 * 32 * 32 * 128 * 2", 524_288),
    ("**21.**", "expected_5", 21),
    ("126.9 − 70 = 56.9 GB for the cache", "round(fit.kv_budget_bytes / GB, 1)", 56.9),
    ("327,680 B × 8,000 = 2.62 GB", "round(fit.kv_per_user_bytes / GB, 2)", 2.62),
    ("Switch the cache to FP8 as well and 43 fit",
     "kw.users_that_fit('llama-3-70b', 'H200', 8_000, weight_dtype='fp8', kv_dtype='fp8', params=70_000_000_000).users", 43),
    ("**About 2 times** (2.05)", "round(expected_6, 2)", 2.05),
    ("the weights are 16.06 GB", "round(llama8.weight_bytes() / GB, 2)", 16.06),
    ("16.06 + 0.13 GB at 1K but 16.06 + 17.18 GB at 128K", "(round(llama8.kv_bytes(1_024) / GB, 2), round(llama8.kv_bytes(131_072) / GB, 2))", [0.13, 17.18]),
    ("(2.5 GiB apiece, 20 GiB in all)", "(llama31_70.kv_bytes(8_192) / GiB, 8 * llama31_70.kv_bytes(8_192) == budget)", [2.5, True]),
    ("**7a: 320 MiB**", "expected_7a", 320.0),
    ("**7b: 22.5 GiB**", "expected_7b", 22.5),
    ("**7c: False**", "expected_7c", False),
]


@pytest.fixture(scope="module")
def nb():
    return executed(NB, [e for _, e, _ in STATED] + [
        "[check(1, 8, expected_1), check(1, 9, expected_1), check(3, False, expected_3), check(2, 'lots', expected_2)]"])


@pytest.mark.parametrize("claim, expr, expected", STATED, ids=[c[:50] for c, _, _ in STATED])
def test_stated(nb, claim, expr, expected):
    check_stated(nb, notebook_text(NB), claim, expr, expected)


def test_check_says_right_wrong_and_never_raises(nb):
    assert nb["[check(1, 8, expected_1), check(1, 9, expected_1), check(3, False, expected_3), check(2, 'lots', expected_2)]"] == \
        [True, False, True, None]


def test_every_right_answer_is_accepted():
    # Fill every answer cell with the folded answer: the notebook still runs and every check says right.
    answers = [("answer_1 = None", "answer_1 = 8"), ("answer_2 = None", "answer_2 = 67"),
               ("answer_3 = None", "answer_3 = False"), ("answer_4 = None", "answer_4 = 512"),
               ("answer_5 = None", "answer_5 = 21"), ("answer_6 = None", "answer_6 = 2"),
               ("answer_7a = None", "answer_7a = 320"), ("answer_7b = None", "answer_7b = 22.5"),
               ("answer_7c = None", "answer_7c = False")]
    got = run(NB, ["[check(q, a, e, t) for q, a, e, t in [(1, answer_1, expected_1, 0.01), (2, answer_2, expected_2, 0.01), "
                   "(3, answer_3, expected_3, 0.01), (4, answer_4, expected_4, 0.01), (5, answer_5, expected_5, 0), "
                   "(6, answer_6, expected_6, 0.05), ('7a', answer_7a, expected_7a, 0.01), ('7b', answer_7b, expected_7b, 0.01), "
                   "('7c', answer_7c, expected_7c, 0.01)]]"], replace=answers)
    assert list(got.values())[0]["value"] == [True] * 9
