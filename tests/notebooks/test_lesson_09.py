"""Notebook 09: every number its text states, read from the executed notebook."""

import pytest

from .executed import check_stated, executed, notebook_text

NB = "09_vllm_logs.ipynb"

# vLLM 0.11's step size when --max-num-batched-tokens is not given (core/vllm_rules.py,
# default_max_num_batched_tokens, read from 0.11.0 engine/arg_utils.py)
STEP_011 = "(lambda gpu: kw.vllm_kv_report(llama31_8, gpu, max_model_len=16_384, vllm_version='0.11').max_num_batched_tokens)"

STATED = [
    (
        "computes at most 2,048 tokens in one step on an A100, as in this log,\nor on any GPU under 70 GiB",
        f"(hybrid.max_num_batched_tokens, {STEP_011}('A100-80GB'), {STEP_011}('L40S'), kw.GPUS['L40S'].memory_bytes / GiB < 70)",
        [2_048, 2_048, 2_048, True],
    ),
    (
        "on a larger GPU that is not an A100, such as the H100, its default\nis 8,192",
        f"({STEP_011}('H100'), kw.GPUS['H100-SXM'].memory_bytes / GiB >= 70)",
        [8_192, True],
    ),
    (
        "for Llama 3.1 8B on one H100 (Llama 3 8B's shape; Llama 3 8B itself stops at 8,192 tokens",
        "(llama31_8.max_context, kw.load_model('llama-3-8b').max_context, llama31_8.past_max_context(logged['max_model_len']), "
        "llama31_8.kv_bytes_per_token() == kw.load_model('llama-3-8b').kv_bytes_per_token())",
        [131_072, 8_192, False, True],
    ),
    (
        "GPU KV cache size: 396,272 tokens",
        "logged",
        {"gpu_kv_cache_tokens": 396_272, "max_model_len": 16_384, "max_concurrency": 24.19},
    ),
    ("396,272 × 128 KiB = 51.9 GB", "round(from_log.kv_cache_bytes / GB, 1)", 51.9),
    ("Tokens ÷ 16 gives\nvLLM's blocks: 24,767", "(from_log.block_size, from_log.num_blocks)", [16, 24_767]),
    ('"maximum concurrency", 24.19', "round(from_log.max_concurrency, 2)", 24.19),
    ("the model's 16.06 GB of 16-bit weights", "round(llama31_8.weight_bytes() / GB, 2)", 16.06),
    ("here is set to a round 4 GB", "working", 4_000_000_000),
    ("**396,256 tokens**", "predicted.gpu_kv_cache_tokens", 396_256),
    ("72 − 16.06 − 4 = 51.94 GB", "round(predicted.kv_cache_bytes / GB, 2)", 51.94),
    (
        "That is one block (16 tokens) short of the illustrative log",
        "logged['gpu_kv_cache_tokens'] - predicted.gpu_kv_cache_tokens",
        16,
    ),
    (
        "79.1 GiB, which is 84.9 GB",
        "(round(h100_as_reported.device_bytes / GiB, 1), round(h100_as_reported.device_bytes / GB, 1))",
        [79.1, 84.9],
    ),
    ("an 80 GB H100 reports about 85 GB", "round(h100_as_reported.device_bytes / GB)", 85),
    (
        "Ninety percent of that is 76.4 GB rather than 72",
        "round(0.9 * h100_as_reported.device_bytes / GB, 1)",
        76.4,
    ),
    (
        "about 56.4 GB of pool and 430,208 tokens",
        "(round(device.kv_cache_bytes / GB, 1), device.gpu_kv_cache_tokens)",
        [56.4, 430_208],
    ),
    ("some 34,000 more", "round((device.gpu_kv_cache_tokens - predicted.gpu_kv_cache_tokens) / 1000)", 34),
    (
        "beats your estimate by about 9%",
        "round(100 * (device.gpu_kv_cache_tokens / predicted.gpu_kv_cache_tokens - 1))",
        9,
    ),
    ("the marketed size is 80 GB = 74.5 GiB", "round(80 * GB / GiB, 1)", 74.5),
    ("vLLM reports 14.99 GiB (16.10 GB)", "round(14.99 * GiB / GB, 2)", 16.1),
    (
        "comes out close to twice as large",
        "abs(fp8.gpu_kv_cache_tokens - 2 * predicted.gpu_kv_cache_tokens) <= 32",
        True,
    ),
    (
        "Gemma 3 is a\nhybrid: five of every six layers slide over a 1,024-token window",
        "[(g.spec.kind, g.count, g.spec.token_cap) for g in gemma4b.groups]",
        [["sliding", 29, 1024], ["full", 5, None]],
    ),
    ("Maximum concurrency for 3,072 tokens per request: 102.78x", "round(hybrid.max_concurrency, 2)", 102.78),
    ("Add 1 padding layers", "hybrid.padding_layers", 1),
    # the hybrid question
    (
        "34 layers,\n29 sliding (window 1,024) and 5 full",
        "(gemma4b.num_layers, [(g.spec.kind, g.count) for g in gemma4b.groups])",
        [34, [["sliding", 29], ["full", 5]]],
    ),
    (
        "so there are seven\ngroups",
        "(len(hybrid.groups), hybrid.group_size, hybrid.padding_layers)",
        [7, 5, 1],
    ),
    (
        "The full group needs\n3,072 ÷ 16 = 192 blocks",
        "[g.blocks_per_request for g in hybrid.groups if g.kind == 'full']",
        [192],
    ),
    (
        "**193, more than the full group's 192.**",
        "(sliding_group.blocks_per_request, sorted({g.blocks_per_request for g in hybrid.groups}))",
        [193, [192, 193]],
    ),
    (
        "6 × 193 + 192 = 1,350 blocks",
        "(hybrid.blocks_per_request, sum(g.blocks_per_request for g in hybrid.groups))",
        [1_350, 1_350],
    ),
    (
        "138,747 ÷ 1,350 = 102.78",
        "(hybrid.num_blocks, round(hybrid.num_blocks / hybrid.blocks_per_request, 2))",
        [138_747, 102.78],
    ),
    ("317,136, is one group's blocks × 16", "hybrid.num_blocks // len(hybrid.groups) * 16", 317_136),
    ("dividing it by 3,072 (103.23)", "round(317_136 / 3_072, 2)", 103.23),
    (
        "`--gpu-memory-utilization` (set too\n  low?)",
        "low.gpu_kv_cache_tokens < predicted.gpu_kv_cache_tokens / 2",
        True,
    ),
]


# the A100 log's step size, once stated as if it held everywhere
RETRACTED = ["vLLM prefills up to 2,048"]


def test_retracted_claims_stay_out():
    text = notebook_text(NB)
    for words in RETRACTED:
        assert words not in text, f"{NB} says {words!r} again"


def test_the_run_time_metrics_are_named_as_vllm_exposes_them():
    text = notebook_text(NB)
    # prometheus_client exposes the counter declared as vllm:num_preemptions with _total
    for name in ("`vllm:kv_cache_usage_perc`", "`vllm:num_requests_waiting`", "`vllm:num_preemptions_total`"):
        assert name in text
    assert "`vllm:num_preemptions` counts" not in text


@pytest.fixture(scope="module")
def nb():
    return executed(NB, [e for _, e, _ in STATED])


@pytest.mark.parametrize("claim, expr, expected", STATED, ids=[c[:50] for c, _, _ in STATED])
def test_stated(nb, claim, expr, expected):
    check_stated(nb, notebook_text(NB), claim, expr, expected)
