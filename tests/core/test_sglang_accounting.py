"""SGLang's pool sizing, worked by hand from SGLang 0.5.23's rules, and real start-up logs.

The logs in tests/core/sglang_logs/ are stored verbatim, each with its source named in the
test that reads it. SGLang prints memory in GiB ("GB" = 2**30 bytes) to 2 decimals, so a
logged free-memory figure is known to +-0.005 GiB; where the test needs the memory it takes
it from the log's own lines and checks the logged token count lies within what that
rounding allows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import kvwidgets as kw
from kvwidgets.core import FullAttentionSpec, LayerGroup, Model
from kvwidgets.core.sglang_rules import default_mem_fraction_static, max_running_requests, prefill_graph_sizes

LOGS = Path(__file__).parent / "sglang_logs"
GiB = 2**30


def log(name: str) -> str:
    return (LOGS / name).read_text(encoding="utf-8")


def llama31_8b():
    return kw.load_model("llama-3.1-8b")


# ---- hand-worked layouts -------------------------------------------------------------------


def test_llama31_8b_cell_size_and_log_line():
    """MHA/GQA: cell = 32 layers x 8 KV heads x (128 + 128) x 2 B = 131,072 B a token.
    8 GiB = 8,589,934,592 B // 131,072 = 65,536 tokens. K buffer per layer: (65,536 + 1 padded
    row) x 8 x 128 x 2 B; x 32 layers = 32 x 65,537 x 2,048 B = 4.0001 GiB -> "4.00 GB"."""
    r = kw.sglang_kv_report(llama31_8b(), kv_cache_memory_bytes=8 * GiB, context_length=131072)
    assert r.cell_size == 131_072
    assert r.max_total_num_tokens == 65_536
    assert r.pools[0].k_bytes == r.pools[0].v_bytes == 32 * 65_537 * 2_048
    assert r.log_lines().splitlines()[0] == (
        "KV Cache is allocated. dtype: torch.bfloat16, #tokens: 65536, K size: 4.00 GB, V size: 4.00 GB"
    )
    # 65,536 / 131,072 x 512 = 256 -> raised to 2,048 (at most 65,536 // 2)
    assert r.max_running_requests == 2048


def test_tensor_parallel_splits_heads_and_page_size_floors():
    """TP 4: 8 KV heads / 4 = 2 per GPU, cell = 32 x 2 x 256 x 2 = 32,768 B. 1,000,000 B //
    32,768 = 30 tokens; page_size 16 floors it to 16. fp8: 1 byte a number halves the cell."""
    r = kw.sglang_kv_report(llama31_8b(), num_gpus=4, kv_cache_memory_bytes=1_000_000, page_size=16)
    assert (r.cell_size, r.max_total_num_tokens) == (32_768, 16)
    r8 = kw.sglang_kv_report(llama31_8b(), num_gpus=4, kv_cache_memory_bytes=1_000_000, kv_dtype="fp8")
    assert (r8.cell_size, r8.max_total_num_tokens) == (16_384, 61)  # 1,000,000 // 16,384 = 61
    assert "dtype: torch.float8_e4m3fn" in r8.log_lines()


def test_deepseek_v3_mla_pool():
    """MLA: one latent of kv_lora_rank 512 + qk_rope_head_dim 64 = 576 numbers a token a layer,
    not split by TP: cell = 576 x 61 x 2 B = 70,272 B on each of 8 GPUs. 20 GiB =
    21,474,836,480 B // 70,272 = 305,595 tokens; page_size 64 floors it to 305,536. One
    buffer per layer of (305,536 + 64) rows: 61 x 305,600 x 576 x 2 B = 20.0003 GiB, a hair
    over the budget because the padded page is not counted in it."""
    r = kw.sglang_kv_report(
        kw.load_model("deepseek-v3"), num_gpus=8, kv_cache_memory_bytes=20 * GiB, page_size=64
    )
    assert r.layout == "mla" and r.cell_size == 70_272
    assert r.max_total_num_tokens == 305_536
    assert r.pools[0].v_bytes == 0 and r.pools[0].k_bytes == 61 * 305_600 * 576 * 2
    assert r.log_lines().splitlines()[0].endswith("#tokens: 305536, KV size: 20.00 GB")


def test_gpt_oss_hybrid_swa_pools():
    """gpt-oss-120b: 18 full and 18 sliding (window 128) layers, 8 KV heads x 64. Full pool
    2,048 B a token a layer x 18 = 36,864 B; SWA pool the same; SGLang's cell for one
    max_total token = 36,864 + 0.8 x 36,864 = 66,355.2 B. 10 GiB // 66,355.2 = 161,817 full
    tokens; SWA = int(161,817 x 0.8) = 129,453. K of the Full pool: 18 x 161,818 x 512 x 2 B
    = 2.7778 GiB; of the SWA pool 18 x 129,454 x 1,024 B = 2.2222 GiB."""
    r = kw.sglang_kv_report(kw.load_model("gpt-oss-120b"), kv_cache_memory_bytes=10 * GiB)
    assert r.layout == "hybrid_swa"
    assert r.cell_size == pytest.approx(66_355.2)
    assert [(p.label, p.tokens) for p in r.pools] == [("Full", 161_817), ("SWA", 129_453)]
    assert r.max_total_num_tokens == 161_817
    assert r.log_lines().splitlines() == [
        "Use sliding window memory pool. full_layer_tokens=161817, swa_layer_tokens=129453",
        "Full KV Cache is allocated. dtype: torch.bfloat16, #tokens: 161817, K size: 2.78 GB, V size: 2.78 GB",
        "SWA KV Cache is allocated. dtype: torch.bfloat16, #tokens: 129453, K size: 2.22 GB, V size: 2.22 GB",
        "max_total_num_tokens=161817, chunked_prefill_size=4096, max_running_requests=2048, context_len=131072",
    ]


def test_swa_pool_too_small_for_one_request_is_refused():
    """validate_swa_pool_size: the SWA pool must exceed window 128 + page_size 1. 200 full
    tokens x 0.8 = 160 SWA tokens passes; a ratio of 0.5 gives 100, refused."""
    model = kw.load_model("gpt-oss-120b")
    assert (
        kw.sglang_kv_report(model, kv_cache_memory_bytes=10 * GiB, max_total_tokens=200).pools[1].tokens
        == 160
    )
    with pytest.raises(kw.InputError, match="swa_full_tokens_ratio"):
        kw.sglang_kv_report(
            model, kv_cache_memory_bytes=10 * GiB, max_total_tokens=200, swa_full_tokens_ratio=0.5
        )


def test_default_mem_fraction_static_h100():
    """H100 80GB (nvidia-smi 81,559 MiB), TP 1: chunked_prefill_size 8,192, decode graphs to 256.
    Prefill graph sizes up to 8,192: 8 + 14 + 8 + 8 + 12 + 8 = 58, x 8 = 464 MiB.
    reserved = 512 + 8,192 x 1.5 + 1/8 x 1,024 + 256 x 2 + 464 = 13,904 MiB (over the 10,240
    floor); fraction = round((81,559 - 13,904) / 81,559, 3) = round(0.82952, 3) = 0.83.
    MLA swaps the 464 for 1,536 and TP 8 raises the decode graphs to 512:
    512 + 12,288 + 1,024 + 1,024 + 1,536 = 16,384 -> round(65,175 / 81,559, 3) = 0.799."""
    assert len(prefill_graph_sizes(8192)) == 58
    mf = default_mem_fraction_static(81_559)
    assert (mf.reserved_mib, mf.value, mf.chunked_prefill_size, mf.decode_max_bs) == (13_904, 0.83, 8192, 256)
    assert default_mem_fraction_static(81_559, tp_size=8, mla=True).value == 0.799
    r = kw.sglang_kv_report(llama31_8b(), "H100", free_memory_gb=78.81, weights_gb=14.96)
    assert r.mem_fraction_static == 0.83
    assert any("0.83" in n for n in r.notes)


def test_llama31_8b_on_h100_beside_vllm():
    """Llama 3.1 8B, one H100, defaults. SGLang: free before the weights taken as the whole
    81,559 MiB = 79.6475 GiB, weights 8,030,261,248 x 2 B = 14.9575 GiB, fraction 0.83:
    rest = 64.6900 - 79.6475 x 0.17 = 51.1499 GiB -> 54,921,749,790 B // 131,072 = 419,019.
    vLLM 0.33 (kvwidgets' 0.9 x marketed 80 GB - weights = 52.1 GiB) logs 426,784: a
    different fraction of a different total, rounded to 16-token blocks."""
    r = kw.sglang_kv_report(llama31_8b(), "H100")
    v = kw.vllm_kv_report(llama31_8b(), "H100")
    assert r.max_total_num_tokens == 419_019
    assert v.gpu_kv_cache_tokens == 426_784
    assert any("whole GPU" in n for n in r.notes)  # the assumption is shown, not hidden


def test_max_running_requests_rule():
    """resolve_max_num_reqs: int(T / L x 512) within 2,048..4,096, at most T // 2."""
    assert max_running_requests(1_000_000, 32_768) == 4096  # 15,625 -> 4,096
    assert max_running_requests(200_000, 32_768) == 3125  # int(3,125.0)
    assert max_running_requests(3_000, 32_768) == 1500  # 2,048 capped by 3,000 // 2
    assert max_running_requests(200_000, 32_768, given=64) == 64


@pytest.mark.parametrize(
    ("preset", "kwargs", "words"),
    [
        ("qwen3-next-80b-a3b", {}, "recurrent state"),
        ("deepseek-v3.2", {}, "indexer"),
        ("gemma-3-27b", {}, "hybrid_swa"),
        ("llama-4-scout", {}, "chunked local"),
    ],
)
def test_layouts_sglang_sizes_otherwise_are_refused_by_name(preset, kwargs, words):
    with pytest.raises(kw.InputError, match=words):
        kw.sglang_kv_report(kw.load_model(preset), kv_cache_memory_bytes=10 * GiB, **kwargs)


def test_sliding_layers_sized_as_full_when_hybrid_swa_is_off():
    """gemma-3-27b with hybrid_swa=False: all 62 layers in one pool, 16 KV heads x (128 + 128)
    x 2 B = 8,192 B a layer, 507,904 B a token."""
    r = kw.sglang_kv_report(kw.load_model("gemma-3-27b"), kv_cache_memory_bytes=GiB, hybrid_swa=False)
    assert r.layout == "mha" and r.cell_size == 507_904
    assert r.max_total_num_tokens == GiB // 507_904


def test_weights_that_leave_nothing_are_refused():
    """78 GiB free, 15 GiB of weights: 0.2 keeps 78 x 0.8 = 62.4 free and leaves 0.6 GiB
    (4,915 tokens of 131,072 B); 0.15 keeps 66.3, more than the 63 left: SGLang refuses."""
    r = kw.sglang_kv_report(llama31_8b(), mem_fraction_static=0.2, free_memory_gb=78.0, weights_gb=15.0)
    assert r.max_total_num_tokens == int((63.0 - 78.0 * 0.8) * GiB) // 131_072
    with pytest.raises(kw.InputError, match="leave no GPU memory"):
        kw.sglang_kv_report(llama31_8b(), mem_fraction_static=0.15, free_memory_gb=78.0, weights_gb=15.0)


# ---- real start-up logs ---------------------------------------------------------------------


def test_pr4760_llama31_8b_log():
    """sgl-project/sglang#4760 (https://github.com/sgl-project/sglang/pull/4760, 2025-03-25):
    Meta-Llama-3.1-8B-Instruct, bf16, one GPU (TP0 only), FlashAttention 3, an 80 GB card
    (63.48 + 15.11 = 78.59 GB free before the weights), SGLang 0.4.4, whose default
    mem_fraction_static at TP 1 is 0.88 (0.4.4.post1 server_args.py __post_init__) and whose
    rule is 0.5.23's (model_runner.py profile_max_num_token: rest = available - total x
    (1 - fraction); int(rest x 2**30 // cell_size)).
    Free before the weights B = 63.48 + 15.11 (avail + mem usage, each +-0.005), after A = 63.48:
    rest = 0.88 A - 0.12 W = 54.0492 GiB -> 442,771 tokens; the roundings allow 54.0442 (442,730)
    to 54.0542 (442,812); the log's 442,750 is inside. K: 32 x 442,751 x 2,048 B = 27.0234 GiB."""
    text = log("pr4760_llama31_8b.log")
    logged = kw.parse_sglang_log(text)
    assert logged["kv_pools"] == [
        {"label": "", "dtype": "", "tokens": 442_750, "k_size_gb": 27.02, "v_size_gb": 27.02}
    ]
    assert (logged["available_after_weights_gb"], logged["weights_gb"]) == (63.48, 15.11)

    def tokens(a, w):
        return kw.sglang_kv_report(
            llama31_8b(), mem_fraction_static=0.88, available_after_weights_gb=a, free_memory_gb=a + w
        ).max_total_num_tokens

    low, mid, high = tokens(63.475, 15.115), tokens(63.48, 15.11), tokens(63.485, 15.105)
    assert (low, mid, high) == (442_730, 442_771, 442_812)
    assert low <= 442_750 <= high
    at_logged = kw.sglang_kv_report(
        llama31_8b(), mem_fraction_static=0.88, kv_cache_memory_bytes=10**12, max_total_tokens=442_750
    )
    assert f"{at_logged.k_size_gb:.2f}" == f"{at_logged.v_size_gb:.2f}" == "27.02"


def test_docs_llama31_8b_log_with_server_args():
    """SGLang's documentation notebook "Quick Start: Sending Requests"
    (https://docs.sglang.ai/start/send_request.html, output captured 2025-01-23): the server
    args line says mem_fraction_static=0.88, tp_size=1, chunked_prefill_size=8192,
    Meta-Llama-3.1-8B-Instruct, bf16 on an 80 GB GPU; that version logs K and V size without
    the token count, which the max_total_num_tokens line gives.
    B = 78.81 (Load weight begin), A = 63.72 (Load weight end): rest = 63.72 - 78.81 x 0.12 =
    54.2628 GiB -> 444,520 tokens; the roundings allow 444,474 to 444,566; logged 444,500.
    K: 32 x 444,501 x 2,048 B = 27.1302 GiB -> "27.13"."""
    logged = kw.parse_sglang_log(log("docs_send_request_llama31_8b.log"))
    assert logged["mem_fraction_static"] == 0.88 and logged["tp_size"] == 1
    assert logged["model_path"] == "meta-llama/Meta-Llama-3.1-8B-Instruct"
    assert logged["kv_pools"] == [
        {"label": "", "dtype": "", "tokens": None, "k_size_gb": 27.13, "v_size_gb": 27.13}
    ]
    assert (logged["free_before_weights_gb"], logged["available_after_weights_gb"]) == (78.81, 63.72)
    assert (logged["max_total_num_tokens"], logged["max_running_requests"], logged["context_len"]) == (
        444_500,
        2049,
        131_072,
    )

    def tokens(a, b):
        return kw.sglang_kv_report(
            llama31_8b(),
            mem_fraction_static=logged["mem_fraction_static"],
            available_after_weights_gb=a,
            free_memory_gb=b,
        ).max_total_num_tokens

    assert tokens(63.72, 78.81) == 444_520
    assert tokens(63.715, 78.815) <= logged["max_total_num_tokens"] <= tokens(63.725, 78.805)
    r = kw.sglang_kv_report(llama31_8b(), kv_cache_memory_bytes=10**12, max_total_tokens=444_500)
    assert f"{r.k_size_gb:.2f}" == "27.13"


def test_vllm21348_qwen3_235b_log_sizes():
    """vllm-project/vllm#21348 (https://github.com/vllm-project/vllm/issues/21348, 2025-07-22):
    Qwen3-235B-A22B-FP8 on 4 H100s, --tp 4 --mem-fraction-static 0.93, bf16 cache. The thread
    gives no memory lines, so only the sizes for the logged tokens are checked: 94 layers, 4 KV
    heads / 4 = 1 per GPU x 128: K = 94 x 367,405 x 128 x 2 B = 8.2340 GiB -> "8.23"."""
    logged = kw.parse_sglang_log(log("vllm21348_qwen3_235b_fp8.log"))
    (pool,) = logged["kv_pools"]
    model = Model("qwen3-235b-a22b", (LayerGroup(FullAttentionSpec(4, 128), 94),), 235_000_000_000)
    r = kw.sglang_kv_report(
        model, num_gpus=4, kv_cache_memory_bytes=pool["tokens"] * 48_128, context_length=40960
    )
    assert r.cell_size == 94 * 1 * 256 * 2 == 48_128
    assert r.max_total_num_tokens == pool["tokens"] == 367_404
    assert (
        (round(r.k_size_gb, 2), round(r.v_size_gb, 2))
        == (pool["k_size_gb"], pool["v_size_gb"])
        == (8.23, 8.23)
    )


def test_pr18039_mimo_v2_flash_swa_pool_sizes():
    """sgl-project/sglang#18039 (https://github.com/sgl-project/sglang/pull/18039, 2026-01-31),
    the "main branch" run: MiMo-V2-Flash, --tp-size 4 --mem-fraction-static 0.7 --page-size 64,
    the complete lines of the excerpt kept. Its cell size was the bug the PR fixed, so only the
    pools for the logged tokens are checked: full 375,360 -> SWA floor64(int(375,360 x 0.8)) =
    300,288; the SWA pool holds 39 layers x 8 / 4 = 2 KV heads x (192 K + 128 V):
    K = 39 x (300,288 + 64) x 2 x 192 x 2 B = 8.3783 GiB, V = ... x 128 ... = 5.5855 GiB."""
    logged = kw.parse_sglang_log(log("pr18039_mimo_v2_flash.log"))
    assert (logged["full_layer_tokens"], logged["swa_layer_tokens"]) == (375_360, 300_288)
    (pool,) = logged["kv_pools"]  # the second rank repeats the first's line
    r = kw.sglang_kv_report(
        kw.load_model("mimo-v2-flash"),
        num_gpus=4,
        page_size=64,
        kv_cache_memory_bytes=10**12,
        max_total_tokens=logged["full_layer_tokens"],
    )
    full, swa = r.pools
    assert (full.tokens, swa.tokens) == (375_360, 300_288)
    assert (swa.tokens, round(swa.k_bytes / GiB, 2), round(swa.v_bytes / GiB, 2)) == (
        pool["tokens"],
        pool["k_size_gb"],
        pool["v_size_gb"],
    )


def test_parser_reads_each_pool_once_whatever_the_rank_order():
    line = "[2026-01-31 13:50:39 TP{}] {} KV Cache is allocated. dtype: torch.bfloat16, #tokens: {}, K size: 1.00 GB, V size: 1.00 GB"
    text = "\n".join(
        line.format(rank, label, n)
        for rank, label, n in [(0, "Full", 10), (1, "Full", 10), (1, "SWA", 8), (0, "SWA", 8)]
    )
    assert [(p["label"], p["tokens"]) for p in kw.parse_sglang_log(text)["kv_pools"]] == [
        ("Full", 10),
        ("SWA", 8),
    ]


def test_report_takes_a_preset_name_and_explains_its_working():
    """The public function loads a preset by name like vllm_kv_report; explain() shows the
    memory rule and the division that give the logged tokens (65,536 as in the first test)."""
    r = kw.sglang_kv_report("llama-3.1-8b", kv_cache_memory_bytes=8 * GiB)
    assert r.max_total_num_tokens == 65_536 and r.context_len == 131_072
    text = r.explain()
    assert "8,589,934,592 // 131,072 B a token" in text and "MHA/GQA: 32 layers x 8 KV heads" in text


def test_parser_reads_current_wording_and_refuses_text_without_the_line():
    text = (
        "[2026-09-12 00:22:48 TP0] Load weight end. elapsed=3.10 s, type=Qwen3ForCausalLM, avail mem=60.00 GB, "
        "mem usage=16.00 GB.\n"
        "[2026-09-12 00:22:48 TP0] Full KV Cache is allocated. dtype: torch.bfloat16, #tokens: 1000, K size: 0.10 GB, "
        "V size: 0.10 GB\n"
        "[2026-09-12 00:22:48 TP0] SWA KV Cache is allocated. dtype: torch.bfloat16, #tokens: 800, K size: 0.08 GB, "
        "V size: 0.08 GB\n"
        "[2026-09-12 00:22:50 TP0] max_total_num_tokens=1000, chunked_prefill_size=8192, max_prefill_tokens=16384, "
        "max_running_requests=500, context_len=32768, available_gpu_mem=7.50 GB\n"
    )
    out = kw.parse_sglang_log(text)
    assert [(p["label"], p["tokens"]) for p in out["kv_pools"]] == [("Full", 1000), ("SWA", 800)]
    assert out["kv_pools"][0]["dtype"] == "torch.bfloat16"
    assert (out["available_after_weights_gb"], out["weights_gb"], out["available_gpu_mem_gb"]) == (
        60.0,
        16.0,
        7.5,
    )
    assert (out["chunked_prefill_size"], out["max_prefill_tokens"], out["max_running_requests"]) == (
        8192,
        16384,
        500,
    )
    with pytest.raises(kw.InputError, match="KV Cache is allocated"):
        kw.parse_sglang_log("GPU KV cache size: 1,000 tokens")
