"""vLLM's KV accounting, worked out by hand from the rules in the vLLM wheels.

Each expected number is computed in the test from the rule it cites (paths inside the
`vllm/` package of the 0.11.0 and 0.33.0 wheels), never read back from kvwidgets:
  page       block_size x KV heads per GPU x (K + V head size) x bytes   (v1/kv_cache_interface.py)
  blocks     memory // (layers per group x page)       (0.11 kv_cache_utils.get_num_blocks;
                                                         0.33 kv_cache_planning._get_kv_cache_bytes_per_block)
  per request  full cdiv(L, bs); sliding cdiv(min(w - 1 + in flight, L), bs) + 1;
             chunked cdiv(min(c + in flight, L), bs); mamba 1 page (2 in 0.33's "align" mode)
  concurrency  num_blocks / sum over groups of blocks per request
  tokens     0.11: num_blocks // groups * block_size; 0.33: int(concurrency * max_model_len)
"""

from __future__ import annotations

import pytest

import kvwidgets as kw
from kvwidgets.core import (
    ChunkedLocalSpec,
    FullAttentionSpec,
    LayerGroup,
    Model,
    RecurrentStateSpec,
    SlidingWindowSpec,
)

GiB = 2**30
MEM = 40 * GiB


def cdiv(a, b):
    return -(-a // b)


def report(model, version, **kw_):
    kw_.setdefault("kv_cache_memory_bytes", MEM)
    return kw.vllm_kv_report(model, vllm_version=version, **kw_)


# ---- full attention ------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["0.11", "0.33"])
def test_full_attention_llama(version):
    L = 16_384
    page = 16 * 8 * (128 + 128) * 2  # Llama 3 8B: 8 KV heads x 128, bf16
    blocks = MEM // (32 * page)  # one group of all 32 layers
    r = report("llama-3-8b", version, max_model_len=L)
    assert (r.page_size_bytes, r.num_blocks, len(r.groups)) == (page, blocks, 1)
    assert r.max_concurrency == blocks / cdiv(L, 16)
    # one group: both versions' rules give blocks x block_size
    assert r.gpu_kv_cache_tokens == blocks * 16 == int(blocks / cdiv(L, 16) * L)


def test_full_attention_tensor_parallel_splits_heads():
    # 8 KV heads over 4 GPUs: 2 per GPU (heads split evenly, v1 AttentionSpec per worker)
    page = 16 * 2 * 256 * 2
    r = report("llama-3-8b", "0.33", max_model_len=8192, num_gpus=4)
    assert r.num_blocks == MEM // (32 * page)


# ---- sliding-window hybrids ------------------------------------------------------------------


def test_gpt_oss_120b_both_versions():
    # 18 sliding (window 128) + 18 full layers, 8 KV heads x 64: every page is equal.
    L, page = 131_072, 16 * 8 * 128 * 2
    blocks = MEM // (18 * page)  # group size 18: two groups, no padding
    full = cdiv(L, 16)
    # H100 reports >= 70 GiB, so `vllm serve` batches 8,192 tokens (engine/arg_utils.py)
    sliding_011 = cdiv(min(128 - 1 + 8192, L), 16) + 1  # one batch in flight
    sliding_033 = cdiv(min(128 - 1 + 2 * 8192, L), 16) + 1  # async scheduling: two batches
    r11 = report("gpt-oss-120b", "0.11", gpu="H100", max_model_len=L)
    r33 = report("gpt-oss-120b", "0.33", gpu="H100", max_model_len=L)
    for r in (r11, r33):
        assert r.num_blocks == blocks and r.group_size == 18 and r.padding_layers == 0
        assert sorted(g.kind for g in r.groups) == ["full", "sliding"]
    assert r11.max_concurrency == blocks / (full + sliding_011)
    assert r33.max_concurrency == blocks / (full + sliding_033)
    assert r11.gpu_kv_cache_tokens == blocks // 2 * 16
    assert r33.gpu_kv_cache_tokens == int(blocks / (full + sliding_033) * L)
    # the two versions log very different token counts for the same memory
    assert r33.gpu_kv_cache_tokens > 1.7 * r11.gpu_kv_cache_tokens


def test_gpt_oss_with_the_hybrid_allocator_off_sizes_every_layer_full():
    L, page = 131_072, 16 * 8 * 128 * 2
    r = report("gpt-oss-120b", "0.33", max_model_len=L, hybrid_kv_cache_manager=False)
    blocks = MEM // (36 * page)
    # a sliding spec sized as full equals the full spec (FullAttentionSpec.merge keeps the window
    # as a note), so vLLM sees one spec: one group, not a "one type" group
    assert len(r.groups) == 1 and r.groups[0].layers == 36 and r.layout == "one spec"
    assert (r.num_blocks, r.max_concurrency) == (blocks, blocks / cdiv(L, 16))
    assert "disabled" in r.explain()


@pytest.mark.parametrize("version", ["0.11", "0.33"])
def test_gemma3_27b_padding_layers(version):
    # 52 sliding (1,024) + 10 full, 16 KV heads x 128: group size 10 (52 >= 1.5 x 10), so the
    # sliding layers fill 6 groups (9,9,9,9,8,8) with 8 padding slots; 7 groups in all.
    L, page = 32_768, 16 * 16 * 256 * 2
    blocks = MEM // (10 * page)
    in_flight = 8192 if version == "0.11" else 2 * 8192
    per_request = 6 * (cdiv(min(1024 - 1 + in_flight, L), 16) + 1) + cdiv(L, 16)
    r = report("gemma-3-27b", version, gpu="H100", max_model_len=L)
    assert len(r.groups) == 7 and r.padding_layers == 8
    assert [g.layers for g in r.groups if g.kind == "sliding"] == [9, 9, 9, 9, 8, 8]
    assert r.num_blocks == blocks and r.blocks_per_request == per_request
    tokens = blocks // 7 * 16 if version == "0.11" else int(blocks / per_request * L)
    assert r.gpu_kv_cache_tokens == tokens
    assert "Add 8 padding layers, may waste at most 15.38% KV cache memory" in r.explain()


def _sliding_full(sliding, full):
    return Model(
        "sw+full",
        (
            LayerGroup(SlidingWindowSpec(8, 64, window=128), sliding),
            LayerGroup(FullAttentionSpec(8, 64), full),
        ),
        20_000_000_000,
    )


def test_group_size_rule_changed_between_versions():
    # 12 sliding + 13 full (gpt-oss-20b plus an EAGLE layer, the case in 0.33's comment):
    # 0.11 takes the smallest count, 12 -> full splits in 2 groups (7 + 6) with 11 padding;
    # 0.33 takes the largest, 13, since 13 < 1.5 x 12 -> 2 groups, 1 padding slot.
    m, page = _sliding_full(12, 13), 16 * 8 * 128 * 2
    r11 = report(m, "0.11", max_model_len=8192)
    r33 = report(m, "0.33", max_model_len=8192)
    assert (len(r11.groups), r11.group_size, r11.padding_layers) == (3, 12, 11)
    assert (len(r33.groups), r33.group_size, r33.padding_layers) == (2, 13, 1)
    assert r11.num_blocks == MEM // (12 * page) and r33.num_blocks == MEM // (13 * page)


# ---- chunked local attention (Llama 4 Scout) ----------------------------------------------


def llama4_scout():
    # 48 layers: every 4th full (NoPE), the rest chunked at 8,192 tokens; 8 KV heads x 128
    return Model(
        "llama-4-scout-like",
        (LayerGroup(ChunkedLocalSpec(8, 128, chunk=8192), 36), LayerGroup(FullAttentionSpec(8, 128), 12)),
        109_000_000_000,
    )


@pytest.mark.parametrize("version", ["0.11", "0.33"])
def test_chunked_attention_switches_the_hybrid_allocator_off(version):
    # config/__init__.py (0.11) and config/vllm.py (0.33): attention_chunk_size set -> HMA off,
    # so every layer is sized as full attention in one group.
    L, page = 131_072, 16 * 8 * 256 * 2
    blocks = MEM // (48 * page)
    r = report(llama4_scout(), version, max_model_len=L)
    assert len(r.groups) == 1 and r.groups[0].layers == 48 and not r.hybrid_allocator
    assert r.num_blocks == blocks
    assert r.max_concurrency == blocks / cdiv(L, 16)
    assert r.gpu_kv_cache_tokens == blocks * 16
    assert "switched off" in r.explain() and "chunked" in r.explain()


@pytest.mark.parametrize("version, in_flight", [("0.11", 8192), ("0.33", 2 * 8192)])
def test_chunked_attention_with_the_hybrid_allocator_forced_on(version, in_flight):
    # vllm-project/vllm#21761 lists the groups Scout gets with the allocator on:
    # (FullAttention x 12) (ChunkedLocalAttention x 12) x 3
    L, page = 131_072, 16 * 8 * 256 * 2
    blocks = MEM // (12 * page)  # group size 12: 3 chunked groups + 1 full
    per_request = 3 * cdiv(min(8192 + in_flight, L), 16) + cdiv(L, 16)
    r = report(llama4_scout(), version, max_model_len=L, gpu="H100", hybrid_kv_cache_manager=True)
    assert [(g.kind, g.layers) for g in r.groups] == [("chunked", 12)] * 3 + [("full", 12)]
    assert r.num_blocks == blocks and r.blocks_per_request == per_request


# ---- MLA -------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["0.11", "0.33"])
@pytest.mark.parametrize("kv_dtype, size", [("bf16", 2), ("fp8", 1)])
def test_mla_deepseek_v3_latent_is_whole_on_every_gpu(version, kv_dtype, size):
    # MLAAttentionSpec: one vector of kv_lora_rank + rope = 576 numbers, not split by TP
    L, page = 32_768, 16 * 576 * size
    blocks = MEM // (61 * page)
    r = report("deepseek-v3", version, max_model_len=L, num_gpus=8, kv_dtype=kv_dtype)
    assert (r.page_size_bytes, r.num_blocks) == (page, blocks)
    assert r.max_concurrency == blocks / cdiv(L, 16)


def deepseek_v32():
    # A layer kind with an extra field, as the V3.2 config adds index_head_dim = 128.
    from dataclasses import dataclass

    from kvwidgets.core import MLASpec

    @dataclass(frozen=True)
    class MLAWithIndexer(MLASpec):
        index_head_dim: int = 128

    return Model("deepseek-v3.2-like", (LayerGroup(MLAWithIndexer(512, 64), 61),), 671_000_000_000)


@pytest.mark.parametrize("version", ["0.11", "0.33"])
def test_mla_with_indexer_is_one_group_of_two_page_sizes(version):
    # fp8 cache: 656 B a token ("fp8_ds_mla"); the indexer layer: 128 fp8 keys + 128 // 128 x 4
    # scale bytes = 132 B (models/deepseek_v2.py). Both are FullAttentionSpec kinds with
    # different pages -> one UniformTypeKVCacheSpecs group: a block spans all 122 layers.
    L, bs = 65_536, 64
    block = 61 * bs * 656 + 61 * bs * 132
    blocks = MEM // block
    r = report(deepseek_v32(), version, max_model_len=L, kv_dtype="fp8", block_size=bs)
    assert len(r.groups) == 1 and r.groups[0].layers == 122 and r.layout == "one type"
    assert r.num_blocks == blocks and r.bytes_per_block == block
    tokens = blocks * bs if version == "0.11" else int(blocks / cdiv(L, bs) * L)
    assert r.gpu_kv_cache_tokens == tokens


# ---- mamba hybrids ----------------------------------------------------------------------------


def qwen3_next():
    # Qwen3-Next-80B-A3B: 48 layers, every 4th full attention (2 KV heads x 256), the other
    # 36 Gated DeltaNet. State per layer (whole, bf16): conv (2x16x128 + 32x128) x 3 + 32x128x128.
    state = ((2 * 16 * 128 + 32 * 128) * 3 + 32 * 128 * 128) * 2
    return Model(
        "qwen3-next-80b-a3b",
        (LayerGroup(RecurrentStateSpec(state), 36), LayerGroup(FullAttentionSpec(2, 256), 12)),
        80_000_000_000,
    )


def test_qwen3_next_real_log_vllm_011():
    """vllm-project/vllm#26646 (drrros, 2025-10-11), a 0.11.x build, TP 2, --kv-cache-dtype fp8:
        GPU KV cache size: 90,048 tokens
        Maximum concurrency for 215,040 tokens per request: 1.66x
    Attention: 1 KV head per GPU x 512 numbers x 1 B = 512 B a token; mamba page per GPU
    548,864 B; block raised to 16 x cdiv(548,864, 16 x 512) = 1,072 tokens, a page of exactly
    548,864 B (no padding). 12 full + 3 x 12 mamba = 4 groups of 12 layers. Both logged
    numbers together pin num_blocks to 338 or 339."""
    model, L = qwen3_next(), 215_040
    bs = 16 * cdiv(548_864, 16 * 512)
    page = bs * 512
    assert (bs, page) == (1072, 548_864)
    per_request = cdiv(L, bs) + 3 * 1
    matches = set()
    for nb in range(300, 400):
        r = report(
            model, "0.11", max_model_len=L, kv_dtype="fp8", num_gpus=2, kv_cache_memory_bytes=nb * 12 * page
        )
        assert r.block_size == bs and r.num_blocks == nb and len(r.groups) == 4
        assert r.gpu_kv_cache_tokens == nb // 4 * bs and r.max_concurrency == nb / per_request
        if (r.gpu_kv_cache_tokens, f"{r.max_concurrency:.2f}") == (90_048, "1.66"):
            matches.add(nb)
    assert matches == {338, 339}
    back = kw.vllm_report_from_tokens(
        model, 90_048, max_model_len=L, kv_dtype="fp8", num_gpus=2, vllm_version="0.11"
    )
    assert back.num_blocks == 336 and "336 to 339 blocks" in back.explain()


def test_qwen3_next_vllm_033_holds_two_state_pages_a_request():
    # 0.33: prefix caching on by default -> mamba cache mode "align": 2 pages per mamba group
    model, L = qwen3_next(), 215_040
    bs, page = 1072, 548_864
    blocks = MEM // (12 * page)
    r = report(model, "0.33", max_model_len=L, kv_dtype="fp8", num_gpus=2)
    assert (r.block_size, r.num_blocks) == (bs, blocks)
    assert r.max_concurrency == blocks / (cdiv(L, bs) + 3 * 2)
    assert r.gpu_kv_cache_tokens == int(blocks / (cdiv(L, bs) + 6) * L)
    none = report(model, "0.33", max_model_len=L, kv_dtype="fp8", num_gpus=2, mamba_cache_mode="none")
    assert none.max_concurrency == blocks / (cdiv(L, bs) + 3)


@pytest.mark.parametrize("version", ["0.11", "0.33"])
def test_nemotron_h_like_fp32_state_pads_the_mamba_page(version):
    # 24 Mamba-2 layers with an fp32 state (NemotronH's default), 4 attention layers 8 x 128.
    # State numbers: conv (128 x 64 + 2 x 8 x 128) x 3 + ssm 128 x 64 x 128, 4 B each.
    state = ((128 * 64 + 2 * 8 * 128) * 3 + 128 * 64 * 128) * 4
    model = Model(
        "nemotron-h-like",
        (LayerGroup(RecurrentStateSpec(state), 24), LayerGroup(FullAttentionSpec(8, 128), 4)),
        8_000_000_000,
    )
    a1 = 8 * 256 * 2
    bs = 16 * cdiv(state, 16 * a1)  # both versions: 16-token alignment here
    page = bs * a1
    assert page > state
    L = 65_536
    r = report(model, version, max_model_len=L, mamba_kind="mamba2")
    blocks = MEM // (4 * page)  # group size 4: 6 mamba groups + 1 attention
    assert (r.block_size, r.page_size_bytes, len(r.groups), r.num_blocks) == (bs, page, 7, blocks)
    pct = 100 * (page - state) / state
    assert f"Padding mamba page size by {pct:.2f}%" in r.explain()
    # 0.33: "align" mode (prefix caching on) keeps 2 pages, and Mamba-2 layers one more for the
    # prefill checkpoint (mamba_mixer2.py get_kv_cache_spec: num_prefill_checkpoint_blocks=1)
    pages = 1 if version == "0.11" else 3
    assert r.blocks_per_request == cdiv(L, bs) + 6 * pages


def test_mamba_hybrid_needs_the_hybrid_allocator():
    with pytest.raises(kw.InputError, match="hybrid KV cache manager off"):
        report(qwen3_next(), "0.33", max_model_len=8192, hybrid_kv_cache_manager=False)


# ---- page sizes that differ (Gemma 4 style global / local heads) ------------------------------


def gemma4_like():
    return Model(
        "gemma-4-like",
        (LayerGroup(SlidingWindowSpec(8, 256, window=1024), 50), LayerGroup(FullAttentionSpec(2, 512), 10)),
        31_000_000_000,
    )


def test_differing_pages_033_raises_the_block_size_of_the_smaller():
    # sliding 8 x 512 x 2 = 8,192 B a token, full 2 x 1,024 x 2 = 4,096 B: 0.33 doubles the full
    # layers' block size to 32 tokens so both pages are 131,072 B (unify_kv_cache_spec_page_size).
    L = 32_768
    r = report(gemma4_like(), "0.33", max_model_len=L, gpu="H100")
    full = [g for g in r.groups if g.kind == "full"][0]
    assert (full.block_size, full.page_bytes, r.page_size_bytes) == (32, 131_072, 131_072)
    sliding = cdiv(min(1024 - 1 + 2 * 8192, L), 16) + 1
    assert r.blocks_per_request == 5 * sliding + cdiv(L, 32)
    assert r.num_blocks == MEM // (10 * 131_072)


def test_differing_pages_011_has_no_rule():
    with pytest.raises(kw.InputError, match="0.11 cannot group"):
        report(gemma4_like(), "0.11", max_model_len=32_768)


# ---- layers that store nothing, inputs, logs -------------------------------------------------


def test_layers_that_store_nothing_get_no_cache():
    from dataclasses import dataclass

    from kvwidgets.core import LayerSpec

    @dataclass(frozen=True)
    class SharedKV(LayerSpec):  # reads another layer's KV (num_kv_shared_layers)
        kind = "shared"

    m = Model(
        "shared", (LayerGroup(FullAttentionSpec(8, 128), 20), LayerGroup(SharedKV(), 10)), 1_000_000_000
    )
    r = report(m, "0.33", max_model_len=8192)
    assert len(r.groups) == 1 and r.groups[0].layers == 20
    assert r.num_blocks == MEM // (20 * 16 * 8 * 256 * 2)


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: kw.vllm_kv_report("llama-3-8b", max_model_len=8192), "gpu"),
        (lambda: report("llama-3-8b", "0.20"), "vllm_version"),
        (lambda: report("llama-3-8b", "0.33", kv_dtype="int4"), "kv_dtype"),
        (lambda: report("llama-3-8b", "0.33", kv_cache_memory_bytes=-1), "kv_cache_memory_bytes"),
        (lambda: report("llama-3-8b", "0.33", mamba_cache_mode="all"), "mamba_cache_mode"),
        (lambda: report("llama-3-8b", "0.33", max_num_batched_tokens=0), "max_num_batched_tokens"),
    ],
)
def test_bad_input_names_the_field(call, field):
    with pytest.raises(kw.InputError, match=field):
        call()


def test_max_model_len_defaults_to_the_models_context():
    r = report("llama-3-8b", "0.33")
    assert r.max_model_len == kw.load_model("llama-3-8b").max_context == 8192


@pytest.mark.parametrize(
    "gpu, version, batched",
    [
        ("H100", "0.11", 8192),
        ("A100", "0.11", 2048),
        ("B200", "0.11", 8192),
        ("H100", "0.33", 8192),
        ("A100", "0.33", 2048),
        ("B200", "0.33", 16384),
        ("L4", "0.33", 2048),
    ],
)
def test_default_batched_tokens_follow_the_gpu(gpu, version, batched):
    # engine/arg_utils.py: >= 160 GiB (0.33 only) 16,384; >= 70 GiB and not an A100 8,192; else 2,048
    assert report("gpt-oss-120b", version, gpu=gpu, max_model_len=8192).max_num_batched_tokens == batched


def test_log_lines_follow_the_version():
    r11 = report("llama-3-8b", "0.11", max_model_len=16_384)
    r33 = report("llama-3-8b", "0.33", max_model_len=16_384)
    assert r11.log_lines().count("\n") == 1
    assert r33.log_lines() == (
        f"GPU KV cache size: {r33.gpu_kv_cache_tokens:,} tokens, Maximum concurrency for "
        f"16,384 tokens per request: {r33.max_concurrency:.2f}x"
    )
    assert r33.log_lines(memory=True).startswith("Available KV cache memory: 40.0 GiB")
    assert r11.log_lines(memory=True).startswith("Available KV cache memory: 40.00 GiB")
    for r in (r11, r33):
        assert kw.parse_vllm_log(r.log_lines(memory=True)) == {
            "gpu_kv_cache_tokens": r.gpu_kv_cache_tokens,
            "max_model_len": 16_384,
            "max_concurrency": round(r.max_concurrency, 2),
            "available_kv_cache_gib": 40.0,
        }


def test_budget_pool_matches_memory_budget():
    b = kw.memory_budget("gpt-oss-120b", "H200", weight_dtype="fp8")
    r = kw.vllm_kv_report("gpt-oss-120b", "H200", max_model_len=65_536, weight_dtype="fp8")
    assert r.available_bytes == int(b.per_gpu_kv_budget)
    assert r.num_blocks == r.available_bytes // (18 * 16 * 8 * 128 * 2)


def test_a_cache_too_small_for_one_request_is_flagged():
    r = report("llama-3-8b", "0.33", max_model_len=8192, kv_cache_memory_bytes=512 * 2**20)
    assert not r.starts and "refuse to start" in r.explain()
    assert report("llama-3-8b", "0.33", max_model_len=8192).starts


def test_explain_compares_with_bytes_per_token_arithmetic():
    # 36 attention layers x 8 KV heads x 128 numbers x 2 B = 73,728 B a token if every layer kept every token
    r = report("gpt-oss-120b", "0.33", gpu="H100", max_model_len=131_072)
    flat = MEM // (36 * 8 * 128 * 2)
    assert r.flat_tokens == flat
    assert (
        f"would give {flat:,} tokens; the logged figure is {r.gpu_kv_cache_tokens / flat:.2f} times that"
        in r.explain()
    )


def test_mla_at_16_token_blocks_says_vllm_uses_64():
    assert "64-token blocks" in report("deepseek-v3", "0.11", max_model_len=8192).explain()
    assert "64-token blocks" not in report("deepseek-v3", "0.11", max_model_len=8192, block_size=64).explain()


def test_contract_signature():
    # ARCHITECTURE.md: vllm_kv_report(model, gpu=None, *, max_model_len, kv_cache_memory_bytes=None,
    #                                  kv_dtype="bf16", block_size=16, num_gpus=1, vllm_version="0.33")
    r = kw.vllm_kv_report(
        kw.load_model("llama-3-8b"),
        gpu=None,
        max_model_len=8192,
        kv_cache_memory_bytes=MEM,
        kv_dtype="bf16",
        block_size=16,
        num_gpus=1,
        vllm_version="0.33",
    )
    assert isinstance(r.gpu_kv_cache_tokens, int) and isinstance(r.max_concurrency, float)


@pytest.mark.parametrize("version", ["0.11", "0.33"])
def test_attention_free_mamba_model(version):
    # No attention: one group of state pages, 1 page a request ("none": 0.33 turns prefix caching
    # off for attention-free models); the mamba block size is max_model_len, so 0.11 logs
    # num_blocks x max_model_len tokens (min block size over the groups).
    state, L = 3_000_000, 4096
    m = Model("mamba-only", (LayerGroup(RecurrentStateSpec(state), 64),), 2_800_000_000)
    r = report(m, version, max_model_len=L)
    blocks = MEM // (64 * state)
    assert (r.num_blocks, r.blocks_per_request, r.max_concurrency) == (blocks, 1, float(blocks))
    assert r.gpu_kv_cache_tokens == blocks * L


def test_indexer_given_in_bytes_matches_indexer_given_as_key_size():
    # the layer may carry the indexer as bytes a token (index_bytes = 128 + 128 // 128 x 4 = 132)
    from dataclasses import dataclass

    from kvwidgets.core import MLASpec

    @dataclass(frozen=True)
    class MLAIndexBytes(MLASpec):
        index_bytes: int = 132

    m = Model("v3.2-bytes", (LayerGroup(MLAIndexBytes(512, 64), 61),), 671_000_000_000)
    a = report(m, "0.33", max_model_len=65_536, kv_dtype="fp8", block_size=64)
    b = report(deepseek_v32(), "0.33", max_model_len=65_536, kv_dtype="fp8", block_size=64)
    assert a.bytes_per_block == b.bytes_per_block == 61 * 64 * (656 + 132)
    # bf16 cache: the latent is 576 x 2 B, the indexer stays 132 B of fp8 keys and scales
    c = report(m, "0.33", max_model_len=65_536, kv_dtype="bf16", block_size=64)
    assert c.bytes_per_block == 61 * 64 * (576 * 2 + 132)


@pytest.mark.parametrize("version", ["0.11", "0.33"])
def test_cross_attention_holds_the_encoder_tokens(version):
    # Encoder-decoder (Whisper-like): 32 self-attention + 32 cross-attention layers, 20 KV heads x 64.
    # CrossAttentionSpec reserves cdiv(max_num_encoder_input_tokens, 16) blocks a request
    # (v1/kv_cache_interface.py), and config/scheduler.py sets that to max_num_batched_tokens;
    # equal pages, so 2 groups of 32.
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Cross(FullAttentionSpec):  # the layer interface: cap 0, encoder_tokens held per sequence
        encoder_tokens: int = 0
        kind = "cross"

        @property
        def token_cap(self):
            return 0

    m = Model(
        "enc-dec",
        (LayerGroup(FullAttentionSpec(20, 64), 32), LayerGroup(Cross(20, 64, encoder_tokens=1500), 32)),
        1_500_000_000,
    )
    L, page = 448, 16 * 20 * 128 * 2
    r = report(m, version, max_model_len=L, max_num_batched_tokens=2048)
    blocks = MEM // (32 * page)
    assert len(r.groups) == 2 and r.num_blocks == blocks
    assert r.blocks_per_request == cdiv(L, 16) + cdiv(2048, 16)
    assert "a request holds 1,500" in r.explain()


def test_context_past_the_models_is_noted():
    r = report("llama-3-8b", "0.33", max_model_len=32_768)  # Llama 3 8B: 8,192 positions
    assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN" in r.explain()
    assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in report("llama-3-8b", "0.33", max_model_len=8192).explain()


def test_start_up_check_by_version():
    # 0.11 check_enough_kv_cache_memory: the sum over layers of each one's max usage must fit;
    # 0.33 (kv_cache_planning): group size x page x the blocks a request needs must fit in the
    # memory less one block (BlockPool's null block).
    L, page = 131_072, 16 * 8 * 128 * 2
    need_011 = 18 * cdiv(L, 16) * page + 18 * (cdiv(min(127 + 8192, L), 16) + 1) * page
    need_033 = 18 * page * (cdiv(L, 16) + cdiv(min(127 + 2 * 8192, L), 16) + 1)
    for version, need, spare in (("0.11", need_011, 0), ("0.33", need_033, 18 * page)):
        ok = report("gpt-oss-120b", version, gpu="H100", max_model_len=L, kv_cache_memory_bytes=need + spare)
        short = report(
            "gpt-oss-120b", version, gpu="H100", max_model_len=L, kv_cache_memory_bytes=need + spare - 1
        )
        assert ok.needed_bytes == need and ok.starts and not short.starts


def test_weights_that_fill_the_gpu_leave_no_blocks():
    # Llama 3 70B in bf16 (141 GB) on one 80 GB H100: the budget is negative, so no memory
    r = kw.vllm_kv_report("llama-3-70b", "H100", max_model_len=8192)
    assert (r.available_bytes, r.num_blocks, r.gpu_kv_cache_tokens, r.starts) == (0, 0, 0, False)
    assert "no available memory" in r.explain()


def test_as_dict_is_plain_data():
    import json

    d = report("gemma-3-27b", "0.33", max_model_len=32_768).as_dict()
    assert json.loads(json.dumps(d))["groups"][0]["kind"] == "sliding"
    assert d["starts"] is True and len(d["groups"]) == 7


def test_qwen3_next_033_on_hopper_checkpoints_on_a_64_token_grid():
    # 0.33 on an H100: FlashInfer runs the Gated DeltaNet prefill, so in "align" mode the
    # blocks sit on a 64-token grid (kernel alignment lcm(16, 64) = 64, platforms/interface.py)
    # and each GDN group keeps 2 + 1 pages a request. Attention 512 B a token (fp8, TP 2):
    # block 64 x cdiv(548,864, 64 x 512) = 1,088 tokens, page 557,056 B, the state padded to it.
    L = 215_040
    bs = 64 * cdiv(548_864, 64 * 512)
    page = bs * 512
    assert (bs, page) == (1088, 557_056)
    r = report(
        qwen3_next(), "0.33", gpu="H100", max_model_len=L, kv_dtype="fp8", num_gpus=2, mamba_kind="gdn"
    )
    blocks = MEM // (12 * page)
    assert (r.block_size, r.page_size_bytes, r.num_blocks) == (bs, page, blocks)
    assert r.blocks_per_request == cdiv(L, bs) + 3 * 3
    assert f"Padding mamba page size by {100 * (page - 548_864) / 548_864:.2f}%" in r.explain()
    # off Hopper and Blackwell the prefill runs on Triton: no checkpoint page, the 16-token grid
    a100 = report(
        qwen3_next(), "0.33", gpu="A100", max_model_len=L, kv_dtype="fp8", num_gpus=2, mamba_kind="gdn"
    )
    assert (a100.block_size, a100.blocks_per_request) == (1072, cdiv(L, 1072) + 3 * 2)


def test_mamba_kind_is_read_from_the_models_provenance():
    # the config loader names the state formula in provenance["recurrent_state_bytes"]
    from dataclasses import replace

    gdn = replace(qwen3_next(), provenance={"recurrent_state_bytes": "Gated DeltaNet: conv ... state ..."})
    r = report(gdn, "0.33", gpu="H100", max_model_len=65_536, kv_dtype="fp8", num_gpus=2)
    assert r.block_size == 1088
    unknown = report(qwen3_next(), "0.33", gpu="H100", max_model_len=65_536, kv_dtype="fp8", num_gpus=2)
    assert unknown.block_size == 1072 and "kind of state layer is not known" in unknown.explain()
    with pytest.raises(kw.InputError, match="mamba_kind"):
        report(qwen3_next(), "0.33", max_model_len=8192, mamba_kind="mamba3")
