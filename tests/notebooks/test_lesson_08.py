"""Notebook 08: every number its text states, read from the executed notebook."""

import pytest

from .executed import check_stated, executed, notebook_text

NB = "08_fp8_prefix_offload.ipynb"
X = "x faster than recompute, best cases"


def opt(frame: str, startswith: str, col: str) -> str:
    return f"{frame}[{frame}['option'].str.startswith({startswith!r})][{col!r}].iloc[0]"


STATED = [
    (
        "128 KiB becomes 64 KiB",
        "(llama8.kv_bytes_per_token('bf16') // KiB, llama8.kv_bytes_per_token('fp8') // KiB)",
        [128, 64],
    ),
    ("not the A100", "('A100-80GB' in fp8_gpus, 'H100-SXM' in fp8_gpus)", [False, True]),
    ("held 53 conversations of 8,000 tokens", "bf16_users", 53),
    ("**106**, twice 53", "fp8_users", 106),
    (
        "56 GB ÷ 0.52 GB is 106.7",
        "(round(kw.users_that_fit(llama8, 'H100', 8_000, kv_dtype='fp8').kv_per_user_bytes / GB, 2), "
        "round(kw.users_that_fit(llama8, 'H100', 8_000, kv_dtype='fp8').kv_budget_bytes / kw.users_that_fit(llama8, 'H100', 8_000, kv_dtype='fp8').kv_per_user_bytes, 1))",
        [0.52, 106.7],
    ),
    (
        "the exact\ncount doubles, from 53.3 in 16-bit",
        "round(kw.users_that_fit(llama8, 'H100', 8_000).kv_budget_bytes / kw.users_that_fit(llama8, 'H100', 8_000).kv_per_user_bytes, 1)",
        53.3,
    ),
    (
        "FP8 halves the bytes per token",
        "2 * llama8.kv_bytes_per_token('fp8') == llama8.kv_bytes_per_token('bf16')",
        True,
    ),
    (
        "Only whole conversations fit, so each count rounds down:\n53 and 106",
        "(bf16_users, fp8_users)",
        [53, 106],
    ),
    (
        "holds 21 conversations\nwith the default 16-bit cache and 43",
        "(fp8_weights_only.users, both_fp8.users)",
        [21, 43],
    ),
    (
        "26 GB if every user keeps a copy, 0.5 GB stored once",
        "(shared.unshared_bytes == 50 * 4_000 * 131_072, round(shared.unshared_bytes / GB), round(shared.shared_bytes / GB, 1))",
        [True, 26, 0.5],
    ),
    ("4,096 tokens\ntook 107 ms", "round(prefill.loc[4_096, 'seconds'] * 1e3)", 107),
    # the floor stated is the one the table under it prints, for the same 4,096 tokens
    (
        "for those 4,096 tokens, 2 ×\nparameters × tokens at 989 TFLOPS, is 66.5 ms",
        "(round(prefill.loc[4_096, 'ideal floor (ms)'], 1), kw.GPUS['H200'].bf16_tflops)",
        [66.5, 989],
    ),
    ("the measurement is 1.28 s saved", "round(prefill.loc[32_768, 'seconds'], 2)", 1.28),
    ("(1.07 GB\nof cache)", "(round(cache_bytes / GB, 2), offload['model'].iloc[0])", [1.07, "llama-3.1-8b"]),
    (
        "ideal recompute floor of 133 ms",
        "round(offload[offload['option'].str.startswith('recompute')]['fastest (ms)'].iloc[0])",
        133,
    ),
    (
        "pinned CPU memory by\n7.9x",
        f"round({opt('offload', 'reload from CPU memory over PCIe Gen5', X)}, 1)",
        7.9,
    ),
    ("even a fast NVMe drive by 1.8x", f"round({opt('offload', 'reload from Local NVMe', X)}, 1)", 1.8),
    (
        "A slow drive (3.5 GB/s, 307 ms) does not",
        f"(kw.STORAGE['nvme-ssd'].low_gbps, round({opt('offload', 'reload from Local NVMe', 'slowest (ms)')}), "
        f"{opt('offload', 'reload from Local NVMe', 'slowest (ms)')} > {opt('offload', 'recompute', 'fastest (ms)')})",
        [3.5, 307, True],
    ),
    (
        "ran at 55.4 GB/s (19 ms for this conversation)",
        "(round(copy['h2d_pinned_GBps'], 1), round(pinned_s * 1e3))",
        [55.4, 19],
    ),
    ("at\n6.8 GB/s (158 ms)", "(round(copy['h2d_pageable_GBps'], 1), round(pageable_s * 1e3))", [6.8, 158]),
    ("took 228 ms", "round(measured_prefill_s * 1e3)", 228),
    ("Pinned memory is about 12\ntimes faster", "round(measured_prefill_s / pinned_s)", 12),
    ("unpinned memory is barely faster", "1 < measured_prefill_s / pageable_s < 1.6", True),
    (
        "the pinned copy beats the ideal floor by about 28x, against 7.9x for the 8B",
        f"(round(pinned.set_index(['model', 'tokens']).loc[('llama-3.1-70b', 8_192), {X!r}]), round(pinned.set_index(['model', 'tokens']).loc[('llama-3.1-8b', 8_192), {X!r}], 1))",
        [28, 7.9],
    ),
    (
        "32,768 tokens took 5.6 times as long as 8,192, not 4",
        "round(prefill.loc[32_768, 'seconds'] / prefill.loc[8_192, 'seconds'], 1)",
        5.6,
    ),
    # the PagedBlocks task: a prefix shared in blocks
    (
        "50 × 500 = 25,000 blocks",
        "(shared_prompt.paged_blocks, shared_prompt.blocks_unshared)",
        [500, 25_000],
    ),
    ("**12,750**", "shared_prompt.blocks_shared", 12_750),
    (
        "**the same model**",
        "kw.load_model('qwen3-8b').kv_bytes_per_token() != llama8.kv_bytes_per_token()",
        True,
    ),
    (
        "the prefix's 250 blocks once, plus 250 blocks of each conversation's own",
        "(shared_prompt.shared_blocks, shared_prompt.own_blocks)",
        [250, 250],
    ),
    (
        "just over half of 25,000",
        "0.5 < shared_prompt.blocks_shared / shared_prompt.blocks_unshared < 0.55",
        True,
    ),
    (
        "the H100 holds 105 such requests at once",
        "(shared_prompt.users_sharing, shared_prompt.users_paged)",
        [105, 53],
    ),
    (
        "type 50 in **Conversations sharing**",
        "[setattr(prefix_blocks, 'users', 50), (prefix_blocks.result['blocks_shared'], prefix_blocks.result['blocks_unshared'], "
        "prefix_blocks.result['users_sharing'])][-1]",
        [12_750, 25_000, 105],
    ),
    # the OffloadOrRecompute task
    ("the slow end of local SSDs, 3.5 GB/s", "kw.STORAGE['nvme-ssd'].low_gbps", 3.5),
    ("**About 28,000 tokens** (28,049)", "crossing", 28_049),
    (
        "its **Copy speed** starts at the slow end",
        "(offload_widget.speed, offload_widget.result['crossovers']['nvme-ssd']['measured'])",
        ["low", 28_049],
    ),
    (
        "whichever is faster at 1K is faster at 1M",
        "all(__import__('kvwidgets.core', fromlist=['x']).recompute_crossover(llama8, 'H200', t, speed=s) is None "
        "for t in kw.STORAGE for s in ('low', 'typical', 'high'))",
        True,
    ),
    (
        "the drive beats\nthe measured prefill at every measured length",
        "(kw.STORAGE['nvme-ssd'].typical_gbps, all(llama8.kv_bytes(r['tokens']) / (kw.STORAGE['nvme-ssd'].typical_gbps * 1e9) < r['seconds'] "
        "for r in h200_prefill()), [setattr(offload_widget, 'speed', 'typical'), offload_widget.result['crossovers']['nvme-ssd']['measured']][-1])",
        [7, True, None],
    ),
    # the offload task and tables run on a model built for their lengths, with the measured prefill drawn
    (
        "with a 131,072-token maximum, so the\nlong conversations below are ones the model can hold",
        "(offload_widget.model, llama31_8.max_context, llama31_8.past_max_context(crossing), bool(by_model['past max context'].any()), "
        "offload_widget.result['shows_measured'])",
        ["llama-3.1-8b", 131_072, False, False, True],
    ),
    (
        "the shape the prefill was measured on (Llama 3 8B's)",
        "(llama31_8.kv_bytes_per_token() == llama8.kv_bytes_per_token(), llama31_8.params == llama8.params)",
        [True, True],
    ),
    (
        "Against the ideal\nfloor the same drive loses at every length",
        "(__import__('kvwidgets.core', fromlist=['x']).recompute_crossover(llama8, 'H200', 'nvme-ssd', speed='low'), "
        "kw.reload_seconds(llama8, 1_024, 'nvme-ssd', speed='low') > kw.prefill_seconds(llama8, 'H200', 1_024))",
        [None, True],
    ),
]


# Claims once in the text that were wrong or in no source: each must stay out.
RETRACTED = [
    "doubling before the\nfloor",  # said the same as the rounding below it, in a puzzling way
    "roughly ten times",  # in no source
    "blocks shared,",  # 12,750 is every block with the prefix shared; 250 of them are shared
    "parking the caches of idle conversations",  # between turns vLLM holds no blocks for them
    "kvwidgets.widgets.offload import",  # a widget module's helper; the public one is in kvwidgets.data.measured
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
