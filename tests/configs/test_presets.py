"""Every bundled preset loads, is faithful to its source, and gives the seeds' numbers."""

import json
from importlib import resources

import pytest

import kvwidgets as kw
from kvwidgets.configs import PRESETS, list_presets
from kvwidgets.configs.hf_config import model_from_config
from kvwidgets.configs.presets import get_preset

REQUIRED = [
    "llama-3-8b",
    "llama-3-70b",
    "llama-3.1-8b",
    "llama-3.1-70b",
    "llama-3.1-405b",
    "deepseek-v3",
    "gpt-oss-20b",
    "gpt-oss-120b",
    "gemma-3-27b",
    "mistral-7b-v0.1",
    "qwen3-8b",
    "qwen3-32b",
]


def test_required_presets_are_bundled():
    assert set(REQUIRED) <= set(list_presets())
    assert list_presets() == sorted(PRESETS)
    assert all(PRESETS[name] for name in PRESETS)  # every preset has a description


@pytest.mark.parametrize("name", list_presets())
def test_every_preset_loads_with_provenance_and_params(name):
    m = kw.load_model(name)
    assert m.name == name
    assert m.num_layers >= 1 and m.params > 0
    assert m.kv_bytes(8192) > 0
    assert m.params_source and m.params_source != "given"
    _, _, prov, par = get_preset(name)
    assert "/" in prov["repo_id"] and prov["config_source"] and prov["description"]
    assert par["value"] == m.params and par["source"]
    # every structural number says where it came from, naming the source repo
    for key in ("num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim", "layer_types"):
        assert key in m.provenance, key
    assert prov["repo_id"] in m.provenance["num_hidden_layers"]


@pytest.mark.parametrize("name", list_presets())
def test_preset_files_are_plain_json_configs(name):
    text = resources.files("kvwidgets.data").joinpath("presets", f"{name}.json").read_text()
    data = json.loads(text)
    assert {"provenance", "params"} <= set(data)
    assert "model_type" in data


# ---- the seeds' numbers ---------------------------------------------------------------
def test_seed_llama3_8b():
    m = kw.load_model("llama-3-8b")
    assert m.kv_bytes_per_token() == 131_072
    assert m.kv_bytes_per_token(kv_dtype="fp8") == 65_536
    assert m.with_kv_heads(1).kv_bytes_per_token() == 16_384
    assert m.as_mha().kv_bytes_per_token() == 524_288
    assert m.params == 8_030_261_248


def test_seed_llama3_70b_and_31_70b():
    for name in ("llama-3-70b", "llama-3.1-70b"):
        m = kw.load_model(name)
        assert m.kv_bytes_per_token() == 327_680
        assert m.kv_bytes(8192) == 2_684_354_560
        assert m.as_mha().kv_bytes_per_token() == 2_621_440


def test_seed_70b_parameter_assumptions_via_params_override():
    # part 14 assumes 70.0 B parameters, part 002 about 70.6 B: both reachable
    assert kw.load_model("llama-3-70b", params=70_000_000_000).weight_bytes("fp8") == 70_000_000_000
    m = kw.load_model("llama-3-70b")
    assert round(m.weight_bytes("bf16") / 1e9) == 141
    assert kw.load_model("llama-3-70b", params=70_000_000_000).params_source == "given (params=)"


def test_seed_deepseek_v3():
    m = kw.load_model("deepseek-v3")
    assert m.kv_bytes_per_token() == 70_272
    assert m.as_mha().kv_bytes_per_token() == 4_997_120


def test_seed_gpt_oss_120b():
    m = kw.load_model("gpt-oss-120b")
    assert m.kv_bytes_per_token() == 36_864
    assert m.bytes_by_kind(200_000)["sliding"] == 4_718_592
    assert m.weight_dtype == "mxfp4" and "mxfp4" in m.provenance["weight_dtype"]
    # MXFP4 experts at 4.25 bits (4-bit values, one 8-bit scale per 32), the rest in bf16:
    # about 61 GiB, where counting every parameter at 4 bits gives 54 GiB
    routed, rest = m.routed_expert_params, m.params - m.routed_expert_params
    assert m.weight_bytes() == routed * 17 // 32 + rest * 2 == 65_190_340_224
    assert round(m.weight_bytes() / 2**30, 1) == 60.7


def test_seed_gemma3_27b():
    m = kw.load_model("gemma-3-27b")
    assert m.count("sliding") == 52 and m.count("full") == 10
    assert m.provenance["sliding_window_pattern"] == "default of Gemma3TextConfig"


def test_mistral_and_phi3_presets_slide_everywhere():
    assert kw.load_model("mistral-7b-v0.1").count("sliding") == 32
    assert kw.load_model("phi-3-mini-4k").count("sliding") == 32


def test_qwen_presets():
    assert kw.load_model("qwen3-32b").kv_bytes_per_token() == 262_144
    assert kw.load_model("qwen3-8b").kv_bytes_per_token() == 2 * 36 * 8 * 128 * 2
    assert kw.load_model("qwen2.5-7b").count("full") == 28


# ---- names and aliases ----------------------------------------------------------------
@pytest.mark.parametrize(
    "alias", ["llama3-8b", "Llama-3-8B", "LLAMA_3_8B", " llama-3-8b ", "Meta-Llama-3-8B"]
)
def test_aliases_and_case(alias):
    assert kw.load_model(alias).name == "llama-3-8b"


def test_name_override():
    assert kw.load_model("llama-3-8b", name="my 8B").name == "my 8B"


# ---- the parameter estimate against Hub totals ------------------------------------------------
HUB_TOTALS = {  # safetensors totals shown on the Hub model pages
    "llama-3-8b": 8_030_261_248,
    "llama-3-70b": 70_553_706_496,
    "mistral-7b-v0.1": 7_241_732_096,
    "phi-3-mini-4k": 3_821_079_552,
    "gpt2": 124_439_808,
}


@pytest.mark.parametrize("name", sorted(HUB_TOTALS))
def test_estimate_reproduces_hub_totals(name):
    _, config, _, _ = get_preset(name)
    m = model_from_config(config, source="test")
    assert m.params == HUB_TOTALS[name]
    assert m.params_source.startswith("ESTIMATE")


def test_estimates_close_to_published_totals_for_moe_and_mla():
    # model cards: gpt-oss-120b 116.83 B, gpt-oss-20b 20.91 B, DeepSeek-V3 671 B (main model)
    for name, published in (("gpt-oss-120b", 116.83e9), ("gpt-oss-20b", 20.91e9), ("deepseek-v3", 671e9)):
        _, config, _, _ = get_preset(name)
        est = model_from_config(config, source="test").params
        assert abs(est / published - 1) < 0.001, name


def test_presets_are_public_names():
    assert kw.list_presets() == list_presets()
    assert kw.PRESETS == PRESETS
