"""Start-up logs that users pasted in public threads, checked against the accounting.

Each fixture cites its thread. A log gives the token count and the concurrency (2 decimals)
and sometimes the memory (2 decimals of GiB, so +-0.005 GiB); the tests work out by hand
which block counts (or memory) the logged figures allow, then ask kvwidgets for exactly
those figures. The models are built here from their configs' numbers.
"""

from __future__ import annotations

import pytest

import kvwidgets as kw
from kvwidgets.core import FullAttentionSpec, LayerGroup, Model, SlidingWindowSpec

GiB = 2**30


def cdiv(a, b):
    return -(-a // b)


def gemma3_4b():
    # google/gemma-3-4b-it text config: 34 layers, every 6th full (sliding_window_pattern 6:
    # layers 5, 11, 17, 23, 29), the other 29 sliding at 1,024; 4 KV heads x 256.
    return Model(
        "gemma-3-4b",
        (LayerGroup(SlidingWindowSpec(4, 256, window=1024), 29), LayerGroup(FullAttentionSpec(4, 256), 5)),
        4_300_000_000,
    )


def test_gemma3_4b_log_vllm_0110():
    """ovg-project/kvcached#215 (2025-11-13), vLLM 0.11.0 (the log's kv_cache_utils.py line
    numbers 982 / 1087 / 1091 are 0.11.0's), gemma-3-4b-it on an A100, --max-model-len 3072:
        Add 1 padding layers, may waste at most 3.45% KV cache memory
        GPU KV cache size: 317,136 tokens
        Maximum concurrency for 3,072 tokens per request: 102.78x
    Group size min(29, 5) = 5: 29 sliding layers fill 6 groups with 1 padding slot (1/29 =
    3.45%), plus 1 full group: 7 groups. Tokens = num_blocks // 7 x 16 = 317,136 ->
    num_blocks in 138,747..138,753. A request: full cdiv(3072, 16) = 192; sliding
    cdiv(min(1023 + 2048, 3072), 16) + 1 = 193 (an A100 batches 2,048 tokens); 6 x 193 + 192 =
    1,350; every count in the range logs 102.78x (138,747 / 1,350 = 102.776)."""
    page = 16 * 4 * 512 * 2
    seen = set()
    for nb in range(138_700, 138_800):
        r = kw.vllm_kv_report(
            gemma3_4b(), "A100", max_model_len=3072, vllm_version="0.11", kv_cache_memory_bytes=nb * 5 * page
        )
        assert r.num_blocks == nb and len(r.groups) == 7 and r.blocks_per_request == 1350
        if (r.gpu_kv_cache_tokens, f"{r.max_concurrency:.2f}") == (317_136, "102.78"):
            seen.add(nb)
    assert seen == set(range(138_747, 138_754))
    assert "Add 1 padding layers, may waste at most 3.45% KV cache memory" in r.explain()
    logged = kw.parse_vllm_log(
        "WARNING 11-13 11:03:06 [kv_cache_utils.py:982] Add 1 padding layers, may waste at "
        "most 3.45% KV cache memory\nINFO 11-13 11:03:06 [kv_cache_utils.py:1087] GPU KV cache "
        "size: 317,136 tokens"
    )
    assert logged["padding_layers"] == r.padding_layers == 1
    back = kw.vllm_report_from_tokens(
        gemma3_4b(), 317_136, max_model_len=3072, vllm_version="0.11", gpu="A100"
    )
    assert (back.num_blocks, f"{back.max_concurrency:.2f}") == (138_747, "102.78")


def test_full_attention_log_with_memory_line():
    """LMCache/LMCache#1739 (2025-10-03), Qwen3-14B on one GPU (a 0.10.x build: one group, so
    tokens = num_blocks x 16 there as in 0.11 and 0.33):
        Available KV cache memory: 6.51 GiB
        GPU KV cache size: 42,656 tokens
        Maximum concurrency for 32,768 tokens per request: 1.30x
    Qwen3-14B: 40 layers, 8 KV heads x 128, bf16 -> one block across the layers is
    40 x 16 x 8 x 256 x 2 = 2,621,440 B. 6.505..6.515 GiB holds 2,664..2,668 blocks;
    42,656 / 16 = 2,666 is among them, and 2,666 / cdiv(32768, 16) = 1.30."""
    model = Model("qwen3-14b", (LayerGroup(FullAttentionSpec(8, 128), 40),), 14_800_000_000)
    logged = kw.parse_vllm_log(
        "Available KV cache memory: 6.51 GiB\nGPU KV cache size: 42,656 tokens\n"
        "Maximum concurrency for 32,768 tokens per request: 1.30x"
    )
    lo, hi = (
        int((logged["available_kv_cache_gib"] - 0.005) * GiB),
        int((logged["available_kv_cache_gib"] + 0.005) * GiB),
    )
    counts = {
        kw.vllm_kv_report(model, max_model_len=32_768, vllm_version=v, kv_cache_memory_bytes=m).num_blocks
        for v in ("0.11", "0.33")
        for m in range(lo, hi, 2_621_440 // 4)
    }
    assert counts == set(range(2664, 2669))
    for v in ("0.11", "0.33"):
        r = kw.vllm_report_from_tokens(
            model, logged["gpu_kv_cache_tokens"], max_model_len=32_768, vllm_version=v
        )
        assert r.num_blocks == 2666 and round(r.max_concurrency, 2) == logged["max_concurrency"]
        assert lo <= r.kv_cache_bytes < hi


# Logs whose two numbers show which token rule the build used (concurrency has 2 decimals,
# so tokens / max_model_len must round to it when tokens = int(concurrency x max_model_len)).
NEW_RULE = [  # builds from 0.20.1 on (v1/core/kv_cache_utils.py get_kv_cache_capacity)
    # noonghunna/club-3090#652, v0.24.0, qwen3.6-35b-a3b (hybrid), fp8 cache
    ("GPU KV cache size: 569,878 tokens\nMaximum concurrency for 131,072 tokens per request: 4.35x"),
    # wtdcode/vllm-backport#36, a recent build logging both on one line (as 0.33 does)
    ("GPU KV cache size: 1,676,933 tokens, Maximum concurrency for 262,144 tokens per request: 6.40x"),
]
OLD_RULE = [  # builds before: num_blocks // groups x block size for a hybrid
    # vllm-project/vllm#40691, vLLM 0.19.0, Qwen3.5-27B (hybrid)
    ("GPU KV cache size: 290,864 tokens\nMaximum concurrency for 32,768 tokens per request: 33.04x"),
    # vllm-project/vllm#26646, a 0.11.x build, Qwen3-Next (hybrid)
    ("GPU KV cache size: 90,048 tokens\nMaximum concurrency for 215,040 tokens per request: 1.66x"),
]


@pytest.mark.parametrize("text", NEW_RULE)
def test_recent_builds_log_concurrency_times_length(text):
    p = kw.parse_vllm_log(text)
    assert round(p["gpu_kv_cache_tokens"] / p["max_model_len"], 2) == p["max_concurrency"]


@pytest.mark.parametrize("text", OLD_RULE)
def test_older_builds_log_one_groups_blocks_for_a_hybrid(text):
    p = kw.parse_vllm_log(text)
    assert abs(p["gpu_kv_cache_tokens"] / p["max_model_len"] - p["max_concurrency"]) > 0.1


def test_block_size_line_of_a_mamba_hybrid():
    # what 0.11.0 logs for the Qwen3-Next run of vllm#26646 (model_executor/models/config.py):
    # "Setting attention block size to 1072 tokens to ensure that attention page size is >= mamba page size."
    from tests.core.test_vllm_accounting import qwen3_next

    r = kw.vllm_kv_report(
        qwen3_next(),
        max_model_len=215_040,
        kv_dtype="fp8",
        num_gpus=2,
        vllm_version="0.11",
        kv_cache_memory_bytes=GiB,
    )
    line = next(n for n in r.notes if n.startswith("Setting attention block size"))
    assert (
        kw.parse_vllm_log("GPU KV cache size: 1 tokens\n" + line)["attention_block_size"]
        == r.block_size
        == 1072
    )
