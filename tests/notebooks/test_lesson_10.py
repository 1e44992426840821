"""Notebook 10: the folded answers are what the package computes, and the checks never fail."""

import pytest

from kvwidgets.lessons import MISTAKE_HINTED, MISTAKE_QUESTIONS

from .executed import check_stated, code_cells, executed, notebook_text, run

NB = "10_mistakes.ipynb"


def ans(q: str) -> str:
    """The package's answer to question q, as the notebook's check compares with it."""
    return f"kw.lessons.mistake_answer({q!r})[0]"


L8 = "kw.load_model('llama-3-8b')"
L31_8 = "kw.load_model('llama-3.1-8b')"
L31_70 = "kw.load_model('llama-3.1-70b')"
PRESET_70 = "__import__('json').load(open(kw.__path__[0] + '/data/presets/llama-3.1-70b.json'))"
PREFILL_8K = "next(r for r in __import__('kvwidgets.data.measured', fromlist=['_']).h200_prefill() if r['tokens'] == 8_192)"
DECODE_8K = "next(r for r in __import__('kvwidgets.data.measured', fromlist=['_']).h200_decode('sdpa') if r['batch'] == 1 and r['context'] == 8_192)"
STEP = "(lambda p, g: kw.core.decode_step_bytes(kw.load_model('llama-3-8b'), p, g))"
FIT5 = "kw.users_that_fit('llama-3-70b', 'H200', 8_000, weight_dtype='fp8', params=70_000_000_000)"

STATED = [
    ("**8 times.**", ans("1"), 8.0),
    ("65,536 ÷ 8,192 = 8", "65_536 / 8_192", 8.0),
    (
        "Llama 3.1 8B (built for up to 128K tokens)",
        f"({L31_8}.max_context, {L31_8}.past_max_context(65_536))",
        [131_072, False],
    ),
    ("**About 67 GB.**", f"round({ans('2')})", 67),
    ("= 67.1 GB", f"round({ans('2')}, 1)", 67.1),
    (
        "**False.** MLA stores 70,272 B per token for DeepSeek-V3, against 131,072 B for Llama 3 8B",
        f"({ans('3')}, kw.load_model('deepseek-v3').kv_bytes_per_token(), {L8}.kv_bytes_per_token())",
        [False, 70_272, 131_072],
    ),
    (
        "**512 KiB**, four times the true 128 KiB",
        f"({ans('4')}, {ans('4')} / ({L8}.kv_bytes_per_token() / 1024))",
        [512.0, 4.0],
    ),
    ("2 × 32 × 32 × 128 × 2 = 524,288 B", "2 * 32 * 32 * 128 * 2", 524_288),
    ("**21.**", ans("5"), 21),
    ("126.9 − 70 = 56.9 GB for the cache", f"round({FIT5}.kv_budget_bytes / 1e9, 1)", 56.9),
    ("327,680 B × 8,000 = 2.62 GB", f"round({FIT5}.kv_per_user_bytes / 1e9, 2)", 2.62),
    (
        "Switch the cache to FP8 as well and 43 fit",
        "kw.users_that_fit('llama-3-70b', 'H200', 8_000, weight_dtype='fp8', kv_dtype='fp8', params=70_000_000_000).users",
        43,
    ),
    ("**About 2 times** (2.05)", f"round({ans('6')}, 2)", 2.05),
    (
        "Llama 3.1 8B (Llama 3 8B's shape, built for 128K)",
        f"({L31_8}.kv_bytes_per_token() == {L8}.kv_bytes_per_token(), {L31_8}.params == {L8}.params)",
        [True, True],
    ),
    ("the weights are 16.06 GB", f"round({L31_8}.weight_bytes() / 1e9, 2)", 16.06),
    (
        "16.06 + 0.13 GB at 1K but 16.06 + 17.18 GB at 128K",
        f"(round({L31_8}.kv_bytes(1_024) / 1e9, 2), round({L31_8}.kv_bytes(131_072) / 1e9, 2))",
        [0.13, 17.18],
    ),
    (
        "(2.5 GiB apiece, 20 GiB in all)",
        f"({L31_70}.kv_bytes(8_192) / 2**30, 8 * {L31_70}.kv_bytes(8_192) == 20 * 2**30)",
        [2.5, True],
    ),
    ("**7a: 320 MiB**", ans("7a"), 320.0),
    ("**7b: 22.5 GiB**", ans("7b"), 22.5),
    ("**7c: False**", ans("7c"), False),
    # the 70B's head size from its config: hidden size over query heads (no head_dim given)
    (
        "Llama 3.1 70B has 80 layers and 8 KV heads;\nits config gives no head size, so it is the hidden size over the query heads, 8,192 ÷ 64 =\n128",
        f"({PRESET_70}['num_hidden_layers'], {PRESET_70}['num_key_value_heads'], "
        f"{PRESET_70}['hidden_size'], {PRESET_70}['num_attention_heads'], 'head_dim' in {PRESET_70}, "
        f"{L31_70}.kv_bytes_per_token() == 2 * 80 * 8 * 128 * 2)",
        [80, 8, 8_192, 64, False, True],
    ),
    ("2 × 80 × 8 × 128 × 2 B = 320 KiB", f"{L31_70}.kv_bytes_per_token() / 1024", 320.0),
    # bounding admitted work: 7 x 9,216 x 320 KiB = 20,643,840 KiB = 19.6875 GiB <= 20 GiB
    (
        "Seven would have fit (7 × 2.8125 GiB = 19.7 GiB at 9,216 tokens)",
        f"({L31_70}.kv_bytes(9_216) / 2**30, round(7 * {L31_70}.kv_bytes(9_216) / 2**30, 1), "
        f"7 * {L31_70}.kv_bytes(9_216) <= 20 * 2**30, 8 * {L31_70}.kv_bytes(9_216) <= 20 * 2**30)",
        [2.8125, 19.7, True, False],
    ),
    # step t recomputes all t tokens: 1 + 2 + ... + 500 = 500 x 501 / 2
    (
        "a 500-token answer costs 125,250 key/value\n  computations per layer instead of 500",
        "(sum(range(1, 501)), 500)",
        [125_250, 500],
    ),
    # recomputing against caching, on the measured H200 rows of Llama 3 8B's shape
    (
        "pushing an\n  8,192-token history through Llama 3 8B's shape took 228 ms",
        f"round(1000 * {PREFILL_8K}['seconds'])",
        228,
    ),
    (
        "from its cache took 8.4 ms, 27 times less",
        f"(round({DECODE_8K}['step_ms'], 1), round(1000 * {PREFILL_8K}['seconds'] / {DECODE_8K}['step_ms']))",
        [8.4, 27],
    ),
    # the emitted token's row is written when the next step consumes it
    (
        "After the prefill of a 500-token prompt the cache holds 500 rows",
        f"({STEP}(500, 0).stored_bytes // {L8}.kv_bytes_per_token(), {STEP}(500, 0).phase)",
        [500, "prefill"],
    ),
    (
        "the first decode step brings it to 501",
        f"({STEP}(500, 1).stored_bytes // {L8}.kv_bytes_per_token(), {STEP}(500, 1).written_bytes == {L8}.kv_bytes_per_token())",
        [501, True],
    ),
]

V = "kw.lessons.mistake_verdict"
CHECKS = f"[{V}(1, 8)[0], {V}(1, 9)[0], {V}(3, False)[0], {V}(2, 'lots')[0], {V}('7c', True)[0], {V}(6, None)[0], check(1, 8)]"


@pytest.fixture(scope="module")
def nb():
    return executed(NB, [e for _, e, _ in STATED] + [CHECKS])


@pytest.mark.parametrize("claim, expr, expected", STATED, ids=[c[:50] for c, _, _ in STATED])
def test_stated(nb, claim, expr, expected):
    check_stated(nb, notebook_text(NB), claim, expr, expected)


def test_check_says_right_wrong_and_never_raises(nb):
    # and the notebook's check returns nothing, so a cell ending in it shows no bare True/False
    assert nb[CHECKS] == [True, False, True, None, False, None, None]


def test_the_hint_is_pointed_at_where_the_notebook_gives_one():
    # the questions whose section holds a "Hint:" line are the ones the checker may send there
    sections = notebook_text(NB).split("**Question ")[1:]
    hinted = {s.split(".**")[0] for s in sections if "Hint:" in s.split("<details>")[0]}
    assert hinted == set(MISTAKE_HINTED) == {"6"}


def test_the_reader_meets_no_answer_or_test_code():
    # every question cell is the reader's answer and one check line: no expected_* values,
    # no checking function written out in the notebook
    code = "\n".join(code_cells(NB))
    assert "expected" not in code and "def " not in code and "tolerance" not in code
    for cell in code_cells(NB)[1:]:
        assert all(line.startswith(("answer_", "check(")) for line in cell.splitlines()), cell


def test_the_answers_live_in_the_package():
    import kvwidgets as kw
    from kvwidgets.core.errors import InputError

    assert MISTAKE_QUESTIONS == ("1", "2", "3", "4", "5", "6", "7a", "7b", "7c")
    assert kw.lessons.mistake_answer(1) == kw.lessons.mistake_answer("1")
    with pytest.raises(InputError, match="question must be one of"):
        kw.lessons.mistake_answer("8")


def test_every_right_answer_is_accepted():
    # Fill every answer cell with the folded answer: the notebook still runs and every check says right.
    answers = [
        ("answer_1 = None", "answer_1 = 8"),
        ("answer_2 = None", "answer_2 = 67"),
        ("answer_3 = None", "answer_3 = False"),
        ("answer_4 = None", "answer_4 = 512"),
        ("answer_5 = None", "answer_5 = 21"),
        ("answer_6 = None", "answer_6 = 2"),
        ("answer_7a = None", "answer_7a = 320"),
        ("answer_7b = None", "answer_7b = 22.5"),
        ("answer_7c = None", "answer_7c = False"),
    ]
    printed = [
        "answer_1 = ",
        "answer_2 = ",
        "answer_3 = ",
        "answer_4 = ",
        "answer_5 = ",
        "answer_6 = ",
        "answer_7a = ",
    ]
    got = run(
        NB,
        [
            "[kw.lessons.mistake_verdict(q, a)[0] for q, a in [(1, answer_1), (2, answer_2), (3, answer_3), (4, answer_4), (5, answer_5), "
            "(6, answer_6), ('7a', answer_7a), ('7b', answer_7b), ('7c', answer_7c)]]"
        ],
        replace=answers,
        printed=printed,
    )
    values = [v for k, v in got.items() if k != "__printed__"]
    assert values[0]["value"] == [True] * 9
    # and each cell told the reader so, in a sentence
    said = "".join(got["__printed__"].values())
    assert said.count(" is right.") == 9 and "not it yet" not in said


RETRACTED = [
    "Only if memory were free and time\n  were not",  # inverted: compute would have to be free
    "Real GPUs are the other way round",  # memory, not arithmetic, is what a serving GPU runs short of
]


def test_retracted_claims_stay_out():
    text = notebook_text(NB)
    for words in RETRACTED:
        assert words not in text, f"{NB} says {words!r} again"
    # the right way round: memory is the scarce resource, and recomputing re-runs the history every step
    assert "Storing does cost memory, the\n  resource a serving GPU runs out of first" in text
    assert "Without a cache every step runs\n  the whole history through the network again" in text
    # when not to cache (seed: no useful reuse, or an experiment that needs recomputation)
    assert "**When is a cache not worth keeping?** When nothing reuses it" in text
