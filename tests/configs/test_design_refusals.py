"""Designs whose cache kvwidgets cannot size are refused naming the field that says so, and
the older spellings of the size fields are read, on verbatim configs of the corpus."""

from __future__ import annotations

import pytest

from kvwidgets.configs import load_model
from kvwidgets.core.errors import ConfigError

from .test_corpus import CORPUS


def corpus_model(folder: str):
    return load_model(CORPUS / folder / "config.json")


@pytest.mark.parametrize(
    ("folder", "field"),
    [
        # encoder-only: no KV cache at all
        ("BAAI--bge-large-zh-v1.5", "model_type is 'bert', an encoder-only model"),
        # encoder-decoders other than Whisper: self- and cross-attention not read
        ("facebook--m2m100_418M", "is_encoder_decoder is true (model_type 'm2m_100')"),
        ("facebook--seamless-m4t-v2-large", "is_encoder_decoder is true (model_type 'seamless_m4t_v2')"),
        ("ragavsachdeva--magiv3", "is_encoder_decoder is true (model_type 'florence2')"),
        # the language model named by id, its sizes elsewhere
        ("openvla--openvla-7b", "hf_llm_id is 'meta-llama/Llama-2-7b-hf'"),
    ],
)
def test_a_design_without_a_reader_is_refused_naming_its_field(folder, field):
    with pytest.raises(ConfigError) as e:
        corpus_model(folder)
    assert field in str(e.value)


def test_bloom_n_embed_is_its_hidden_size():
    # transformers BloomConfig: hidden_size = n_embed when given; 112 heads of 14336 / 112
    m = corpus_model("bigscience--bloom")
    assert m.extra["hidden_size"] == 14336 and m.extra["head_dim"] == 128
    assert m.kv_bytes_per_token("bf16") == 70 * 2 * 112 * 128 * 2


def test_params_json_names_dim_and_n_kv_heads():
    # MiniMind2 keeps Meta's params.json names: 2 KV heads, not the 8 query heads
    m = corpus_model("jingyaogong--MiniMind2")
    assert m.extra["num_key_value_heads"] == 2 and m.extra["head_dim"] == 768 // 8
    assert m.kv_bytes_per_token("bf16") == 16 * 2 * 2 * 96 * 2


def test_whisper_small_reads_its_decoder_and_cross_attention():
    m = corpus_model("NbAiLab--nb-whisper-small-beta")
    assert m.kv_bytes_per_token("bf16") == 12 * 2 * 12 * 64 * 2


def test_deepseek_attention_without_latent_is_plain_attention():
    # DeepSeek-OCR-2: MLA widths all 0, so vLLM builds DeepseekAttention (heads of hidden / heads)
    m = corpus_model("deepseek-ai--DeepSeek-OCR-2")
    assert m.extra["head_dim"] == 1280 // 10
    assert m.kv_bytes_per_token("bf16") == 12 * 2 * 10 * 128 * 2


def test_a_language_model_nested_under_another_name_is_refused_naming_it():
    with pytest.raises(ConfigError) as e:
        corpus_model("Infi-MM--infimm-zephyr")
    assert "language holds the language model's config" in str(e.value)
