"""DeepSeek-V4's compressed caches and Whisper's cross-attention, to the byte, on verbatim configs.

The configs are in tests/configs/layouts/ (deepseek-v4-flash.json, whisper-large-v3-turbo.json),
each with a "_source" line. Every expected figure is written as arithmetic from the config's
fields and the engine rule it follows (vLLM 0.33.0), not read back from the code:

DeepSeek-V4 (vllm/models/deepseek_v4/):
  window latent   sparse_swa.py DeepseekV4SWACache.get_kv_cache_spec: SlidingWindowMLASpec of
                  sliding_window tokens, packed_bytes_per_token 584 (fp8_ds_mla: 448 B NoPE fp8
                  + 64 RoPE x 2 B + 8 B scales), num_kv_heads 1, max_tp_shards 1
  compressed      attention.py DeepseekV4MLAAttention.get_kv_cache_spec: MLAAttentionSpec,
                  tokens_per_state = compress_ratio, state_content_bytes 584
  indexer         attention.py DeepseekV4Indexer.__init__: index_head_dim + index_head_dim // 128
                  x 4 B per entry, ratio-4 layers only ("Only C4A uses sparse attention")
  compressor      compressor.py DeepseekCompressor.__init__ / CompressorStateCache: coff = 1 +
                  (ratio == 4), float32 state of 2 x coff x head_dim per token over coff x ratio
                  tokens (and the indexer's own compressor, index_head_dim wide, for ratio 4)
Whisper (vllm/model_executor/models/whisper.py): WhisperAttention (num_kv_heads = heads,
head_dim = d_model // heads), WhisperCrossAttention -> CrossAttentionSpec holding
max_source_positions encoder tokens per request (WhisperProcessingInfo.get_num_audio_tokens).
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import kvwidgets as kw
import kvwidgets.widgets
from kvwidgets.core.errors import ConfigError, InputError
from kvwidgets.core.layers import CompressedMLASpec, CrossAttentionSpec, FullAttentionSpec
from kvwidgets.core.sglang_layout import model_layout
from kvwidgets.core.vllm_specs import layer_cache_specs

from .layout_files import config

CALC = Path(kvwidgets.widgets.__file__).parent / "js" / "calc" / "index.js"
TOKENS = [1, 3, 4, 7, 8, 9, 127, 128, 129, 1000, 131_072, 1_048_576]


# ---- DeepSeek-V4-Flash -----------------------------------------------------------------------
WINDOW = 128  # sliding_window
ENTRY = 448 + 64 * 2 + 8  # fp8_ds_mla: NoPE (head_dim 512 - rope 64) fp8 + RoPE bf16 + scales
INDEX = 128 + 128 // 128 * 4  # index_head_dim fp8 + a float32 scale per 128
STATE4 = 4 * 2 * 2 * 512 + 4 * 2 * 2 * 128  # float32, coff 2: main compressor + indexer's
STATE128 = 4 * 2 * 1 * 512  # float32, coff 1
# compress_ratios[:43]: 0, 0, then 4 and 128 alternating from layer 2 to layer 42
SWA_ONLY, C4, C128 = 2, 21, 20


@pytest.fixture(scope="module")
def dsv4():
    return kw.load_model(config("deepseek-v4-flash"))


def held(t):
    """Bytes one sequence of t tokens holds, layer by layer as the rules above say."""
    window = min(t, WINDOW) * ENTRY
    c4 = window + t // 4 * (ENTRY + INDEX) + min(t, 2 * 4) * STATE4
    c128 = window + t // 128 * ENTRY + min(t, 1 * 128) * STATE128
    return SWA_ONLY * window + C4 * c4 + C128 * c128


def test_deepseek_v4_layers_are_read_from_compress_ratios(dsv4):
    assert ENTRY == 584 and INDEX == 132 and STATE4 == 10_240 and STATE128 == 4_096
    groups = {g.spec.ratio: (g.spec, g.count) for g in dsv4.groups}
    assert {r: c for r, (_, c) in groups.items()} == {1: SWA_ONLY, 4: C4, 128: C128}
    assert groups[1][0] == CompressedMLASpec(WINDOW, 1, ENTRY)
    assert groups[4][0] == CompressedMLASpec(WINDOW, 4, ENTRY, INDEX, 8, STATE4)
    assert groups[128][0] == CompressedMLASpec(WINDOW, 128, ENTRY, 0, 128, STATE128)
    assert dsv4.num_layers == 43 and dsv4.max_context == 1_048_576
    # the 44th entry is the MTP draft layer's, not a 44th layer
    assert "MTP" in dsv4.provenance["compress_ratios"]
    # the KV dtype a reader picks does not change the packed formats, and the model says so
    assert any("does not change them" in n for n in dsv4.engine_notes)


def test_deepseek_v4_bytes_per_token_is_the_compressed_growth(dsv4):
    # once past every window each token adds (584 + 132) / 4 B in a ratio-4 layer and 584 / 128 B
    # in a ratio-128 layer: 21 x 179 + 20 x 4.5625 = 3,850.25 B, rounded up once
    assert C4 * (ENTRY + INDEX) / 4 + C128 * ENTRY / 128 == 3_850.25
    for kv_dtype in ("bf16", "fp8"):  # the packed formats do not follow the KV dtype
        assert dsv4.kv_bytes_per_token(kv_dtype) == 3_851
        assert dsv4.kv_bytes_per_token(kv_dtype, tp=8) == 3_851  # max_tp_shards=1: whole on every GPU
    # the window latents and the compressor state are bounded parts of each sequence, not a
    # per-token cost: no second "while the window fills" figure
    assert dsv4.kv_bytes_per_token_within_windows() == 3_851


@pytest.mark.parametrize("t", TOKENS)
def test_deepseek_v4_bytes_held_to_the_byte(dsv4, t):
    assert dsv4.kv_bytes(t) == dsv4.kv_bytes(t, "fp8") == held(t)


def test_deepseek_v4_figures_a_reader_can_check(dsv4):
    # 1,000 tokens: 2 x 74,752 + 21 x (74,752 + 250 x 716 + 8 x 10,240) + 20 x (74,752 + 7 x 584 + 128 x 4,096)
    assert dsv4.kv_bytes(1000) == 2 * 74_752 + 21 * (74_752 + 250 * 716 + 81_920) + 20 * (
        74_752 + 7 * 584 + 524_288
    )
    assert dsv4.kv_bytes(1000) == 19_261_176
    # at 1M tokens the compressed cache is about 1/6.5 of one 584 B latent per token per layer
    full = 43 * ENTRY * 1_048_576
    assert dsv4.kv_bytes(1_048_576) == 4_052_700_160 and round(full / 4_052_700_160, 1) == 6.5


def test_deepseek_v4_users_that_fit_still_answers(dsv4):
    fit = kw.users_that_fit(dsv4, "H200", 131_072, num_gpus=8, weight_dtype="fp8")
    # every GPU keeps the whole cache of a conversation (max_tp_shards=1)
    assert fit.kv_per_user_bytes == 8 * held(131_072)
    budget = kw.memory_budget(dsv4, "H200", num_gpus=8, weight_dtype="fp8").per_gpu_kv_budget
    assert fit.users == int(budget // held(131_072)) > 0


def test_deepseek_v4_engine_paging_is_refused_by_name(dsv4):
    with pytest.raises(InputError, match="DeepSeek-V4's compressed layers"):
        layer_cache_specs(dsv4, kv_dtype="fp8", tp=8, block_size=256)
    with pytest.raises(InputError, match="DeepSeek-V4's compressed layers"):
        kw.vllm_kv_report(dsv4, "H200", num_gpus=8)
    with pytest.raises(InputError, match="DeepSeek-V4's compressed layers"):
        model_layout(dsv4, tp=8)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"compress_ratios": [0, 0, 2] + [4] * 41}, "compress_ratios"),
        ({"compress_ratios": [0, 4]}, "compress_ratios"),
        ({"head_dim": 256}, "head_dim"),
        ({"compress_rates": {"compressed_sparse_attention": 4}}, "compress_rates"),
    ],
)
def test_deepseek_v4_refusals_name_the_field(change, field):
    cfg = config("deepseek-v4-flash")
    cfg.update(change)
    with pytest.raises(ConfigError, match=field):
        kw.load_model(cfg)


# ---- Whisper large-v3-turbo ---------------------------------------------------------------------
DECODER, HEADS, D_MODEL, AUDIO = 4, 20, 1280, 1500  # decoder_layers, decoder_attention_heads, ...
HEAD = D_MODEL // HEADS


@pytest.fixture(scope="module")
def whisper():
    return kw.load_model(config("whisper-large-v3-turbo"))


def test_whisper_decoder_self_and_cross_attention(whisper):
    assert HEAD == 64
    specs = {type(g.spec): (g.spec, g.count) for g in whisper.groups}
    assert specs[FullAttentionSpec] == (FullAttentionSpec(HEADS, HEAD), DECODER)
    assert specs[CrossAttentionSpec] == (CrossAttentionSpec(HEADS, HEAD, encoder_tokens=AUDIO), DECODER)
    # num_hidden_layers (32) is the encoder's count and sizes no cache
    assert whisper.max_context == 448  # max_target_positions


def test_whisper_bytes_to_the_byte(whisper):
    per_token = DECODER * 2 * HEADS * HEAD * 2  # K and V, bf16
    cross = DECODER * AUDIO * 2 * HEADS * HEAD * 2  # fixed per request, whatever the text
    assert whisper.kv_bytes_per_token() == per_token == 20_480
    assert whisper.kv_bytes_per_token("fp8") == per_token // 2
    assert whisper.kv_bytes(448) == 448 * per_token + cross == 39_895_040
    assert whisper.kv_bytes(1) == per_token + cross == 30_740_480


def test_whisper_parameters_count_the_encoder(whisper):
    # transformers modeling_whisper.py: attention 4 h^2 + 3 h (no k bias), MLP 2 h f + f + h,
    # LayerNorms 2 h; encoder convs (kernel 3) and positions; proj_out tied
    h, f = D_MODEL, 5120
    attn, mlp = 4 * h * h + 3 * h, 2 * h * f + f + h
    encoder = 32 * (attn + 4 * h + mlp) + (128 * h * 3 + h) + (h * h * 3 + h) + 1500 * h + 2 * h
    decoder = DECODER * (2 * attn + 6 * h + mlp) + 51_866 * h + 448 * h + 2 * h
    assert whisper.params == encoder + decoder == 808_878_080


def test_whisper_layer_counts_that_disagree_are_refused():
    cfg = config("whisper-large-v3-turbo")
    cfg["num_hidden_layers"] = 4
    with pytest.raises(ConfigError, match="num_hidden_layers=4 and encoder_layers=32"):
        kw.load_model(cfg)


# ---- the browser's twin (kvwidgets/widgets/js/calc) ------------------------------------------
def browser_bytes(model, bits):
    """kvBytes at every TOKENS and kvBytesPerToken, as the widgets' JavaScript computes them
    from the model's shape (Model.shape, what a widget ships)."""
    node = shutil.which("node")
    assert node, "Node.js is needed to run the widgets' JavaScript (scripts/test.sh installs it)"
    script = f"""
      const kv = await import({json.dumps(CALC.as_uri())});
      const shape = {json.dumps(model.shape())};
      const held = {json.dumps(TOKENS)}.map((t) => kv.kvBytes(shape, t, {bits}).toString());
      console.log(JSON.stringify({{ held, per_token: kv.kvBytesPerToken(shape, {bits}).toString() }}));
    """
    out = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize(
    ("name", "kv_dtype", "bits"), [("deepseek-v4-flash", "fp8", 8), ("whisper-large-v3-turbo", "bf16", 16)]
)
def test_the_browser_gives_the_same_bytes(name, kv_dtype, bits):
    model = kw.load_model(config(name))
    got = browser_bytes(model, bits)
    assert got["held"] == [str(model.kv_bytes(t, kv_dtype)) for t in TOKENS]
    assert got["per_token"] == str(model.kv_bytes_per_token(kv_dtype))
    if name == "deepseek-v4-flash":
        assert got["held"][TOKENS.index(1000)] == "19261176" and got["per_token"] == "3851"
