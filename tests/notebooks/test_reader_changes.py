"""A reader changes numbers in the code cells and re-runs the whole notebook.

The series invites it ("Try it: change ... and re-run"). Each case swaps reader-facing
values (the snippet must exist once, so the test breaks if the notebook changes under it),
runs every cell in a fresh kernel, and reads the changed result back. Nothing may stop
the notebook but a clear kvwidgets error, never a failed assert.
"""

from __future__ import annotations

import re

import pytest

from .executed import PRINTED as PRINTED_KEY
from .executed import NotebookRunError, run

CASES = {
    # notebook: (swaps, expression read back afterwards, the value it must now give)
    "01 answer_tokens=2000 and a guess": (
        "01_keys_and_values.ipynb",
        [
            ("answer_tokens = 500", "answer_tokens = 2_000"),
            (
                "my_guess = None  # write your guess: key/value computations",
                "my_guess = 1_000_000  # my guess: key/value computations",
            ),
        ],
        "(without_cache, with_cache, reads_with_cache)",
        [2_001_000, 2_000, 2_001_000],
    ),
    "02 fp8 table and guess": (
        "02_sizing_formula.ipynb",
        [
            ('kv_dtype = "bf16"          # try "fp8"', 'kv_dtype = "fp8"'),
            ("my_guess = None", "my_guess = 160"),
        ],
        "per_conversation.loc['llama-3.1-8b', '8K tokens (GB)'] * 1e9",
        8_192 * 65_536,
    ),
    "02 qwen3-32b added to the table, as the notebook invites": (
        "02_sizing_formula.ipynb",
        [
            (
                'models = ["llama-3.1-8b", "llama-3.1-70b", "deepseek-v3", "gpt-oss-120b"]',
                'models = ["llama-3.1-8b", "llama-3.1-70b", "deepseek-v3", "gpt-oss-120b", "qwen3-32b"]',
            )
        ],
        "(int(per_conversation.loc['qwen3-32b', 'max context (tokens)']), per_conversation.loc['qwen3-32b', 'past max context'])",
        [40_960, "128K, 1M"],
    ),
    "02 a config with 4 KV heads": (
        "02_sizing_formula.ipynb",
        [('"num_key_value_heads": 8', '"num_key_value_heads": 4')],
        "mine.kv_bytes_per_token()",
        65_536,
    ),
    "03 guesses as text and numbers": (
        "03_attention_designs.ipynb",
        [
            ("my_guess = None  # write your guess, in KiB per token", "my_guess = 'sixteen'"),
            ("my_guess = None  # write your guess, in GB", "my_guess = 4.6"),
        ],
        "my_guess",
        4.6,
    ),
    "04 a guess": (
        "04_sliding_and_hybrid.ipynb",
        [("my_guess = None", "my_guess = 3")],
        "round(hybrid_widget.result['kv_bytes'] / 1e6)",
        436 + 84,
    ),
    "05 128K on the H100, two GPUs for the 70B": (
        "05_users_that_fit.ipynb",
        [
            (
                'h100 = kw.users_that_fit(llama8, "H100", context=8_000)',
                'h100 = kw.users_that_fit(llama8, "H100", context=131_072)',
            ),
            (
                'setup = dict(context=8_000, weight_dtype="fp8", num_gpus=1)',
                'setup = dict(context=8_000, weight_dtype="fp8", num_gpus=2)',
            ),
            ('("llama-3.1-70b", 4, 8_192)', '("llama-3.1-70b", 2, 8_192)'),
        ],
        "(h100.users, exact.users, int(worked.loc[3, 'users']))",
        [3, 28, 1],
    ),
    "06 a batch of 8 at 128K (does not fit) and other contexts": (
        "06_decode_speed.ipynb",
        [
            ("batch = 3", "batch = 8"),
            (
                "contexts=[1_024, 8_192, 32_768, 131_072], batches=[1, 8, 32]",
                "contexts=[2_000, 500_000], batches=[2, 64]",
            ),
        ],
        "(round(bf16.tokens_per_s_per_user, 1), len(per_user))",
        [21.8, 2],
    ),
    "07 reserve 128K in the mix, 2,000 used tokens": (
        "07_paged_attention.ipynb",
        [("max_len = 32_768", "max_len = 131_072"), ("used_tokens=8_000", "used_tokens=2_000")],
        "(cmp.users_paged, round(summary.loc['reserve max length', 'wasted share'], 2))",
        [213, 0.92],
    ),
    "08 a length with no measured prefill": (
        "08_fp8_prefix_offload.ipynb",
        [
            ("tokens = 8_192\n", "tokens = 10_000\n"),
            ("prefix_sharing(llama8, users=50", "prefix_sharing(llama8, users=500"),
        ],
        "(round(cache_bytes / 1e9, 2), round(shared.unshared_bytes / 1e9))",
        [1.31, 262],
    ),
    "01 a longer prompt in the decode step": (
        "01_keys_and_values.ipynb",
        [
            (
                'kw.DecodeStep(model="llama-3-8b", prompt_tokens=40)',
                'kw.DecodeStep(model="llama-3-8b", prompt_tokens=2_000)',
            )
        ],
        "(decode_widget.result['tokens'], decode_widget.result['stored_bytes'], decode_widget.error)",
        [2_000, 2_000 * 131_072, ""],
    ),
    "09 a smaller working area and a pasted log": (
        "09_vllm_logs.ipynb",
        [
            ("working = 4 * GB", "working = 2 * GB"),
            ("your_log = None", "your_log = 'INFO GPU KV cache size: 100,000 tokens'"),
        ],
        "(predicted.gpu_kv_cache_tokens > 396_256, mine.num_blocks)",
        [True, 6_250],
    ),
    "11 longer conversations on the stages and over the link": (
        "11_beyond_one_gpu.ipynb",
        [
            ("context = 8_192", "context = 32_768"),
            ("moved = 32_768", "moved = 131_072"),
            ("my_guess = None  # write your guess: decode steps", "my_guess = 8  # decode steps"),
        ],
        # 131,072 tokens x 131,072 B = 17.18 GB; / 450 GB/s = 38.2 ms
        "(pp3.conversations, pp3.summed_conversations, round(first.seconds * 1e3, 1), first.measured_prefill_seconds)",
        [21, 22, 38.2, None],
    ),
}


# What the changed cells then print, parsed from their output text: (a snippet naming the
# code cell, a regular expression, what re.findall must give). The labels a cell prints
# must follow the numbers the reader set, not keep the numbers the notebook started with.
PRINTED = {
    "01 answer_tokens=2000 and a guess": [
        (
            "answer_tokens = ",
            r"computations per layer (?:without|with) a cache: +([\d,]+)",
            ["2,001,000", "2,000"],
        ),
        ("answer_tokens = ", r"stored tokens read per layer with a cache: +([\d,]+)", ["2,001,000"]),
        (
            "check_guess(my_guess, without_cache",
            r"Your guess ([\d,]+), the answer ([\d,]+) computations",
            [("1,000,000", "2,001,000")],
        ),
    ],
    "01 a longer prompt in the decode step": [
        # the check under the widget follows the widget's prompt, not the 40 the notebook started with
        (
            "first_step = decode_step_bytes",
            r"after a ([\d,]+)-token prompt: .* reads ([\d.]+ \w+)\n +(\d+) full layers: each reads the keys and values of ([\d,]+) tokens",
            [("2,000", "262.28 MB", "32", "2,001")],
        ),
    ],
    "02 fp8 table and guess": [
        # every row of the table the reader sees now says fp8, at half the 16-bit bytes
        (
            "per_conversation = ",
            r"(llama-3\.1-8b|llama-3\.1-70b|deepseek-v3|gpt-oss-120b) +(\w+) +([\d.]+) +\d+ *\n",
            [
                ("llama-3.1-8b", "fp8", "64.00"),
                ("llama-3.1-70b", "fp8", "160.00"),
                ("deepseek-v3", "fp8", "34.31"),
                ("gpt-oss-120b", "fp8", "18.00"),
            ],
        ),
        ("check_guess(my_guess", r"Your guess (\d+) KiB is exactly right", ["160"]),
    ],
    "02 qwen3-32b added to the table, as the notebook invites": [
        # the row shown says which of its columns Qwen3 32B (built for 40,960 tokens) cannot run
        ("per_conversation = ", r"(?m)^qwen3-32b .*? (\d+K(?:, \d+[KM])*) *$", ["128K, 1M"]),
    ],
    "02 a config with 4 KV heads": [
        (
            "mine = kw.load_model",
            r"(\d+) x full: (\d+) KV heads x (\d+).*> ([\d,]+) B per token",
            [("32", "4", "128", "65,536")],
        ),
    ],
    "04 a guess": [
        (
            "check_guess(my_guess, gemma.kv_bytes(32_768)",
            r"Your guess (\d+), the answer ([\d.]+) GB: off by ([\d.]+)",
            [("3", "0.436", "2.56")],
        ),
    ],
    "03 guesses as text and numbers": [
        (
            'check_guess(my_guess, shapes["MQA',
            r"Your guess (.*?), the answer (\d+) KiB: (.*?)\.\n",
            [("'sixteen'", "16", "not quite")],
        ),
        ("check_guess(my_guess, deepseek", r"Your guess ([\d.]+), the answer ([\d.]+) GB", [("4.6", "4.61")]),
    ],
    "09 a smaller working area and a pasted log": [
        (
            "working = ",
            r"predicted with a (\d+) GB working area: ([\d,]+) \(\+([\d,]+)\)",
            [("2", "411,520", "15,248")],
        ),
        (
            "your_log = ",
            r"(\S+): ([\d,]+) tokens x ([\d,]+) B = ([\d.]+) GB, ([\d,]+) blocks; concurrency for ([\d,]+)-token requests",
            [("llama-3.1-8b", "100,000", "131,072", "13.11", "6,250", "16,384")],
        ),
    ],
    "06 a batch of 8 at 128K (does not fit) and other contexts": [
        (
            "batch = ",
            r"batch (\d+) at 128K: ([\d.]+) tokens/s per user with a 16-bit cache \((.*?)\), (\d+) with FP8 \((.*?)\)",
            [("8", "22", "does not fit", "40", "does not fit")],
        ),
        (
            "batch = ",
            r"batch (\d+) at 128K, FP8: (\d+) tokens/s per user \((.*?)\)",
            [("16", "22", "does not fit")],
        ),
    ],
    "08 a length with no measured prefill": [
        (
            "copy = h200_host_copy_gbps()",
            r"(llama-3\.1-8b), ([\d,]+) tokens \(([\d.]+) GB of cache\)",
            [("llama-3.1-8b", "10,000", "1.31")],
        ),
        ("copy = h200_host_copy_gbps()", r"no prefill was measured at ([\d,]+) tokens", ["10,000"]),
        (
            "shared = kw.prefix_sharing",
            r"(\d+) users, a ([\d,]+)-token prefix: every user keeps a copy: (\d+) GB; stored once: ([\d.]+) GB",
            [("500", "4,000", "262", "0.5")],
        ),
    ],
    "05 128K on the H100, two GPUs for the 70B": [
        # the 128K conversation is labelled 131,072 tokens, and Llama 3 8B's maximum is named
        (
            "h100 = kw.users_that_fit",
            r"one ([\d,]+)-token conversation: ([\d.]+) GB -> (\d+) users",
            [("131,072", "17.18", "3")],
        ),
        (
            "h100 = kw.users_that_fit",
            r"(\d+) conversations of ([\d,]+) tokens fit at once, but .* maximum of ([\d,]+)\.",
            [("3", "131,072", "8,192")],
        ),
        # both parameter counts on the two GPUs set, never a 2-GPU figure beside a 1-GPU one
        (
            "setup = dict(",
            r"(\d) x H100, ([\d,]+) tokens: 70.6 B parameters leave ([\d.]+) GB \((\d+) users\); 70.0 B leave ([\d.]+) GB \((\d+) users\)",
            [("2", "8,000", "73.45", "28", "74.00", "28")],
        ),
    ],
    "11 longer conversations on the stages and over the link": [
        # both tables say the length the reader set, and what each deployment then holds
        ("pp2 = kw.placement", r"conversations of ([\d,]+) tokens", ["32,768", "32,768"]),
        ("pp2 = kw.placement", r"holds (\d+); the summed memory claims (\d+)", [("10", "10"), ("21", "22")]),
        # no prefill was measured at 131,072 tokens: the line is left out rather than guessed
        ("moves = {link", r"one ([\d,]+)-token conversation is ([\d.]+) GB", [("131,072", "17.18")]),
        ("moves = {link", r"prefill measured", []),
        ("moves = {link", r"Your guess (\d+), the answer ([\d.]+) decode steps", [("8", "5.5")]),
    ],
    "07 reserve 128K in the mix, 2,000 used tokens": [
        (
            "cmp = kw.paged_vs_reserved",
            r"reserving ([\d,]+) tokens per conversation: (\d+) users",
            [("131,072", "3")],
        ),
        (
            "cmp = kw.paged_vs_reserved",
            r"paging the ([\d,]+) tokens actually used: (\d+) users",
            [("2,000", "213")],
        ),
        # 213 conversations of 2,000 tokens, not 8,000: half of them (106) hold 27.8 GB of a 56 GB pool, not 112
        (
            "held_between_turns = reading",
            r"(\d+) conversations of ([\d,]+) tokens fill the (\d+) GB pool",
            [("213", "2,000", "56")],
        ),
        (
            "held_between_turns = reading",
            r"(\d+) users reading between turns .*?\(([\d.]+) GB\) were freed",
            [("106", "27.8")],
        ),
        # 2,000 tokens = 125 blocks of 16 while the reply is written, none once the turn has ended
        (
            "held_between_turns = reading",
            r"holds (\d+) blocks of its own while its reply is written, (\d+) once",
            [("125", "0")],
        ),
    ],
}


@pytest.mark.parametrize("case", list(CASES))
def test_reader_change_runs(case):
    name, swaps, expr, expected = CASES[case]
    checks = PRINTED.get(case, [])
    out = run(name, [expr], replace=swaps, printed=sorted({snippet for snippet, _, _ in checks}))
    got = out[expr]
    assert got.get("value") == expected, f"{case}: {expr} -> {got}"
    for snippet, pattern, want in checks:
        text = out[PRINTED_KEY][snippet]
        assert re.findall(pattern, text) == want, f"{case}: the cell with {snippet!r} printed:\n{text}"


def test_every_reader_change_checks_what_it_prints():
    # a change that only had to run would let a stale label through (a cell printing the old
    # model's name with the new model's numbers runs without error)
    assert set(PRINTED) <= set(CASES), sorted(set(PRINTED) - set(CASES))
    assert [case for case in CASES if not PRINTED.get(case)] == []


def test_a_bad_number_stops_with_a_kvwidgets_error():
    # A negative context is refused with the field named, not a traceback from deep inside.
    with pytest.raises(NotebookRunError) as err:
        run(
            "05_users_that_fit.ipynb",
            [],
            replace=[
                (
                    'h100 = kw.users_that_fit(llama8, "H100", context=8_000)',
                    'h100 = kw.users_that_fit(llama8, "H100", context=-8_000)',
                )
            ],
        )
    text = str(err.value)
    assert "InputError" in text and "context must be a whole number >= 1" in text
    assert "AssertionError" not in text


def test_an_explainer_refuses_a_bad_input_under_itself():
    # A shared prefix as long as the whole request: the widget says why under itself, the
    # notebook runs on (the check cell below it uses its own numbers).
    got = run(
        "08_fp8_prefix_offload.ipynb",
        ["prefix_blocks.error"],
        replace=[("users=4, prefix_tokens=4_000)", "users=4, prefix_tokens=8_000)")],
    )["prefix_blocks.error"]
    assert "(prefix_tokens, 8,000) must be shorter than the tokens used (used_tokens" in got.get(
        "value", ""
    ), got


def test_a_log_without_the_kv_line_says_so():
    with pytest.raises(NotebookRunError) as err:
        run("09_vllm_logs.ipynb", [], replace=[("your_log = None", "your_log = 'nothing useful'")])
    assert "InputError" in str(err.value) and "GPU KV cache size: N tokens" in str(err.value)
