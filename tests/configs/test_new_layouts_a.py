"""LongCat-Flash, IQuest-LoopCoder, the DSA indexer frequency (GLM-5.2, DeepSeek-V3.2) and
MiniMax-M1's lightning state, each to the byte of vLLM 0.33.0's rule on the model's config.

The configs are in tests/configs/layouts/, each with a "_source" line saying where it comes
from (a verbatim copy, a third-party copy or a labelled reconstruction). The expected bytes
are written as arithmetic from the config's numbers; the rule each follows is cited beside
it and in kvwidgets/configs/families.py and dsa_indexer.py.
"""

import pytest

import kvwidgets as kw
from kvwidgets.core.errors import ConfigError, InputError
from kvwidgets.core.layers import MLASpec, RecurrentStateSpec, SlidingWindowSpec
from kvwidgets.core.placement import placement
from kvwidgets.core.sglang import sglang_kv_report
from kvwidgets.core.sglang_layout import Pool, model_layout
from kvwidgets.core.vllm import mtp_draft

from .layout_files import config, kinds

GIB_40 = 40 * 2**30  # the cache budget the engine tests below hand vLLM and SGLang


def vllm_tokens(model, kv_dtype="bf16"):
    r = kw.vllm_kv_report(
        model, "H100-SXM", max_model_len=32768, kv_cache_memory_bytes=GIB_40, kv_dtype=kv_dtype
    )
    return r.gpu_kv_cache_tokens


# ---- LongCat-Flash: two MLA attentions per decoder layer --------------------------------------
# vLLM 0.33.0 model_executor/models/longcat_flash.py, FlashDecoderLayer.__init__: self_attn is
# DeepseekV2MLAAttention(...) for i in range(2); FlashModel builds config.num_layers layers
# (transformers_utils/model_arch_config_convertor.py, LongCatFlashModelArchConfigConvertor).
def test_longcat_flash_keeps_two_mla_latents_in_each_of_its_28_layers():
    m = kw.load_model(config("longcat-flash-chat"))
    assert kinds(m) == {"mla": 2 * 28}
    # 2 attentions x 28 layers x (kv_lora_rank 512 + qk_rope_head_dim 64) x 2 B (bf16)
    assert m.kv_bytes_per_token() == 2 * 28 * (512 + 64) * 2 == 64_512
    # (the reading before this rule took 28 layers of one latent: 32,256 B, half the cache)
    assert m.kv_bytes_per_token("fp8") == 2 * 28 * (512 + 64) * 1


def test_longcat_without_model_type_is_named_by_its_architecture_as_vllm_does():
    # vLLM 0.33.0 transformers_utils/config.py, _ARCHITECTURE_TO_MODEL_TYPE: LongcatFlashForCausalLM
    # and LongcatFlashNgramForCausalLM checkpoints ship no model_type
    cfg = config("longcat-flash-chat")
    assert "model_type" not in cfg
    m = kw.load_model(cfg)
    assert (
        m.extra["model_type"] == "longcat_flash"
        and "_ARCHITECTURE_TO_MODEL_TYPE" in m.provenance["model_type"]
    )
    for named in ("longcat_flash", "longcat_flash_ngram"):
        assert kinds(kw.load_model(dict(cfg, model_type=named))) == {"mla": 56}
    ngram = dict(cfg, architectures=["LongcatFlashNgramForCausalLM"])
    assert kw.load_model(ngram).kv_bytes_per_token() == 64_512


def test_longcat_flash_vllm_pool_counts_all_56_latents():
    m = kw.load_model(config("longcat-flash-chat"))
    # one uniform group: a block of 16 tokens holds 56 latents of 1152 B each
    assert vllm_tokens(m) == GIB_40 // (16 * 56 * 1152) * 16 == 665_760
    # MLA is not split by tensor parallelism: every GPU keeps every latent
    r8 = kw.vllm_kv_report(m, "H100-SXM", max_model_len=32768, kv_cache_memory_bytes=GIB_40, num_gpus=8)
    assert r8.gpu_kv_cache_tokens == 665_760


def test_longcat_flash_sglang_pool_has_two_attention_layers_per_decoder_layer():
    # SGLang 0.5.23 configs/model_config.py: num_attention_layers = num_hidden_layers x 2 for
    # LongcatFlashForCausalLM, num_hidden_layers = num_layers (configs/longcat_flash.py)
    layout = model_layout(kw.load_model(config("longcat-flash-chat")), tp=1)
    assert layout.pools == (Pool("", 56, 512 + 64, 0),)


def test_longcat_flash_num_hidden_layers_must_restate_the_layer_count():
    # transformers' LongcatFlashConfig writes num_hidden_layers = 2 x num_layers, SGLang's = num_layers
    for restated in (56, 28):
        cfg = dict(config("longcat-flash-chat"), num_hidden_layers=restated)
        assert kinds(kw.load_model(cfg)) == {"mla": 56}
    with pytest.raises(ConfigError, match=r"num_hidden_layers 40 .* nor 2 x num_layers = 56"):
        kw.load_model(dict(config("longcat-flash-chat"), num_hidden_layers=40))


def test_longcat_flash_other_attention_method_is_refused_by_name():
    with pytest.raises(ConfigError, match="attention_method is 'LSA'"):
        kw.load_model(dict(config("longcat-flash-chat"), attention_method="LSA"))


def test_longcat_flash_pipeline_stages_hold_two_latents_per_layer():
    # vLLM 0.33.0 distributed/utils.py get_pp_indices: 28 layers over 2 stages, 14 each; FlashModel
    # puts the embedding on the first stage and LongcatFlashForCausalLM the LM head on the last
    m = kw.load_model(config("longcat-flash-chat"))
    p = placement(m, "H200", 32768, tp=8, pp=2)
    stages = {r.stage: (r.first_layer, r.layers, r.kv_bytes_per_token) for r in p.ranks}
    assert stages == {0: (0, 14, 14 * 2 * 1152), 1: (14, 14, 14 * 2 * 1152)}
    # the same model written as MHA no longer matches its per-layer list: not placed by it
    with pytest.raises(InputError, match="pipeline placement needs the order of its layers"):
        placement(m.as_mha(), "H200", 32768, tp=8, pp=2)


# ---- IQuest-LoopCoder: a full cache and a windowed one per later loop --------------------------
# vLLM 0.33.0 model_executor/models/iquest_loopcoder.py, LoopCoderAttention.__init__: one
# Attention per loop; loop 0 with the engine's cache_config (full), loops >= 1 with
# sliding_window=loop_window_size; head_dim = hidden_size // num_attention_heads.
def test_iquest_loop_coder_keeps_a_full_cache_and_a_64_token_window_per_layer():
    cfg = config("iquest-coder-v1-40b-loop-instruct")
    m = kw.load_model(cfg)
    assert kinds(m) == {"full": 80, "sliding": 80 * (2 - 1)}
    window = next(g.spec for g in m.groups if isinstance(g.spec, SlidingWindowSpec))
    assert (window.num_kv_heads, window.head_size, window.window) == (8, 5120 // 40, 64)
    per_layer_token = 8 * 128 * 2 * 2  # 8 KV heads x (K + V) 128 numbers x 2 B
    assert m.kv_bytes_per_token() == 80 * per_layer_token == 327_680
    t = 131_072
    assert m.kv_bytes(t) == 80 * per_layer_token * t + 80 * per_layer_token * 64 == 42_970_644_480
    # the reading before this rule ignored the loop caches: 20,971,520 B short at 131,072 tokens
    assert m.kv_bytes(t) - 80 * per_layer_token * t == 20_971_520
    # a short request fills both caches alike
    assert m.kv_bytes(32) == 2 * 80 * per_layer_token * 32


def test_iquest_more_loops_add_more_windows():
    m = kw.load_model(dict(config("iquest-coder-v1-40b-loop-instruct"), loop_num=3, loop_window_size=128))
    assert kinds(m) == {"full": 80, "sliding": 80 * 2}
    assert m.kv_bytes(1000) - m.kv_bytes_per_token() * 1000 == 2 * 80 * 8 * 128 * 2 * 2 * 128


def test_iquest_loop_fields_are_defaulted_as_vllm_does():
    cfg = config("iquest-coder-v1-40b-loop-instruct")
    del cfg["loop_num"], cfg["loop_window_size"]
    m = kw.load_model(cfg)  # getattr(config, "loop_num", 2), getattr(config, "loop_window_size", 64)
    assert kinds(m) == {"full": 80, "sliding": 80}


def test_iquest_head_dim_that_is_not_hidden_over_heads_is_refused():
    with pytest.raises(ConfigError, match=r"head_dim 96 .* hidden_size // num_attention_heads = 128"):
        kw.load_model(dict(config("iquest-coder-v1-40b-loop-instruct"), head_dim=96))


def test_loop_fields_under_another_model_type_are_refused_not_ignored():
    cfg = dict(config("iquest-coder-v1-40b-loop-instruct"), model_type="somebody_loops")
    with pytest.raises(ConfigError, match="loop_num"):
        kw.load_model(cfg)


def test_iquest_pipeline_parallel_is_refused_as_vllm_refuses_it():
    # IQuestLoopCoderForCausalLM does not implement SupportsPP; vLLM 0.33.0 config/model.py raises
    # "Pipeline parallelism is not supported for this model"
    m = kw.load_model(config("iquest-coder-v1-40b-loop-instruct"))
    with pytest.raises(InputError, match="does not implement SupportsPP"):
        placement(m, "H200", 32768, tp=8, pp=2)


def test_iquest_sglang_sizes_every_loop_as_a_full_layer_of_one_pool():
    # SGLang 0.5.23 configs/model_config.py: num_attention_layers = num_hidden_layers x loop_num for
    # IQuestLoopCoderForCausalLM, which is_hybrid_swa_model does not list
    m = kw.load_model(config("iquest-coder-v1-40b-loop-instruct"))
    assert model_layout(m, tp=1).pools == (Pool("", 80 * 2, 8 * 128, 8 * 128),)
    r = sglang_kv_report(m, "H100-SXM", context_length=32768, kv_cache_memory_bytes=GIB_40)
    assert r.max_total_num_tokens == GIB_40 // (160 * 8 * 128 * 2 * 2) == 65_536


# ---- DSA indexer frequency: GLM-5.2 and DeepSeek-V3.2 ------------------------------------------
# vLLM 0.33.0 models/deepseek_v32/attention.py, DeepseekV32Attention.__init__: a layer builds an
# indexer (and its k_cache) unless max(layer_id - index_skip_topk_offset + 1, 0) % index_topk_freq;
# the cache is index_head_dim FP8 keys + a float32 scale per 128: 128 + 128 // 128 x 4 = 132 B.
GLM_INDEXER_LAYERS = [i for i in range(78) if max(i - 3 + 1, 0) % 4 == 0]


def test_glm_5_2_keeps_the_indexer_cache_in_21_of_its_78_layers():
    assert GLM_INDEXER_LAYERS[:4] == [0, 1, 2, 6] and len(GLM_INDEXER_LAYERS) == 21
    m = kw.load_model(config("glm-5.2"))
    with_index = [g for g in m.groups if g.spec == MLASpec(512, 64, 132)]
    without = [g for g in m.groups if g.spec == MLASpec(512, 64, 0)]
    assert [g.count for g in with_index] == [21] and [g.count for g in without] == [78 - 21]
    # 78 latents of (512 + 64) x 2 B, plus 21 indexer keys of 132 B
    assert m.kv_bytes_per_token() == 78 * (512 + 64) * 2 + 21 * 132 == 92_628
    # the indexer keeps its FP8 format whatever the KV dtype
    assert m.kv_bytes_per_token("fp8") == 78 * (512 + 64) * 1 + 21 * 132


def test_glm_5_2_vllm_pool_sums_latents_and_the_21_indexer_caches():
    m = kw.load_model(config("glm-5.2"))
    assert vllm_tokens(m) == GIB_40 // (16 * 92_628) * 16 == 463_664


def test_glm_mtp_layer_always_keeps_an_indexer():
    # DeepseekV32Attention.__init__: "if not skip_topk or is_mtp_layer" builds the indexer
    draft = mtp_draft(kw.load_model(config("glm-5.2")))
    assert [(g.spec, g.count) for g in draft.groups] == [(MLASpec(512, 64, 132), 1)]
    # even when the first layers of the main model skip theirs
    cfg = dict(config("glm-5.2"), index_topk_pattern="SF" * 39)
    del cfg["indexer_types"]
    draft = mtp_draft(kw.load_model(cfg))
    assert [(g.spec, g.count) for g in draft.groups] == [(MLASpec(512, 64, 132), 1)]


# the fields a full GLM-5 config.json also carries, as a public transcription of a GLM-5.3
# release's file lists them (found with find_string '"index_share_for_mtp_iteration": true,')
GLM5_FULL_FILE_FIELDS = {
    "architectures": ["GlmMoeDsaForCausalLM"],
    "dtype": "bfloat16",
    "head_dim": 192,
    "index_share_for_mtp_iteration": True,
    "index_topk_pattern": None,
    "indexer_rope_interleave": True,
    "mlp_layer_types": ["dense"] * 3 + ["sparse"] * 75,
    "qk_head_dim": 256,
    "rope_interleave": True,
    "rope_parameters": {"rope_theta": 8000000, "rope_type": "default"},
}


def test_glm_full_file_fields_load_with_the_same_bytes():
    m = kw.load_model(dict(config("glm-5.2"), **GLM5_FULL_FILE_FIELDS))
    assert m.kv_bytes_per_token() == 78 * (512 + 64) * 2 + 21 * 132
    # qk_head_dim restates qk_nope_head_dim + qk_rope_head_dim = 192 + 64; a different one is refused
    with pytest.raises(
        ConfigError, match=r"qk_head_dim = 320 contradicts qk_nope_head_dim \+ qk_rope_head_dim"
    ):
        kw.load_model(dict(config("glm-5.2"), **dict(GLM5_FULL_FILE_FIELDS, qk_head_dim=320)))


def test_glm_indexer_types_must_agree_with_the_frequency_rule():
    cfg = config("glm-5.2")
    cfg["indexer_types"][5] = "full"  # the rule says layer 5 reuses layer 2's top-k
    with pytest.raises(
        ConfigError,
        match=r"indexer_types = .* contradicts index_topk_freq / index_topk_pattern: it makes layer 5 full, .* makes it shared",
    ):
        kw.load_model(cfg)


def test_glm_indexer_pattern_wins_over_the_frequency():
    cfg = dict(config("glm-5.2"), index_topk_pattern="FS" * 39)
    del cfg["indexer_types"]  # it restates the frequency rule, which the pattern replaces
    m = kw.load_model(cfg)
    assert m.kv_bytes_per_token() == 78 * (512 + 64) * 2 + 39 * 132


def test_glm_unknown_pattern_letter_is_refused_by_name():
    cfg = dict(config("glm-5.2"), index_topk_pattern="FX" * 39)
    del cfg["indexer_types"]
    with pytest.raises(ConfigError, match="index_topk_pattern must be a string of F"):
        kw.load_model(cfg)


def test_glm_mtp_share_flag_sizes_nothing_in_the_main_model():
    cfg = dict(config("glm-5.2"), index_share_for_mtp_iteration=True)
    assert kw.load_model(cfg).kv_bytes_per_token() == 92_628


def test_glm_pipeline_stages_hold_their_own_layers_indexers():
    # 78 layers over 2 stages, 39 each: layers 0, 1, 2, 6, ..., 38 keep an indexer on the first
    # (12), 42, ..., 74 on the second (9)
    first = [i for i in GLM_INDEXER_LAYERS if i < 39]
    assert len(first) == 12 and len(GLM_INDEXER_LAYERS) - len(first) == 9
    p = placement(kw.load_model(config("glm-5.2")), "H200", 32768, tp=8, pp=2)
    stages = {r.stage: (r.first_layer, r.layers, r.kv_bytes_per_token) for r in p.ranks}
    assert stages == {0: (0, 39, 39 * 1152 + 12 * 132), 1: (39, 39, 39 * 1152 + 9 * 132)}


def test_glm_on_b200_says_vllm_would_default_to_an_fp8_cache():
    # vLLM 0.33.0 model_executor/models/config.py, GlmMoeDsaForCausalLM.verify_and_update_config:
    # cache_dtype "auto" on an SM10x GPU becomes fp8_e4m3
    m = kw.load_model(config("glm-5.2"))
    args = dict(max_model_len=32768, kv_cache_memory_bytes=GIB_40)
    on_b200 = kw.vllm_kv_report(m, "B200", **args)
    assert any("fp8_e4m3" in n and "kv_dtype='fp8'" in n for n in on_b200.notes)
    assert not any("fp8_e4m3" in n for n in kw.vllm_kv_report(m, "H200", **args).notes)
    assert not any("fp8_e4m3" in n for n in kw.vllm_kv_report(m, "B200", kv_dtype="fp8", **args).notes)


def test_glm_sglang_refuses_the_indexer_by_name():
    with pytest.raises(InputError, match="sparse-attention indexer"):
        sglang_kv_report(
            kw.load_model(config("glm-5.2")), "H100-SXM", context_length=32768, kv_cache_memory_bytes=GIB_40
        )


def test_deepseek_v3_2_has_an_indexer_in_every_layer_by_default():
    # index_topk_freq defaults to 1: max(i - 2 + 1, 0) % 1 == 0 for every layer
    m = kw.load_model(config("deepseek-v3.2"))
    assert kinds(m) == {"mla": 61}
    assert m.kv_bytes_per_token() == 61 * ((512 + 64) * 2 + 132) == 78_324


def test_deepseek_v3_2_with_an_index_cache_override_drops_the_skipped_indexers():
    # --hf-overrides '{"index_topk_freq": 4}' with the default offset 2: layers 0, 1, 5, 9, ..., 57
    kept = [i for i in range(61) if max(i - 2 + 1, 0) % 4 == 0]
    assert kept[:3] == [0, 1, 5] and len(kept) == 16
    m = kw.load_model(dict(config("deepseek-v3.2"), index_topk_freq=4))
    assert m.kv_bytes_per_token() == 61 * (512 + 64) * 2 + 16 * 132 == 72_384


# ---- MiniMax-M1: the lightning state in the model dtype, as vLLM allocates it ------------------
# vLLM 0.22.0 (the last release that runs MiniMaxM1ForCausalLM) minimax_text_01.py,
# get_mamba_state_dtype_from_config, and 0.33.0 model_executor/layers/mamba/linear/base.py,
# LinearAttention.get_state_dtype: mamba_utils.py linear_attention_state_dtype ->
# get_kv_cache_torch_dtype(mamba_cache_dtype "auto", model dtype); shape (heads, head_dim, head_dim).
def test_minimax_m1_lightning_state_is_in_the_model_dtype_not_float32():
    m = kw.load_model(config("minimax-m1"))
    assert kinds(m) == {"recurrent": 70, "full": 10}
    state = next(g.spec for g in m.groups if isinstance(g.spec, RecurrentStateSpec))
    assert state.ssm_dtype == "bf16"  # no torch_dtype in the config: vLLM's "auto" is bf16
    assert state.ssm_bytes == 64 * 128 * 128 * 2 == 2_097_152  # half of MiniMax's own float32 state
    assert m.kv_bytes(1) == 10 * 8 * 128 * 2 * 2 + 70 * 2_097_152
    assert any("MiniMaxM1ForCausalLM" in n for n in m.engine_notes)


def test_minimax_with_a_float32_torch_dtype_still_keeps_a_bf16_state():
    # vLLM 0.33.0 vllm/config/model.py, _resolve_auto_dtype: --dtype auto runs a float32 model in bf16
    m = kw.load_model(dict(config("minimax-m1"), torch_dtype="float32"))
    state = next(g.spec for g in m.groups if isinstance(g.spec, RecurrentStateSpec))
    assert (state.ssm_dtype, state.ssm_bytes) == ("bf16", 64 * 128 * 128 * 2)


def test_minimax_state_follows_a_16_bit_torch_dtype_whatever_the_kv_dtype():
    m = kw.load_model(dict(config("minimax-m1"), torch_dtype="float16"))
    state = next(g.spec for g in m.groups if isinstance(g.spec, RecurrentStateSpec))
    assert (state.ssm_dtype, state.ssm_bytes) == ("fp16", 64 * 128 * 128 * 2)
    assert m.kv_bytes(0, "fp8") == m.kv_bytes(0, "bf16") == 70 * 64 * 128 * 128 * 2
