"""Corpus models checked to the byte by hand against vLLM 0.33.0's own sizing rules.

Each expected number is written out from the numbers in the model's verbatim config.json
(tests/configs/corpus/<folder>/config.json) with the engine's rule, cited by file and
function of the vllm==0.33.0 wheel:

ATTN  vllm/v1/kv_cache_interface.py AttentionSpec.page_size_bytes: a page of block_size
      tokens holds num_kv_heads * (head_size + head_size_v) * dtype size per token, K and V
      (head_size_v = head_size unless the model passes a separate V size); FullAttentionSpec,
      SlidingWindowSpec and ChunkedLocalAttentionSpec all use it. head_size comes from
      vllm/transformers_utils/model_arch_config_convertor.py get_head_size: head_dim when the
      config has it, else hidden_size // num_attention_heads.
MLA   the same file, MLAAttentionSpec (head_size_v = 0, one latent per token, num_kv_heads 1):
      head_size = kv_lora_rank + qk_rope_head_dim (get_head_size, MLA branch).
DSA   vllm/model_executor/models/deepseek_v2.py Indexer.__init__: each layer also keeps a
      DeepseekV32IndexerCache of index_head_dim fp8 bytes + index_head_dim // 128 fp32 scales
      (4 bytes each) per token, in uint8.
SSM   the same file, MambaSpec.page_size_bytes: sum of prod(shape) * dtype size of each state,
      once per sequence; shapes from vllm/model_executor/layers/mamba/mamba_utils.py
      MambaStateShapeCalculator.mamba2_state_shape (conv (conv_kernel - 1) x (intermediate +
      2 * n_groups * ssm_state_size) in the model dtype, ssm heads x head_dim x state in
      mamba_ssm_cache_dtype) and kda_state_shape (conv (kernel - 1) x 3 * heads * head_dim in
      the model dtype, recurrent heads x head_dim x head_dim in float32, kda_state_dtype).

BF16 is 2 bytes (torch.bfloat16), FP32 4. Bytes per token are counted while every window
still grows (kv_bytes_per_token_within_windows), so sliding and chunked layers count.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kvwidgets.configs import load_model

CORPUS = Path(__file__).resolve().parent / "corpus"
BF16 = 2
FP32 = 4


@dataclass(frozen=True)
class HandCheck:
    folder: str
    per_token: int  # bytes per token in bf16, by hand
    rule: str  # which engine rule (see the module docstring) and model file
    layers: dict[str, int] = field(default_factory=dict)  # layer count by kind
    per_token_by_kind: dict[str, int] = field(default_factory=dict)
    state_per_sequence: int | None = None  # recurrent state bytes, once per sequence


def gqa(folder: str, layers: int, kv_heads: int, head_size: int, note: str = "") -> HandCheck:
    """A dense GQA/MHA model: every layer one full-attention cache (ATTN)."""
    return HandCheck(
        folder, layers * kv_heads * (head_size + head_size) * BF16, "ATTN " + note, {"full": layers}
    )


HAND_CHECKS = [
    # ---- dense GQA, head_dim from the config ----
    gqa("Qwen--Qwen3-0.6B", 28, 8, 128, "models/qwen3.py"),
    gqa("Qwen--Qwen3-1.7B", 28, 8, 128, "models/qwen3.py"),
    gqa("Qwen--Qwen3-8B", 36, 8, 128, "models/qwen3.py"),
    gqa("Qwen--Qwen3-32B", 64, 8, 128, "models/qwen3.py"),
    gqa("Qwen--Qwen3-30B-A3B", 48, 4, 128, "models/qwen3_moe.py"),
    gqa("Qwen--Qwen3-235B-A22B", 94, 4, 128, "models/qwen3_moe.py"),
    gqa("Qwen--Qwen3-Coder-480B-A35B-Instruct", 62, 8, 128, "models/qwen3_moe.py"),
    gqa("MiniMaxAI--MiniMax-M2.5", 62, 8, 128, "models/minimax_m2.py"),
    gqa("MiniMaxAI--MiniMax-M2.7", 62, 8, 128, "models/minimax_m2.py"),
    gqa("MiniMaxAI--MiniMax-M3", 60, 4, 128, "models/minimax_m2.py"),
    gqa("XiaomiMiMo--MiMo-7B-Base", 36, 8, 128, "models/mimo.py"),
    # GLM-4.5: 92 layers; its MTP layer (num_nextn_predict_layers) is a separate draft model
    gqa("zai-org--GLM-4.5", 92, 8, 128, "models/glm4_moe.py"),
    # ---- multimodal wrappers: the text_config's numbers ----
    gqa("Qwen--Qwen3-VL-2B-Instruct", 28, 8, 128, "models/qwen3_vl.py (text_config)"),
    gqa("Qwen--Qwen3-VL-4B-Instruct", 36, 8, 128, "models/qwen3_vl.py (text_config)"),
    gqa("Qwen--Qwen3-VL-8B-Instruct", 36, 8, 128, "models/qwen3_vl.py (text_config)"),
    gqa("Qwen--Qwen3-VL-32B-Instruct", 64, 8, 128, "models/qwen3_vl.py (text_config)"),
    gqa("Qwen--Qwen3-VL-32B-Thinking", 64, 8, 128, "models/qwen3_vl.py (text_config)"),
    gqa("Qwen--Qwen3-VL-30B-A3B-Instruct", 48, 4, 128, "models/qwen3_vl_moe.py (text_config)"),
    gqa("Qwen--Qwen3-VL-235B-A22B-Instruct", 94, 4, 128, "models/qwen3_vl_moe.py (text_config)"),
    # ---- dense GQA, head size = hidden_size // num_attention_heads ----
    gqa("meta-llama--Meta-Llama-3.1-8B", 32, 8, 4096 // 32, "models/llama.py"),
    gqa("meta-llama--Meta-Llama-3.1-70B", 80, 8, 8192 // 64, "models/llama.py"),
    gqa("meta-llama--Meta-Llama-3.1-405B", 126, 8, 16384 // 128, "models/llama.py"),
    gqa("mistralai--Mixtral-8x7B-v0.1", 32, 8, 4096 // 32, "models/mixtral.py"),
    gqa("mistralai--Mixtral-8x22B-v0.1", 56, 8, 6144 // 48, "models/mixtral.py"),
    # Qwen2.5: sliding_window is set but use_sliding_window is false, so every layer is full:
    # transformers' Qwen2Config keeps sliding_window only when use_sliding_window is on, and
    # vLLM's Attention.__init__ (model_executor/layers/attention/attention.py) takes the
    # model-level window from ModelConfig.get_sliding_window (config/model.py), that field.
    gqa("Qwen--Qwen2.5-1.5B", 28, 2, 1536 // 12, "models/qwen2.py"),
    gqa("Qwen--Qwen2.5-7B", 28, 4, 3584 // 28, "models/qwen2.py"),
    gqa("Qwen--Qwen2.5-32B", 64, 8, 5120 // 40, "models/qwen2.py"),
    gqa("Qwen--Qwen2.5-72B", 80, 8, 8192 // 64, "models/qwen2.py"),
    # ---- MHA: as many KV heads as query heads (torch_dtype float16, 2 bytes as bf16) ----
    gqa("meta-llama--Llama-2-13b-hf", 40, 40, 5120 // 40, "models/llama.py"),
    # Nemotron-Super 49B (NAS): 49 of the 80 block_configs keep attention (no_op false,
    # n_heads_in_group 8, so 64 // 8 KV heads); models/nemotron_nas.py skips the no_op ones.
    gqa("nvidia--Llama-3_3-Nemotron-Super-49B-v1", 49, 64 // 8, 8192 // 64, "models/nemotron_nas.py"),
    # ---- MLA: kv_lora_rank + qk_rope_head_dim per layer ----
    HandCheck("deepseek-ai--DeepSeek-V3", 61 * (512 + 64) * BF16, "MLA models/deepseek_v2.py", {"mla": 61}),
    HandCheck("deepseek-ai--DeepSeek-R1", 61 * (512 + 64) * BF16, "MLA models/deepseek_v2.py", {"mla": 61}),
    HandCheck(
        "nvidia--DeepSeek-V3.1-NVFP4", 61 * (512 + 64) * BF16, "MLA models/deepseek_v2.py", {"mla": 61}
    ),
    HandCheck(
        "moonshotai--Kimi-K2-Instruct", 61 * (512 + 64) * BF16, "MLA models/deepseek_v2.py", {"mla": 61}
    ),
    HandCheck("moonshotai--Kimi-K2.5", 61 * (512 + 64) * BF16, "MLA models/kimi_k25.py", {"mla": 61}),
    HandCheck("nvidia--Kimi-K2.6-NVFP4", 61 * (512 + 64) * BF16, "MLA models/kimi_k25.py", {"mla": 61}),
    HandCheck("nvidia--Kimi-K2.7-Code-NVFP4", 61 * (512 + 64) * BF16, "MLA models/kimi_k25.py", {"mla": 61}),
    # ---- MLA with the DSA indexer (DeepSeek-V3.2) ----
    HandCheck(
        "deepseek-ai--DeepSeek-V3.2",
        61 * ((512 + 64) * BF16 + (128 + 128 // 128 * 4)),
        "MLA + DSA models/deepseek_v2.py",
        {"mla": 61},
    ),
    # ---- sliding window + full (layer_types) ----
    HandCheck(
        "openai--gpt-oss-120b",
        36 * 8 * (64 + 64) * BF16,
        "ATTN models/gpt_oss.py (sliding on even layers)",
        {"sliding": 18, "full": 18},
        {"sliding": 18 * 8 * 128 * BF16, "full": 18 * 8 * 128 * BF16},
    ),
    HandCheck(
        "openai--gpt-oss-20b",
        24 * 8 * (64 + 64) * BF16,
        "ATTN models/gpt_oss.py (sliding on even layers)",
        {"sliding": 12, "full": 12},
        {"sliding": 12 * 8 * 128 * BF16, "full": 12 * 8 * 128 * BF16},
    ),
    HandCheck(
        "stepfun-ai--Step-3.7-Flash",
        45 * 8 * (128 + 128) * BF16,
        "ATTN models/step3p7.py (layer_types)",
        {"sliding": 33, "full": 12},
        {"sliding": 33 * 8 * 256 * BF16, "full": 12 * 8 * 256 * BF16},
    ),
    # MiMo-V2-Flash: head_dim 192 for K, v_head_dim 128 for V (head_size_v); full layers
    # 4 KV heads, sliding ones swa_num_key_value_heads 8 (hybrid_layer_pattern: 9 x 0, 39 x 1).
    HandCheck(
        "XiaomiMiMo--MiMo-V2-Flash",
        9 * 4 * (192 + 128) * BF16 + 39 * 8 * (192 + 128) * BF16,
        "ATTN models/mimo_v2.py MiMoV2Attention (head_size_v=v_head_dim)",
        {"full": 9, "sliding": 39},
        {"full": 9 * 4 * 320 * BF16, "sliding": 39 * 8 * 320 * BF16},
    ),
    # Gemma 4: sliding layers head_dim 256 with num_key_value_heads, full layers
    # global_head_dim 512 with num_global_key_value_heads (K weights fill both K and V).
    HandCheck(
        "google--gemma-4-26B-A4B",
        25 * 8 * (256 + 256) * BF16 + 5 * 2 * (512 + 512) * BF16,
        "ATTN models/gemma4.py Gemma4DecoderLayer (per-layer head_dim / KV heads)",
        {"sliding": 25, "full": 5},
        {"sliding": 25 * 8 * 512 * BF16, "full": 5 * 2 * 1024 * BF16},
    ),
    HandCheck(
        "nvidia--Gemma-4-31B-IT-NVFP4",
        50 * 16 * (256 + 256) * BF16 + 10 * 4 * (512 + 512) * BF16,
        "ATTN models/gemma4.py Gemma4DecoderLayer (per-layer head_dim / KV heads)",
        {"sliding": 50, "full": 10},
        {"sliding": 50 * 16 * 512 * BF16, "full": 10 * 4 * 1024 * BF16},
    ),
    # ---- chunked local attention: Llama 4 (no_rope_layers default: every 4th layer full) ----
    HandCheck(
        "meta-llama--Llama-4-Scout-17B-16E-Instruct",
        48 * 8 * (128 + 128) * BF16,
        "ATTN models/llama4.py Llama4Attention (ChunkedLocalAttention unless nope)",
        {"chunked": 36, "full": 12},
        {"chunked": 36 * 8 * 256 * BF16, "full": 12 * 8 * 256 * BF16},
    ),
    HandCheck(
        "meta-llama--Llama-4-Maverick-17B-128E-Instruct",
        48 * 8 * (128 + 128) * BF16,
        "ATTN models/llama4.py Llama4Attention (ChunkedLocalAttention unless nope)",
        {"chunked": 36, "full": 12},
        {"chunked": 36 * 8 * 256 * BF16, "full": 12 * 8 * 256 * BF16},
    ),
    # ---- hybrid Mamba-2 + attention: Nemotron 3 (hybrid_override_pattern / layers_block_type) ----
    # intermediate = mamba_num_heads * mamba_head_dim (models/nemotron_h.py
    # get_mamba_state_shape_from_config); conv (4 - 1) x (intermediate + 2 * 8 * 128) bf16,
    # ssm heads x 64 x 128 fp32.
    HandCheck(
        "nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
        6 * 2 * (128 + 128) * BF16,
        "ATTN + SSM models/nemotron_h.py",
        {"recurrent": 23, "full": 6},
        state_per_sequence=23 * ((4 - 1) * (64 * 64 + 2 * 8 * 128) * BF16 + 64 * 64 * 128 * FP32),
    ),
    HandCheck(
        "nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4",
        6 * 2 * (128 + 128) * BF16,
        "ATTN + SSM models/nemotron_h.py",
        {"recurrent": 23, "full": 6},
        state_per_sequence=23 * ((4 - 1) * (64 * 64 + 2 * 8 * 128) * BF16 + 64 * 64 * 128 * FP32),
    ),
    HandCheck(
        "nvidia--NVIDIA-Nemotron-3-Super-120B-A12B-FP8",
        8 * 2 * (128 + 128) * BF16,
        "ATTN + SSM models/nemotron_h.py",
        {"recurrent": 40, "full": 8},
        state_per_sequence=40 * ((4 - 1) * (128 * 64 + 2 * 8 * 128) * BF16 + 128 * 64 * 128 * FP32),
    ),
    # ---- linear attention (KDA) + MLA: Kimi K3 (linear_attn_config: 69 kda_layers,
    # 24 full_attn_layers, 96 heads of 128, short_conv_kernel_size 4) ----
    HandCheck(
        "moonshotai--Kimi-K3",
        24 * (512 + 64) * BF16,
        "MLA + SSM (kda_state_shape, kda_state_dtype)",
        {"recurrent": 69, "mla": 24},
        state_per_sequence=69 * ((4 - 1) * (96 * 128 + 2 * 96 * 128) * BF16 + 96 * 128 * 128 * FP32),
    ),
    # ---- configs that restate a field or give a count another way ----
    # Qwen3.5: full_attention_interval 4 restates layer_types (16 full, 48 Gated DeltaNet)
    HandCheck(
        "Qwen--Qwen3.5-27B",
        16 * 4 * (256 + 256) * BF16,
        "ATTN models/qwen3_5.py (full attention every 4th layer)",
        {"full": 16, "recurrent": 48},
    ),
    # Nemotron-3-Ultra: num_hidden_layers null, the layers are layers_block_type's entries
    HandCheck(
        "nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16",
        12 * 2 * (128 + 128) * BF16,
        "ATTN models/nemotron_h.py (NemotronHModel: one layer per pattern entry)",
        {"full": 12, "recurrent": 48},
    ),
    # Nemotron-H-56B: attention_head_dim 128 restates hidden_size / heads = 8192 / 64
    HandCheck(
        "nvidia--Nemotron-H-56B-Base-8K",
        10 * 8 * (8192 // 64 + 8192 // 64) * BF16,
        "ATTN models/nemotron_h.py",
        {"full": 10, "recurrent": 54},
    ),
    # GLM-5.2: the DSA indexer only where deepseek_v2.py DeepseekV2MLAAttention.__init__
    # does not skip it: max(layer - index_skip_topk_offset + 1, 0) % index_topk_freq == 0
    HandCheck(
        "zai-org--GLM-5.2",
        78 * (512 + 64) * BF16
        + sum(1 for layer in range(78) if max(layer - 3 + 1, 0) % 4 == 0) * (128 + 128 // 128 * 4),
        "MLA + DSA models/deepseek_v2.py (index_topk_freq 4, index_skip_topk_offset 3)",
        {"mla": 78},
    ),
    # DeepSeek-OCR-2: MLA widths all 0, so DeepseekAttention at hidden_size / heads
    HandCheck(
        "deepseek-ai--DeepSeek-OCR-2",
        12 * 10 * (1280 // 10 + 1280 // 10) * BF16,
        "ATTN models/deepseek_v2.py (DeepseekV2DecoderLayer: use_mha)",
        {"full": 12},
    ),
    # Hunyuan-A13B: attention_head_dim 128 restates hidden_size / heads = 4096 / 32
    gqa("tencent--Hunyuan-A13B-Instruct", 32, 8, 4096 // 32, "registry.py: the Transformers backend"),
    # SmolLM3: max_window_layers beside layer_types, every layer full (use_sliding_window false)
    gqa("HuggingFaceTB--SmolLM3-3B", 36, 4, 2048 // 16, "registry.py: the Transformers backend"),
    # Gemma 3 1B: sliding_window_pattern 6, five sliding layers then one full (22 + 4)
    HandCheck(
        "google--gemma-3-1b-it",
        26 * 1 * (256 + 256) * BF16,
        "ATTN models/gemma3.py (sliding_window_pattern 6)",
        {"sliding": 26 - 26 // 6, "full": 26 // 6},
    ),
    # Gemma 2 2B: every other layer slides (Gemma2Config's default pattern)
    HandCheck(
        "google--gemma-2-2b-it",
        26 * 4 * (256 + 256) * BF16,
        "ATTN models/gemma2.py (sliding on even layers)",
        {"sliding": 13, "full": 13},
    ),
    # BLOOM: n_embed 14336 over n_head 112
    HandCheck(
        "bigscience--bloom", 70 * 112 * (14336 // 112 * 2) * BF16, "ATTN models/bloom.py", {"full": 70}
    ),
    # Whisper small: decoder self-attention grows with the text; the cross-attention
    # layers hold 1,500 encoder tokens whatever the context (CrossAttentionSpec)
    HandCheck(
        "NbAiLab--nb-whisper-small-beta",
        12 * 12 * (64 + 64) * BF16,
        "ATTN models/whisper.py (decoder self-attention)",
        {"full": 12, "cross": 12},
    ),
]


# One sequence's whole cache at CONTEXT tokens, where every layer grows without a cap:
# FullAttentionSpec.max_memory_usage_bytes = cdiv(max_model_len, block_size) * page_size_bytes
# (vllm/v1/kv_cache_interface.py), which is CONTEXT * bytes per token when CONTEXT is a
# multiple of the block size (16), plus MambaSpec.page_size_bytes once per recurrent layer.
CONTEXT = 32_768
SEQUENCE_CHECKS = {
    "Qwen--Qwen3-8B": CONTEXT * 36 * 8 * (128 + 128) * BF16,
    "deepseek-ai--DeepSeek-V3": CONTEXT * 61 * (512 + 64) * BF16,
    "nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16": CONTEXT * 6 * 2 * (128 + 128) * BF16
    + 23 * ((4 - 1) * (64 * 64 + 2 * 8 * 128) * BF16 + 64 * 64 * 128 * FP32),
}


def test_at_least_45_hand_checks_each_of_one_model():
    assert len({c.folder for c in HAND_CHECKS}) == len(HAND_CHECKS)
    assert len(HAND_CHECKS) + len(SEQUENCE_CHECKS) >= 45


@pytest.mark.parametrize("folder", SEQUENCE_CHECKS)
def test_one_sequence_at_the_context_matches_the_hand_count(folder):
    model = load_model(CORPUS / folder / "config.json")
    assert model.kv_bytes(CONTEXT, "bf16") == SEQUENCE_CHECKS[folder]


@pytest.mark.parametrize("check", HAND_CHECKS, ids=lambda c: c.folder)
def test_bytes_per_token_match_the_hand_count(check):
    model = load_model(CORPUS / check.folder / "config.json")
    assert model.kv_bytes_per_token_within_windows("bf16") == check.per_token, check.rule
    for kind, count in check.layers.items():
        assert model.count(kind) == count, f"{kind} layers"
    assert model.num_layers == sum(check.layers.values())
    if check.per_token_by_kind:
        assert model.kv_bytes_per_token_by_kind("bf16") == check.per_token_by_kind
    if check.state_per_sequence is not None:
        assert model.bytes_by_kind(1, "bf16")["recurrent"] == check.state_per_sequence


def _config(folder: str) -> dict:
    config = json.loads((CORPUS / folder / "config.json").read_bytes())
    return config.get("text_config") or config


@pytest.mark.parametrize(
    "folder, layer_field, counts",
    [
        ("openai--gpt-oss-120b", "layer_types", {"sliding_attention": 18, "full_attention": 18}),
        ("stepfun-ai--Step-3.7-Flash", "layer_types", {"sliding_attention": 33, "full_attention": 12}),
        ("google--gemma-4-26B-A4B", "layer_types", {"sliding_attention": 25, "full_attention": 5}),
        ("XiaomiMiMo--MiMo-V2-Flash", "hybrid_layer_pattern", {1: 39, 0: 9}),
    ],
)
def test_hand_counted_layer_kinds_are_the_configs(folder, layer_field, counts):
    # The layer counts written above by hand, read back from the config they came from.
    values = _config(folder)[layer_field]
    assert {k: values.count(k) for k in counts} == counts and len(values) == sum(counts.values())


def test_hand_counted_mamba_and_attention_layers_are_the_configs():
    nano = _config("nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16")["hybrid_override_pattern"]
    assert (nano.count("M"), nano.count("*")) == (23, 6)
    lightning = _config("nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4")["layers_block_type"]
    assert (lightning.count("mamba"), lightning.count("attention")) == (23, 6)
    ultra = _config("nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16")["layers_block_type"]
    assert (ultra.count("mamba"), ultra.count("attention")) == (48, 12)
    h56 = _config("nvidia--Nemotron-H-56B-Base-8K")["hybrid_override_pattern"]
    assert (h56.count("M"), h56.count("*")) == (54, 10)
    qwen35 = _config("Qwen--Qwen3.5-27B")["layer_types"]
    assert (qwen35.count("linear_attention"), qwen35.count("full_attention")) == (48, 16)
    kimi = _config("moonshotai--Kimi-K3")["linear_attn_config"]
    assert (len(kimi["kda_layers"]), len(kimi["full_attn_layers"])) == (69, 24)
    nas = _config("nvidia--Llama-3_3-Nemotron-Super-49B-v1")["block_configs"]
    kept = [b["attention"] for b in nas if not b["attention"].get("no_op")]
    assert len(kept) == 49 and {a["n_heads_in_group"] for a in kept} == {8}
