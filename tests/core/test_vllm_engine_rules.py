"""vLLM's rules beyond one model's own layers, worked out by hand from the wheels' source.

Each expected number is computed here from the rule it cites (paths inside the `vllm/`
package of the 0.11.0 and 0.33.0 wheels), never read back from kvwidgets:
  DCP        FullAttentionSpec.max_memory_usage_bytes: cdiv(cdiv(L, dcp), block) blocks a
             request (v1/kv_cache_interface.py, both versions); 0.11 logs tokens x dcp
             (v1/core/kv_cache_utils.py get_kv_cache_config_from_groups)
  draft      the drafter's attention layers are collected with the target's into one dict of
             specs (v1/worker/gpu_model_runner.py get_kv_cache_spec); equal specs share a group
  mamba      MambaSpec.max_memory_usage_bytes: (1 or 2 + checkpoints) + num_speculative_blocks
             pages in 0.33; conv windows of conv_kernel - 1 + num_spec rows
             (model_executor/layers/mamba/mamba_utils.py)
  MLA hybrid platforms/interface.py _align_hybrid_block_size: block a multiple of 128
  packed KV  nvfp4: d // 2 + d // 16 bytes a head vector (utils/torch_utils.py);
             per-token-head: d x bits / 8 + 4 (v1/attention/backends/triton_attn.py)
"""

from __future__ import annotations

import dataclasses

import pytest

import kvwidgets as kw
from kvwidgets.core import (
    FullAttentionSpec,
    InputError,
    LayerGroup,
    MLASpec,
    Model,
    RecurrentStateSpec,
    VLLMSettings,
)

GiB = 2**30
MEM = 40 * GiB


def cdiv(a, b):
    return -(-a // b)


def report(model, version, **kw_):
    kw_.setdefault("kv_cache_memory_bytes", MEM)
    return kw.vllm_kv_report(model, vllm_version=version, **kw_)


# ---- decode context parallel ----------------------------------------------------------------

MLA_PAGE = 64 * 576 * 2  # DeepSeek-V3: latent 512 + rope 64, bf16, 64-token blocks (FlashMLA)


@pytest.mark.parametrize("L", [32_768, 100_000])
def test_dcp_splits_a_request_over_the_ranks_033(L):
    blocks = MEM // (61 * MLA_PAGE)
    per_request = cdiv(cdiv(L, 8), 64)  # 32,768 -> 64 blocks; 100,000 -> 12,500 tokens -> 196
    r = report(
        "deepseek-v3", "0.33", max_model_len=L, num_gpus=8, block_size=64, decode_context_parallel_size=8
    )
    assert (r.num_blocks, r.blocks_per_request) == (blocks, per_request)
    assert r.max_concurrency == blocks / per_request
    assert r.gpu_kv_cache_tokens == int(blocks / per_request * L)
    plain = report("deepseek-v3", "0.33", max_model_len=L, num_gpus=8, block_size=64)
    assert plain.num_blocks == blocks and plain.blocks_per_request == cdiv(L, 64)
    assert "decode context parallel 8" in r.explain() and "cdiv(cdiv(" in r.explain()


def test_dcp_vllm_011_multiplies_the_logged_tokens():
    L = 32_768
    blocks = MEM // (61 * MLA_PAGE)
    r = report(
        "deepseek-v3", "0.11", max_model_len=L, num_gpus=8, block_size=64, decode_context_parallel_size=4
    )
    assert r.gpu_kv_cache_tokens == blocks * 64 * 4  # one group: num_blocks x block x dcp
    assert r.max_concurrency == blocks / cdiv(cdiv(L, 4), 64)
    assert "Multiplying the GPU KV cache size by the dcp_world_size 4." in r.explain()
    back = kw.vllm_report_from_tokens(
        kw.load_model("deepseek-v3"),
        blocks * 64 * 4,
        max_model_len=L,
        num_gpus=8,
        block_size=64,
        vllm_version="0.11",
        decode_context_parallel_size=4,
    )
    assert back.num_blocks == blocks
    parsed = kw.parse_vllm_log(
        "INFO [kv_cache_utils.py:1083] Multiplying the GPU KV cache size by the dcp_world_size 4.\n"
        f"INFO [kv_cache_utils.py:1087] GPU KV cache size: {blocks * 256:,} tokens"
    )
    assert parsed["decode_context_parallel_size"] == 4


def test_dcp_gqa_keeps_the_heads_per_gpu():
    # Llama-3-8B, TP 8 over 8 KV heads: 1 head a GPU; DCP 8 reuses those ranks (0.33 allows GQA)
    page = 16 * 1 * 256 * 2
    r = report("llama-3-8b", "0.33", max_model_len=8192, num_gpus=8, decode_context_parallel_size=8)
    assert r.num_blocks == MEM // (32 * page) and r.blocks_per_request == cdiv(1024, 16)


@pytest.mark.parametrize(
    "model, version, dcp, gpus, field",
    [
        ("deepseek-v3", "0.33", 3, 8, "decode_context_parallel_size=3"),  # tp % dcp != 0
        ("gemma-3-27b", "0.33", 2, 2, "sliding"),  # SlidingWindowSpec asserts
        ("gemma-3-27b", "0.11", 2, 2, "sliding"),
    ],
)
def test_dcp_refusals_name_the_reason(model, version, dcp, gpus, field):
    with pytest.raises(InputError, match=field):
        report(model, version, max_model_len=8192, num_gpus=gpus, decode_context_parallel_size=dcp)


def qwen3_next(conv_kernel=None):
    # Qwen3-Next-80B-A3B: 36 Gated DeltaNet + 12 full (2 KV heads x 256). Per GDN layer (bf16):
    # conv window (2 x 16 x 128 + 32 x 128) = 8,192 channels x 3 rows, state 32 x 128 x 128.
    conv, ssm = 8192 * 3 * 2, 32 * 128 * 128 * 2
    return Model(
        "qwen3-next-80b-a3b",
        (
            LayerGroup(
                RecurrentStateSpec(conv + ssm, conv_bytes=conv, ssm_bytes=ssm, conv_kernel=conv_kernel), 36
            ),
            LayerGroup(FullAttentionSpec(2, 256), 12),
        ),
        80_000_000_000,
    )


def test_dcp_with_state_layers_by_version():
    # 0.11.0 single_type_kv_cache_manager.py: "DCP not support mamba now"; 0.33 MambaSpec is not
    # DCP-sharded, so only the attention layers' blocks shrink
    with pytest.raises(InputError, match="0.11 does not run mamba layers"):
        report(qwen3_next(), "0.11", max_model_len=65_536, num_gpus=2, decode_context_parallel_size=2)
    L = 65_536
    r = report(
        qwen3_next(),
        "0.33",
        max_model_len=L,
        num_gpus=2,
        kv_dtype="fp8",
        decode_context_parallel_size=2,
        mamba_cache_mode="none",
    )
    bs = 16 * cdiv(548_864, 16 * 512)  # 1,072 (the 0.11 log test in test_vllm_accounting)
    assert r.block_size == bs and r.blocks_per_request == cdiv(cdiv(L, 2), bs) + 3 * 1


# ---- draft layers (EAGLE / MTP) ---------------------------------------------------------------


def eagle_llama3_8b():
    # yuhuili/EAGLE-LLaMA3-Instruct-8B: one LlamaDecoderLayer, 8 KV heads x 128 like the target
    return Model("eagle-llama3-8b", (LayerGroup(FullAttentionSpec(8, 128), 1),), 250_000_000)


@pytest.mark.parametrize("version", ["0.11", "0.33"])
def test_eagle_layer_shaped_like_the_target_joins_its_group(version):
    L, page = 16_384, 16 * 8 * 256 * 2
    r = report("llama-3-8b", version, max_model_len=L, draft=eagle_llama3_8b(), num_speculative_tokens=3)
    blocks = MEM // (33 * page)  # 32 target + 1 draft layer in one group
    assert (len(r.groups), r.groups[0].layers, r.num_blocks) == (1, 33, blocks)
    assert r.max_concurrency == blocks / cdiv(L, 16)
    assert "adds 1 attention layer to the pool (shaped like the target's" in r.explain()


def test_draft_layer_of_another_shape_spans_the_block_033():
    # a draft with 4 KV heads: both full attention, different pages -> one "one type" group whose
    # block spans every layer (UniformTypeKVCacheSpecs): 32 x 16,384 + 1 x 8,192 B
    draft = Model("small-draft", (LayerGroup(FullAttentionSpec(4, 128), 1),), 250_000_000)
    r = report("llama-3-8b", "0.33", max_model_len=8192, draft=draft, num_speculative_tokens=2)
    page = 32 * (16 * 8 * 256 * 2) + 16 * 4 * 256 * 2
    assert (r.layout, r.bytes_per_block, r.num_blocks) == ("one type", page, MEM // page)
    assert "add a KV cache group" in r.explain()


def test_mtp_draft_copies_the_targets_attention():
    m = kw.load_model("deepseek-v3")
    d = kw.mtp_draft(m)
    assert sum(g.count for g in d.groups) == 1 and d.groups[0].spec == m.groups[0].spec
    assert d.params_source.startswith("estimated")
    r = report(m, "0.33", max_model_len=32_768, num_gpus=8, block_size=64, draft=d, num_speculative_tokens=1)
    assert r.groups[0].layers == 62 and r.num_blocks == MEM // (62 * MLA_PAGE)
    # from a GPU budget the draft's weights come off the memory too, and are marked as estimated
    with_draft = kw.vllm_kv_report(
        m,
        "H200",
        max_model_len=32_768,
        num_gpus=8,
        block_size=64,
        weight_dtype="fp8",
        draft=d,
        num_speculative_tokens=1,
    )
    alone = kw.vllm_kv_report(m, "H200", max_model_len=32_768, num_gpus=8, block_size=64, weight_dtype="fp8")
    # fp8 weights: one byte a parameter, over 8 GPUs
    assert alone.available_bytes - with_draft.available_bytes in range(d.params // 8 - 1, d.params // 8 + 2)
    assert "the draft's estimated" in with_draft.memory_source


def test_draft_needs_speculative_tokens():
    with pytest.raises(InputError, match="num_speculative_tokens"):
        report("llama-3-8b", "0.33", max_model_len=8192, draft=eagle_llama3_8b())


# ---- mamba state pages with draft tokens and prefix caching ----------------------------------


def test_qwen3_next_mtp_033_adds_state_pages_and_conv_rows():
    # TP 2, fp8 KV: attention 1 KV head x 512 x 1 B = 512 B a token. State per GPU: 548,864 B,
    # plus 2 draft rows of the conv window: 49,152 / (3 rows x 2 GPUs) = 8,192 B a row -> 565,248.
    # Block 16 x cdiv(565,248, 16 x 512) = 1,104 tokens = a page of exactly 565,248 B.
    # Layers: 36 GDN + 12 full + 1 MTP full = 13 full; group size 13 (36 is not < 1.5 x 13):
    # 1 attention group + cdiv(36, 13) = 3 state groups (3 padding slots).
    # A request ("none" mode): cdiv(L, 1,104) + 3 groups x (1 + 2 draft pages).
    L = 131_072
    mtp = Model("qwen3-next-mtp", (LayerGroup(FullAttentionSpec(2, 256), 1),), 1_000_000_000)
    r = report(
        qwen3_next(conv_kernel=4),
        "0.33",
        max_model_len=L,
        num_gpus=2,
        kv_dtype="fp8",
        draft=mtp,
        num_speculative_tokens=2,
        enable_prefix_caching=False,
    )
    state = 548_864 + 2 * 8192
    bs = 16 * cdiv(state, 16 * 512)
    assert (bs, bs * 512) == (1104, state)
    assert (r.block_size, r.group_size, len(r.groups), r.padding_layers) == (bs, 13, 4, 3)
    assert r.num_blocks == MEM // (13 * bs * 512)
    assert r.blocks_per_request == cdiv(L, bs) + 3 * 3
    assert "2 of them for draft tokens" in r.explain()
    # 0.11 (Qwen3-Next only): the conv window grows too, but a request counts one state page
    old = report(
        qwen3_next(conv_kernel=4),
        "0.11",
        max_model_len=L,
        num_gpus=2,
        kv_dtype="fp8",
        draft=mtp,
        num_speculative_tokens=2,
    )
    assert old.block_size == bs and old.blocks_per_request == cdiv(L, bs) + 3


def test_draft_tokens_need_the_conv_kernel():
    with pytest.raises(InputError, match="conv_kernel"):
        report(qwen3_next(), "0.33", max_model_len=8192, num_gpus=2, num_speculative_tokens=2)


def test_prefix_caching_decides_the_mamba_mode_033():
    L = 65_536
    kwargs = dict(max_model_len=L, num_gpus=2, kv_dtype="fp8")
    default = report(qwen3_next(), "0.33", **kwargs)
    on = report(qwen3_next(), "0.33", enable_prefix_caching=True, **kwargs)
    off = report(qwen3_next(), "0.33", enable_prefix_caching=False, **kwargs)
    none = report(qwen3_next(), "0.33", mamba_cache_mode="none", **kwargs)
    bs = 1072
    assert default.blocks_per_request == on.blocks_per_request == cdiv(L, bs) + 3 * 2
    assert off.blocks_per_request == none.blocks_per_request == cdiv(L, bs) + 3 * 1
    assert (default.mamba_cache_mode, off.mamba_cache_mode) == ("align", "none")
    # the default is said where it was assumed, and only there
    assert "Assumed prefix caching on" in default.explain()
    assert all("Assumed" not in x.explain() for x in (on, off, none))
    with pytest.raises(InputError, match="contradicts enable_prefix_caching"):
        report(qwen3_next(), "0.33", enable_prefix_caching=False, mamba_cache_mode="align", **kwargs)
    with pytest.raises(InputError, match="0.11 refuses prefix caching"):
        report(qwen3_next(), "0.11", enable_prefix_caching=True, **kwargs)
    logged = kw.parse_vllm_log(
        "INFO [config.py:765] Mamba cache mode is set to 'align' for Qwen3NextForCausalLM by default when "
        "prefix caching is enabled\nGPU KV cache size: 1,000 tokens"
    )
    assert logged["mamba_cache_mode"] == "align"


def test_attention_free_model_assumes_prefix_caching_off():
    m = Model("mamba-only", (LayerGroup(RecurrentStateSpec(3_000_000), 64),), 2_800_000_000)
    r = report(m, "0.33", max_model_len=4096)
    assert r.blocks_per_request == 1 and "Assumed prefix caching off" in r.explain()


def test_later_011_patch_refused_for_state_layers():
    with pytest.raises(InputError, match="0.11.1"):
        report(qwen3_next(), "0.11.1", max_model_len=8192, num_gpus=2)
    assert report("llama-3-8b", "0.11.1", max_model_len=8192).num_blocks > 0


# ---- an MLA + linear-attention hybrid (Kimi-Linear's shape) ---------------------------------


def mla_linear_hybrid():
    # 7 MLA layers (latent 512 + rope 64) and 20 KDA layers; KDA state on one GPU: conv
    # 32 x 128 x 3 channels x 3 rows x 2 B + recurrent 32 x 128 x 128 x 4 B = 2,170,880 B
    state = 12_288 * 3 * 2 + 32 * 128 * 128 * 4
    return Model(
        "mla-linear-hybrid",
        (LayerGroup(RecurrentStateSpec(state), 20), LayerGroup(MLASpec(512, 64), 7)),
        48_000_000_000,
    )


def test_mla_hybrid_block_is_a_multiple_of_128_033():
    # MLA page a token 576 x 2 = 1,152 B; block 128 x cdiv(2,170,880, 128 x 1,152) = 1,920 tokens
    # (a 16-token alignment would give 1,888); page 2,211,840 B, state padded to it.
    # Group size 7 (20 is not < 10.5): 1 MLA group + cdiv(20, 7) = 3 state groups, 1 padding slot.
    state, a1 = 2_170_880, 1152
    bs = 128 * cdiv(state, 128 * a1)
    assert bs == 1920 and 16 * cdiv(state, 16 * a1) == 1888
    L = 131_072
    r = report(mla_linear_hybrid(), "0.33", max_model_len=L, mamba_cache_mode="none")
    assert (r.block_size, r.page_size_bytes, r.group_size, len(r.groups)) == (bs, bs * a1, 7, 4)
    assert r.num_blocks == MEM // (7 * bs * a1)
    assert r.blocks_per_request == cdiv(L, bs) + 3
    assert f"Padding mamba page size by {100 * (bs * a1 - state) / state:.2f}%" in r.explain()


def test_mla_hybrid_refused_by_011():
    with pytest.raises(InputError, match="HybridAttentionMambaModelConfig"):
        report(mla_linear_hybrid(), "0.11", max_model_len=8192)


# ---- KV formats below 8 bits (0.33) ------------------------------------------------------------


@pytest.mark.parametrize(
    "fmt, head_bytes",
    [
        ("nvfp4", 128 // 2 + 128 // 16),  # 72: fp4 data + one fp8 scale per 16
        ("nvfp4_4over6", 72),
        ("int4_per_token_head", 128 // 2 + 4),  # 68: int4 data + one fp32 scale
        ("int8_per_token_head", 128 + 4),
        ("fp8_per_token_head", 128 + 4),
    ],
)
def test_packed_kv_formats_llama3_8b(fmt, head_bytes):
    per_token = 8 * 2 * head_bytes  # 8 KV heads, K and V each a packed slot
    r = report("llama-3-8b", "0.33", max_model_len=16_384, kv_dtype=fmt)
    assert r.page_size_bytes == 16 * per_token
    assert r.num_blocks == MEM // (32 * 16 * per_token)
    assert (
        f"KV format {fmt}" in r.explain() and f"({head_bytes} B a key or value of 128 numbers)" in r.explain()
    )


def test_packed_kv_formats_refused_where_no_engine_offers_them():
    with pytest.raises(InputError, match="0.11 has no KV format below 8 bits"):
        report("llama-3-8b", "0.11", max_model_len=8192, kv_dtype="nvfp4")
    with pytest.raises(InputError, match="not for MLA"):
        report("deepseek-v3", "0.33", max_model_len=8192, kv_dtype="nvfp4")
    with pytest.raises(InputError, match="kv_dtype"):
        report("llama-3-8b", "0.33", max_model_len=8192, kv_dtype="int4")  # a weight format, not a vLLM cache
    # offered by 0.33 but with a layout kvwidgets does not reproduce: refused by name, with the reason
    with pytest.raises(InputError, match="get_boundary_skip_layers"):
        report("llama-3-8b", "0.33", max_model_len=8192, kv_dtype="turboquant_4bit_nc")


# ---- the settings object ------------------------------------------------------------------------


def test_settings_object_equals_the_keywords():
    s = VLLMSettings(
        vllm_version="0.11", max_model_len=32_768, block_size=64, num_gpus=8, decode_context_parallel_size=2
    )
    a = kw.vllm_kv_report(kw.load_model("deepseek-v3"), kv_cache_memory_bytes=MEM, settings=s)
    b = report(
        "deepseek-v3", "0.11", max_model_len=32_768, block_size=64, num_gpus=8, decode_context_parallel_size=2
    )
    assert a == b
    back = kw.vllm_report_from_tokens(kw.load_model("deepseek-v3"), a.gpu_kv_cache_tokens, settings=s)
    assert back.num_blocks <= a.num_blocks and back.gpu_kv_cache_tokens == a.gpu_kv_cache_tokens
    # a keyword that contradicts a value settings= states is refused rather than silently picked
    with pytest.raises(InputError, match="block_size given twice"):
        kw.vllm_kv_report(kw.load_model("deepseek-v3"), kv_cache_memory_bytes=MEM, settings=s, block_size=32)
    with pytest.raises(InputError, match="max_model_len"):
        kw.vllm_report_from_tokens(kw.load_model("llama-3-8b"), 1000)


def test_keywords_are_merged_into_settings():
    deepseek = kw.load_model("deepseek-v3")
    s = VLLMSettings(vllm_version="0.11", block_size=64, num_gpus=8)
    merged = kw.vllm_kv_report(deepseek, kv_cache_memory_bytes=MEM, settings=s, max_model_len=32_768)
    stated = VLLMSettings(vllm_version="0.11", block_size=64, num_gpus=8, max_model_len=32_768)
    assert merged == kw.vllm_kv_report(deepseek, kv_cache_memory_bytes=MEM, settings=stated)
    assert merged.max_model_len == 32_768 and merged.block_size == 64
    # repeating the value settings= states is no clash; a keyword at its default against a stated value is
    assert kw.vllm_kv_report(deepseek, kv_cache_memory_bytes=MEM, settings=stated, block_size=64) == merged
    with pytest.raises(InputError, match="block_size given twice"):
        kw.vllm_kv_report(deepseek, kv_cache_memory_bytes=MEM, settings=stated, block_size=16)


@pytest.mark.parametrize("call", [kw.vllm_kv_report, kw.vllm_report_from_tokens])
def test_a_misspelt_flag_is_a_type_error_naming_it_and_the_valid_ones(call):
    args = (
        (kw.load_model("llama-3-8b"),) if call is kw.vllm_kv_report else (kw.load_model("llama-3-8b"), 1000)
    )
    with pytest.raises(TypeError) as err:
        call(*args, max_model_length=8192, blok_size=32)
    message = str(err.value)
    assert f"{call.__name__}() got an unexpected keyword argument 'blok_size', 'max_model_length'" in message
    # every valid keyword is named: the caller's own and each VLLMSettings field
    own = ["settings", "kv_cache_memory_bytes"] if call is kw.vllm_kv_report else ["settings", "gpu"]
    for name in [*own, *(f.name for f in dataclasses.fields(VLLMSettings))]:
        assert name in message


def test_state_layers_of_an_unread_kind_get_no_checkpoint_page_and_a_note():
    # a layer that names its kind (here KDA) but not one whose checkpoint rule kvwidgets read:
    # "align" mode keeps 2 pages a request, no third, and the report says so
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class KDAState(RecurrentStateSpec):
        mamba_type: str = "kda"

    m = Model(
        "kda-hybrid",
        (LayerGroup(KDAState(2_170_880), 20), LayerGroup(MLASpec(512, 64), 7)),
        48_000_000_000,
    )
    L = 131_072
    r = report(m, "0.33", max_model_len=L, gpu="H200")
    assert r.mamba_cache_mode == "align" and r.blocks_per_request == cdiv(L, r.block_size) + 3 * 2
    assert "State layers of kind 'kda': counted without a prefill-checkpoint page" in r.explain()
