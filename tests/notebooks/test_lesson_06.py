"""Notebook 06: every number its text states, read from the executed notebook."""

import pytest

from .executed import check_stated, executed, notebook_text

NB = "06_decode_speed.ipynb"
W = "speed_widget"

# a batch-1 row of the measured H200 decode steps, by context
ROW = "(lambda context: next(r for r in h200_decode('sdpa') if r['batch'] == 1 and r['context'] == context))"

STATED = [
    ("on one H100 (3.35 TB/s)", "kw.GPUS['H100-SXM'].bandwidth_gbps", 3_350),
    (
        "the\nideal ceiling is 207 tokens/s",
        "round(kw.decode_ceiling(llama31_8, 'H100', context=1_024, batch=1).tokens_per_s_per_user)",
        207,
    ),
    (
        "16.06 GB of weights and only 0.13 GB of cache",
        "(round(llama31_8.weight_bytes() / GB, 2), round(llama31_8.kv_bytes(1_024) / GB, 2))",
        [16.06, 0.13],
    ),
    ("**About 101 tokens/s**", "round(long_one.tokens_per_s_per_user)", 101),
    (
        "half the short-context speed",
        "round(kw.decode_ceiling(llama31_8, 'H100', context=1_024, batch=1).tokens_per_s_per_user / long_one.tokens_per_s_per_user, 1)",
        2.1,
    ),
    (
        "(17.18 GB) outweighs the weights (16.06 GB)",
        "(round(llama31_8.kv_bytes(131_072) / GB, 2), llama31_8.kv_bytes(131_072) > llama31_8.weight_bytes())",
        [17.18, True],
    ),
    ("52% of every step's bytes are KV cache", "round(100 * long_one.kv_share)", 52),
    (
        "choose the H100, context 131,072, batch 1",
        f"[setattr({W}, 'gpu', 'H100-SXM'), setattr({W}, 'context', 131_072), setattr({W}, 'batch', 1), "
        f"(round({W}.result['tokens_per_s_per_user'], 6) == round(long_one.tokens_per_s_per_user, 6), round(100 * {W}.result['kv_share']))][-1]",
        [True, 52],
    ),
    (
        "the per-user ceiling falls as the context grows",
        "all(per_user[b].is_monotonic_decreasing for b in per_user.columns)",
        True,
    ),
    (
        "32 conversations of 128K tokens\ndo not fit on one H100, and neither do 8",
        "[bool(x) for x in ceilings.set_index(['context (tokens)', 'batch'])['fits in memory'][131_072].loc[[1, 8, 32]]]",
        [True, False, False],
    ),
    (
        "holds 3 conversations with a 16-bit cache (56 GB free, 17.18 GB each)",
        "(room.users, round(room.kv_budget_bytes / GB), round(room.kv_per_user_bytes / GB, 2))",
        [3, 56, 17.18],
    ),
    (
        "A batch of 8 would\nneed 137 GB of cache (69 GB even in FP8)",
        "(round(eight / GB), round(eight / 2 / GB))",
        [137, 69],
    ),
    (
        "the FP8 cache lifts the ceiling from 50 to 80 tokens/s per user",
        "(round(bf16.tokens_per_s_per_user), round(fp8.tokens_per_s_per_user), fp8.kv_bytes_per_step * 2 == bf16.kv_bytes_per_step)",
        [50, 80, True],
    ),
    (
        "keep the speed at 50 and\nserve 6 conversations, which is what fits in FP8",
        "(round(fp8_doubled.tokens_per_s_per_user), room_fp8.users)",
        [50, 6],
    ),
    (
        "each holds 2.5 GiB, so one decode\nstep attends over 80 GiB",
        "(llama31_70.kv_bytes(8_192) / GiB, payload / GiB)",
        [2.5, 80.0],
    ),
    (
        "16.06 GB of 16-bit weights",
        "bool((measured['bytes_per_step'] - measured['batch'] * (measured['context'] + 1) * 131_072 == llama31_8.weight_bytes()).all())",
        True,
    ),
    ("the H200's 4.8 TB/s", "kw.GPUS['H200'].bandwidth_gbps", 4_800),
    ("No measurement beats the ceiling", "bool((measured['share of ideal'] < 1).all())", True),
    ("reaches over three quarters of it", "busy['share of ideal'].min() > 0.75", True),
    ("One conversation at 128K reaches\nunder 15%", "lonely['share of ideal'].iloc[0] < 0.15", True),
    (
        "the\n  measured points are drawn",
        "(kw.DecodeSpeed(model='llama-3-8b', gpu='H200').result['shows_measured'], kw.DecodeSpeed(model='llama-3.1-8b', gpu='H200').result['shows_measured'], "
        "kw.DecodeSpeed(model='qwen3-8b', gpu='H200').result['shows_measured'])",
        [True, True, False],
    ),
    # long contexts on a model built for them
    (
        "this notebook uses **Llama 3.1 8B**",
        "(llama31_8.name, llama31_8.max_context, speed_widget.model, bool(ceilings['past max context'].any()), "
        "llama31_8.kv_bytes_per_token() == kw.load_model('llama-3-8b').kv_bytes_per_token(), llama31_8.params == kw.load_model('llama-3-8b').params)",
        ["llama-3.1-8b", 131_072, "llama-3.1-8b", False, True, True],
    ),
    # the slow single conversation: what the measured rows show, and what they do not record
    (
        "its step took 58 ms where the ceiling allows 6.9 ms",
        "(round(lonely['step_ms'].iloc[0]), round(1000 / lonely['ideal tokens/s per user'].iloc[0], 1))",
        [58, 6.9],
    ),
    # 32K -> 128K at batch 1: (131,072 - 32,768) x 131,072 B = 12.88 GB more, 58.06 - 18.33 = 39.7 ms more
    (
        "Going from 32K to 128K added\n12.9 GB of history to the step and 40 ms to its time, so that history was read at about\n0.32 TB/s",
        f"(round({ROW}(131_072)['bytes_per_step'] / 1e9 - {ROW}(32_768)['bytes_per_step'] / 1e9, 1), "
        f"round({ROW}(131_072)['step_ms'] - {ROW}(32_768)['step_ms']), "
        f"round(({ROW}(131_072)['bytes_per_step'] - {ROW}(32_768)['bytes_per_step']) / ({ROW}(131_072)['step_ms'] - {ROW}(32_768)['step_ms']) / 1e9, 2))",
        [12.9, 40, 0.32],
    ),
    (
        "batches of 32 and more at 8K and beyond moved 3.9 to 4.1 TB/s",
        "(round(busy['achieved_GBps'].min() / 1000, 1), round(busy['achieved_GBps'].max() / 1000, 1))",
        [3.9, 4.1],
    ),
    # the rows name the function that ran, never the backend it picked
    (
        "not which of its kernels (flash,\nmemory-efficient or cuDNN)",
        "(sorted(h200_decode('sdpa')[0]), sorted(set(r['attention'] for r in h200_decode('sdpa'))))",
        [
            [
                "achieved_GBps",
                "attention",
                "batch",
                "bytes_per_step",
                "context",
                "step_ms",
                "tokens_per_s_per_user",
                "tokens_per_s_total",
            ],
            ["sdpa"],
        ],
    ),
    (
        "packs the four query heads that share a KV head",
        "llama31_8.num_query_heads // llama31_8.groups[0].spec.num_kv_heads",
        4,
    ),
]


RETRACTED = [
    "one query per KV head",  # Llama 3 8B has four
    # not what PyTorch's flash kernel does at batch 1: it packs a KV head's query heads and
    # splits the context (flash_api.cpp, mha_fwd / set_params_splitkv); the data does not say which kernel ran
    "32 thread blocks",
    "divides a decode step's work by sequence and head only",
]


def test_retracted_claims_stay_out():
    text = notebook_text(NB)
    for words in RETRACTED:
        assert words not in text, f"{NB} says {words!r} again"


@pytest.fixture(scope="module")
def nb():
    return executed(NB, [e for _, e, _ in STATED])


@pytest.mark.parametrize("claim, expr, expected", STATED, ids=[c[:50] for c, _, _ in STATED])
def test_stated(nb, claim, expr, expected):
    check_stated(nb, notebook_text(NB), claim, expr, expected)
