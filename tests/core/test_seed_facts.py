"""Every worked number the series states, with its inputs, reproduced through the public API.

One parametrized case per row, named after its document and row, so a failure says which
worked number broke. Expected values are the seeds' own, with the seeds' own rounding
("671 GB" is round(bytes / 1e9) == 671; "24.19x" is round(x, 2) == 24.19). GB = 10^9
bytes; KiB / MiB / GiB are powers of 1,024.

Each document is reproduced with its own assumption: 000 takes Llama 3 70B as 70.0 B
parameters (so 70 GB of FP8 weights), 002 takes the preset's real ~70.6 B.
"""

from __future__ import annotations

import functools
import math

import pytest

import kvwidgets as kw

# The "DeepSeek-V3 stored as MHA" row needs keys and values of different sizes (192 / 128),
# which only a layer spec can say; the specs live in the core's public module.
from kvwidgets.core import FullAttentionSpec, LayerGroup

KiB, MiB, GiB, GB = 1024, 1024**2, 1024**3, 10**9


# Models are loaded on first use, so a missing preset fails only the rows that need it.
@functools.cache
def model(name: str) -> kw.Model:
    return kw.load_model(name)


def llama8():
    return model("llama-3-8b")


def llama70_doc000():
    # 000's assumption: 70.0 B parameters, so FP8 weights are exactly 70 GB.
    return kw.load_model("llama-3-70b", params=70_000_000_000)


def case(id_, compute, expected):
    return pytest.param(compute, expected, id=id_)


def check(compute, expected):
    actual = compute()
    assert actual == expected, f"got {actual!r}, the seed says {expected!r}"


# ---------------------------------------------------------------------------------------
# 000 (series part 14)
# ---------------------------------------------------------------------------------------


def _deepseek_as_mha() -> kw.Model:
    """DeepSeek-V3's attention stored as plain MHA: every query head keeps a 192-number key
    and a 128-number value (the seed's inputs), on every one of its layers."""
    ds = model("deepseek-v3")
    spec = FullAttentionSpec(ds.num_query_heads, 192, head_size_v=128)
    return kw.Model("deepseek-v3 as MHA", (LayerGroup(spec, ds.num_layers),), ds.params)


def _gpt_oss_sliding_fixed_bytes() -> int:
    # Past the 128-token window the sliding layers stop growing: whatever kv_bytes holds
    # beyond the full layers' per-token cost is what the sliding layers keep.
    m = model("gpt-oss-120b")
    tokens = 32_000
    return m.kv_bytes(tokens) - tokens * m.kv_bytes_per_token()


def _gemma_full_layers_bytes_per_token() -> int:
    m = model("gemma-3-27b")
    return sum(g.count * int(g.spec.bytes_per_token()) for g in m.groups if g.spec.kind == "full")


def _fit(m, gpu, context, **kw_):
    return kw.users_that_fit(m, gpu, context, **kw_)


def _offload_ratio() -> float:
    """Recompute time / pinned-CPU reload time, Llama 3 8B, 8,000 tokens, H100 (PCIe Gen5)."""
    rows = kw.offload_vs_recompute(llama8(), "H100-SXM", 8000)
    recompute = rows[0].seconds_low
    assert rows[0].option.startswith("recompute")
    pinned = kw.reload_seconds(llama8(), 8000, "cpu-pinned")  # the typical pinned speed
    return recompute / pinned


ROWS_000 = [
    case("000 bytes/token Llama 3 8B = 131,072 B", lambda: llama8().kv_bytes_per_token(), 131_072),
    case("000 bytes/token Llama 3 8B = 128 KiB", lambda: llama8().kv_bytes_per_token() / KiB, 128),
    case(
        "000 FP8 cache 8B = 65,536 B = 64 KiB",
        lambda: (llama8().kv_bytes_per_token("fp8"), llama8().kv_bytes_per_token("fp8") / KiB),
        (65_536, 64),
    ),
    case(
        "000 query heads by mistake = 524,288 B = 512 KiB",
        lambda: llama8().with_kv_heads(llama8().num_query_heads).kv_bytes_per_token(),
        524_288,
    ),
    case(
        "000 query heads by mistake is 4x too much",
        lambda: (
            llama8().with_kv_heads(llama8().num_query_heads).kv_bytes_per_token()
            // llama8().kv_bytes_per_token()
        ),
        4,
    ),
    case(
        "000 shape: MQA (1 KV head) = 16,384 B",
        lambda: llama8().with_kv_heads(1).kv_bytes_per_token(),
        16_384,
    ),
    case(
        "000 shape: MHA (32 KV heads) = 524,288 B",
        lambda: llama8().with_kv_heads(32).kv_bytes_per_token(),
        524_288,
    ),
    case(
        "000 Llama 3 70B = 327,680 B = 320 KiB",
        lambda: (model("llama-3-70b").kv_bytes_per_token(), model("llama-3-70b").kv_bytes_per_token() / KiB),
        (327_680, 320),
    ),
    case("000 DeepSeek-V3 MLA = 70,272 B/token", lambda: model("deepseek-v3").kv_bytes_per_token(), 70_272),
    case(
        "000 DeepSeek-V3 MLA: 61 layers x 576 numbers",
        lambda: (model("deepseek-v3").count("mla"), model("deepseek-v3").kv_bytes_per_token() // (2 * 61)),
        (61, 576),
    ),
    case("000 DeepSeek-V3 as MHA = 4,997,120 B", lambda: _deepseek_as_mha().kv_bytes_per_token(), 4_997_120),
    case(
        "000 DeepSeek-V3 as MHA: Model.as_mha agrees (4,997,120 B)",
        lambda: model("deepseek-v3").as_mha().kv_bytes_per_token(),
        4_997_120,
    ),
    case(
        "000 DeepSeek-V3 as MHA is about 4.8 MB (MiB)",
        lambda: round(_deepseek_as_mha().kv_bytes_per_token() / MiB, 1),
        4.8,
    ),
    case(
        "000 DeepSeek-V3 as MHA is about 71x the MLA cache",
        lambda: round(_deepseek_as_mha().kv_bytes_per_token() / model("deepseek-v3").kv_bytes_per_token()),
        71,
    ),
    case(
        "000 gpt-oss-120b = 36,864 B/token past 128 tokens (18 full layers)",
        lambda: model("gpt-oss-120b").kv_bytes_per_token(),
        36_864,
    ),
    case(
        "000 gpt-oss-120b layer split 18 full + 18 sliding, window 128",
        lambda: (
            model("gpt-oss-120b").count("full"),
            model("gpt-oss-120b").count("sliding"),
            {g.spec.token_cap for g in model("gpt-oss-120b").groups if g.spec.kind == "sliding"},
        ),
        (18, 18, {128}),
    ),
    case(
        "000 gpt-oss-120b sliding layers hold a fixed 18 x 128 x 2,048 = 4,718,592 B",
        _gpt_oss_sliding_fixed_bytes,
        4_718_592,
    ),
    case(
        "000 Gemma 3 27B = 52 sliding + 10 full layers",
        lambda: (model("gemma-3-27b").count("sliding"), model("gemma-3-27b").count("full")),
        (52, 10),
    ),
    case(
        "000 Gemma 3 27B long-context bytes/token set by the 10 full layers",
        lambda: model("gemma-3-27b").kv_bytes_per_token() == _gemma_full_layers_bytes_per_token() > 0,
        True,
    ),
    case(
        "000 64 users of 70B at 32,000 tokens = 671 GB",
        lambda: round(64 * model("llama-3-70b").kv_bytes(32_000) / GB),
        671,
    ),
    case("000 64 users of 8B at 8K (8,000) = 67 GB", lambda: round(64 * llama8().kv_bytes(8_000) / GB), 67),
    case(
        "000 users 8B on H100: 72 GB usable, 16 GB weights, 56 GB left, 1.05 GB each",
        lambda: (
            lambda f: (
                f.usable_bytes / GB,
                round(f.weights_bytes / GB),
                round(f.kv_budget_bytes / GB),
                round(f.kv_per_user_bytes / GB, 2),
            )
        )(_fit(llama8(), "H100", 8000)),
        (72, 16, 56, 1.05),
    ),
    case("000 users 8B on H100 = 53", lambda: _fit(llama8(), "H100", 8000).users, 53),
    # The seed subtracts a rounded 16 GB of weights (126.9 - 16); with the real 16.06 GB
    # the remainder is 110.84 GB, so this row takes 8.0 B parameters like the seed does.
    case(
        "000 users 8B on H200: 126.9 GB usable, 126.9 - 16 = 110.9 GB left",
        lambda: (lambda f: (f.usable_bytes / GB, f.kv_budget_bytes / GB))(
            _fit(llama8(), "H200", 8000, params=8_000_000_000)
        ),
        (126.9, 110.9),
    ),
    case("000 users 8B on H200 = 105", lambda: _fit(llama8(), "H200", 8000).users, 105),
    case(
        "000 70B FP8 weights on H100: 2 GB left < one 8,000-token conversation (2.62 GB)",
        lambda: (lambda f: (f.kv_budget_bytes / GB, round(f.kv_per_user_bytes / GB, 2)))(
            _fit(llama70_doc000(), "H100", 8000, weight_dtype="fp8")
        ),
        (2, 2.62),
    ),
    case(
        "000 70B FP8 weights on H100 = 0 users, loads but cannot serve",
        lambda: (lambda f: (f.users, f.weights_fit, f.loads_but_cannot_serve))(
            _fit(llama70_doc000(), "H100", 8000, weight_dtype="fp8")
        ),
        (0, True, True),
    ),
    case(
        "000 70B FP8 weights on H200: 56.9 GB left",
        lambda: _fit(llama70_doc000(), "H200", 8000, weight_dtype="fp8").kv_budget_bytes / GB,
        56.9,
    ),
    case(
        "000 70B FP8 weights on H200 = 21 users (16-bit cache) / 43 (FP8 cache)",
        lambda: (
            _fit(llama70_doc000(), "H200", 8000, weight_dtype="fp8").users,
            _fit(llama70_doc000(), "H200", 8000, weight_dtype="fp8", kv_dtype="fp8").users,
        ),
        (21, 43),
    ),
    case("000 8B at 128K on H100 = 3", lambda: _fit(llama8(), "H100", 128 * 1024).users, 3),
    case(
        "000 paged vs reserved, 8B on H100 = 3 vs 53",
        lambda: (lambda p: (p.users_reserved, p.users_paged))(
            kw.paged_vs_reserved(llama8(), "H100", used_tokens=8000, reserved_tokens=128 * 1024)
        ),
        (3, 53),
    ),
    case(
        "000 vLLM log: 396,272 tokens x 128 KiB = 51.9 GB",
        lambda: round(
            kw.vllm_report_from_tokens(llama8(), 396_272, max_model_len=16_384).kv_cache_bytes / GB, 1
        ),
        51.9,
    ),
    case(
        "000 vLLM log: 24,767 blocks of 16 tokens",
        lambda: kw.vllm_report_from_tokens(llama8(), 396_272, max_model_len=16_384).num_blocks,
        24_767,
    ),
    case(
        "000 vLLM log: maximum concurrency 24.19x",
        lambda: round(kw.vllm_report_from_tokens(llama8(), 396_272, max_model_len=16_384).max_concurrency, 2),
        24.19,
    ),
    case(
        "000 vLLM log: the parsed excerpt gives the same check",
        lambda: (
            lambda p: (
                p,
                round(
                    kw.vllm_report_from_tokens(
                        llama8(), p["gpu_kv_cache_tokens"], max_model_len=p["max_model_len"]
                    ).max_concurrency,
                    2,
                ),
            )
        )(
            kw.parse_vllm_log(
                "INFO  Model loading took 14.99 GiB memory\n"
                "INFO  GPU KV cache size: 396,272 tokens\n"
                "INFO  Maximum concurrency for 16,384 tokens per request: 24.19x\n"
            )
        ),
        ({"gpu_kv_cache_tokens": 396_272, "max_model_len": 16_384, "max_concurrency": 24.19}, 24.19),
    ),
    case(
        "000 vLLM log: 51.9 GB is 72 GB - 16 GB weights - about 4 GB working memory",
        lambda: round(
            (
                _fit(llama8(), "H100", 8000).kv_budget_bytes
                - kw.vllm_report_from_tokens(llama8(), 396_272, max_model_len=16_384).kv_cache_bytes
            )
            / GB
        ),
        4,
    ),
    case(
        "000 prefix caching: 50 users x 4,000 tokens = 26 GB unshared vs 0.5 GB shared",
        lambda: (lambda s: (round(s.unshared_bytes / GB), round(s.shared_bytes / GB, 1)))(
            kw.prefix_sharing(llama8(), 50, 4000)
        ),
        (26, 0.5),
    ),
    # "Roughly ten times": recompute / pinned reload is 7.9x at PCIe Gen5's 64 GB/s and 6.2x at
    # 50 GB/s; [5, 20] is the band that "roughly ten" covers without accepting 2x or 50x.
    case(
        "000 recompute vs reload: CPU reload roughly 10x faster (between 5x and 20x)",
        lambda: 5 <= _offload_ratio() <= 20,
        True,
    ),
    case(
        "000 recompute vs reload: every CPU-pinned bound is faster than recompute",
        lambda: (
            lambda rows: all(
                r.seconds_high < rows[0].seconds_low
                for r in rows
                if r.option.endswith(kw.STORAGE["cpu-pinned"].label)
            )
        )(kw.offload_vs_recompute(llama8(), "H100", 8000)),
        True,
    ),
    case(
        "000 recompute = 2 x params x tokens at 989 dense BF16 TFLOPS",
        lambda: kw.prefill_seconds(llama8(), "H100", 8000) == 2 * llama8().params * 8000 / 989e12,
        True,
    ),
]

# Decode: step = (weights + the batch's KV) / bandwidth, at the H100 SXM's 3.35 TB/s.
DECODE_CONTEXTS = [1024, 8192, 32_768, 131_072]


def _decode_per_user() -> list[float]:
    return [kw.decode_ceiling(llama8(), "H100", c, 1).tokens_per_s_per_user for c in DECODE_CONTEXTS]


ROWS_DECODE = [
    case(
        "000 decode: step time = (weights + KV) / 3.35 TB/s",
        lambda: [kw.decode_ceiling(llama8(), "H100", c, 4).step_s for c in DECODE_CONTEXTS],
        [(llama8().params * 2 + 4 * 131_072 * c) / 3.35e12 for c in DECODE_CONTEXTS],
    ),
    case(
        "000 decode: per-user ceiling falls as context grows",
        lambda: all(a > b for a, b in zip(_decode_per_user(), _decode_per_user()[1:])),
        True,
    ),
]

# ---------------------------------------------------------------------------------------
# 001
# ---------------------------------------------------------------------------------------


def l31_70():
    return model("llama-3.1-70b")


def _check_yourself():
    """20 GiB budget; 8 sequences grow 8,192 -> 9,216 tokens."""
    m, budget = l31_70(), 20 * GiB
    before, after = m.kv_bytes(8192), m.kv_bytes(9216)
    return {
        "each adds (MiB)": (after - before) / MiB,
        "eight add (GiB)": 8 * (after - before) / GiB,
        "payload (GiB)": 8 * after / GiB,
        "fits before": 8 * before <= budget,
        "fits after": 8 * after <= budget,
        "sequences that fit after": budget // after,
    }


ROWS_001 = [
    case(
        "001 Llama 3.1 70B = 327,680 B = 320 KiB per token",
        lambda: (l31_70().kv_bytes_per_token(), l31_70().kv_bytes_per_token() / KiB),
        (327_680, 320),
    ),
    case(
        "001 one 8,192-token sequence = 2,684,354,560 B = 2.5 GiB = 2.68 GB",
        lambda: (
            l31_70().kv_bytes(8192),
            l31_70().kv_bytes(8192) / GiB,
            round(l31_70().kv_bytes(8192) / GB, 2),
        ),
        (2_684_354_560, 2.5, 2.68),
    ),
    case("001 four such sequences = 10 GiB", lambda: 4 * l31_70().kv_bytes(8192) / GiB, 10),
    case(
        "001 as MHA (64 KV heads) = 2,621,440 B = 2.5 MiB per token, 8x",
        lambda: (lambda mha: (mha, mha / MiB, mha // l31_70().kv_bytes_per_token()))(
            l31_70().with_kv_heads(64).kv_bytes_per_token()
        ),
        (2_621_440, 2.5, 8),
    ),
    case(
        "001 32 active sequences = 80 GiB of K/V attended per decode step",
        lambda: kw.decode_ceiling(l31_70(), "H100", 8192, 32).kv_bytes_per_step / GiB,
        80,
    ),
    case(
        "001 check yourself: 20 GiB, 8 sequences 8,192 -> 9,216 tokens does not fit",
        _check_yourself,
        {
            "each adds (MiB)": 320,
            "eight add (GiB)": 2.5,
            "payload (GiB)": 22.5,
            "fits before": True,
            "fits after": False,
            "sequences that fit after": 7,
        },
    ),
]

# ---------------------------------------------------------------------------------------
# 002: 10% kept free, 16-bit weights, 8B on one 80 GB GPU, 70B (real ~70.6 B) on four
# ---------------------------------------------------------------------------------------

ROWS_002 = [
    case(
        "002 bytes/token: 8B 128 KiB, 70B 320 KiB, 70B without GQA 2,560 KiB",
        lambda: (
            llama8().kv_bytes_per_token() / KiB,
            model("llama-3-70b").kv_bytes_per_token() / KiB,
            model("llama-3-70b").with_kv_heads(model("llama-3-70b").num_query_heads).kv_bytes_per_token()
            / KiB,
        ),
        (128, 320, 2560),
    ),
    case(
        "002 8B one 8,192-token sequence = 1.07 GB, 56 GB left",
        lambda: (lambda f: (round(f.kv_per_user_bytes / GB, 2), round(f.kv_budget_bytes / GB)))(
            _fit(llama8(), "H100", 8192)
        ),
        (1.07, 56),
    ),
    case(
        "002 8B users at 8,192 / 32,768 / 131,072 tokens = 52 / 13 / 3",
        lambda: [_fit(llama8(), "H100", c).users for c in (8192, 32_768, 131_072)],
        [52, 13, 3],
    ),
    case(
        "002 70B on 4 GPUs: about 141 GB weights, 147 GB free",
        lambda: (lambda f: (round(f.weights_bytes / GB), round(f.kv_budget_bytes / GB)))(
            _fit(model("llama-3-70b"), "H100", 8192, num_gpus=4)
        ),
        (141, 147),
    ),
    case(
        "002 70B on 4 GPUs at 8,192 / 131,072 tokens = 54 / 3",
        lambda: [_fit(model("llama-3-70b"), "H100", c, num_gpus=4).users for c in (8192, 131_072)],
        [54, 3],
    ),
]

# ---------------------------------------------------------------------------------------
# The GPU figures the series uses
# ---------------------------------------------------------------------------------------

ROWS_GPUS = [
    case(
        "GPU H100 SXM: 80 GB, 3.35 TB/s, 989 dense BF16 TFLOPS",
        lambda: (lambda g: (g.memory_gb, g.bandwidth_gbps, g.bf16_tflops))(kw.get_gpu("H100 SXM")),
        (80, 3350, 989),
    ),
    case(
        "GPU H200: 141 GB, same compute as the H100 SXM",
        lambda: (
            kw.get_gpu("H200").memory_gb,
            kw.get_gpu("H200").bf16_tflops == kw.get_gpu("H100").bf16_tflops,
        ),
        (141, True),
    ),
    case(
        "GPU usable memory is marketed GB x 0.9 (H100 72 GB, H200 126.9 GB)",
        lambda: (
            kw.memory_budget(llama8(), "H100").usable_bytes / GB,
            kw.memory_budget(llama8(), "H200").usable_bytes / GB,
        ),
        (72, 126.9),
    ),
    case(
        "GPU H200 device-reported memory is 150,109,880,320 B (measured), offered as an option",
        lambda: kw.memory_budget(llama8(), "H200", memory="device").memory_bytes,
        150_109_880_320,
    ),
]


@pytest.mark.parametrize("compute, expected", ROWS_000 + ROWS_DECODE)
def test_000_part_14(compute, expected):
    check(compute, expected)


@pytest.mark.parametrize("compute, expected", ROWS_001)
def test_001_kv_cache(compute, expected):
    check(compute, expected)


@pytest.mark.parametrize("compute, expected", ROWS_002)
def test_002_memory_math(compute, expected):
    check(compute, expected)


@pytest.mark.parametrize("compute, expected", ROWS_GPUS)
def test_gpu_figures(compute, expected):
    check(compute, expected)


def test_decode_ceiling_is_above_every_h200_measurement():
    """ "The ratios hold in real engines": the ideal ceiling is never beaten by the H200
    decode steps measured for the 8B shape (kvwidgets/data/h200/decode.csv, fused
    attention rows), and at large batch the measurement reaches most of it."""
    import csv
    from importlib import resources

    rows = list(csv.DictReader(resources.files("kvwidgets.data").joinpath("h200/decode.csv").open()))
    sdpa = [r for r in rows if r["attention"] == "sdpa"]
    assert len(sdpa) >= 10
    weights = int(sdpa[0]["weight_bytes"])
    m = llama8().with_params(weights // 2)  # the measured shape's own 16.06 GB of weights
    for r in sdpa:
        batch, context = int(r["batch"]), int(r["context"])
        ceiling = kw.decode_ceiling(m, "H200", context, batch)
        measured = float(r["tokens_per_s_per_user"])
        assert measured < ceiling.tokens_per_s_per_user, r
        if batch >= 32:
            assert measured > 0.5 * ceiling.tokens_per_s_per_user, r
    assert math.isclose(m.weight_bytes(), weights)
