"""load_model from a Model, a dict, a config.json path and a model folder (with checkpoint metadata)."""

import json

import kvwidgets as kw
from kvwidgets.core.model import Model

from .checkpoint_files import TINY_CONFIG, TINY_KV_PER_TOKEN, TINY_PARAMS, TINY_TENSORS, safetensors_bytes


def test_model_passes_through_with_overrides():
    m = kw.load_model("llama-3-8b")
    assert kw.load_model(m) is m
    assert kw.load_model(m, params=7_000_000_000).params == 7_000_000_000


def test_dict_source_estimates_params_and_says_so():
    m = kw.load_model(TINY_CONFIG)
    assert isinstance(m, Model) and m.kv_bytes_per_token() == TINY_KV_PER_TOKEN
    assert m.params_source.startswith("ESTIMATE")
    assert m.provenance["num_hidden_layers"] == "config dict: num_hidden_layers"


def test_config_file_path(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY_CONFIG))
    for source in (path, str(path)):
        m = kw.load_model(source)
        assert m.kv_bytes_per_token() == TINY_KV_PER_TOKEN
        assert m.provenance["num_key_value_heads"] == f"config.json at {path}: num_key_value_heads"


def test_folder_with_single_safetensors_gives_exact_params(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(TINY_CONFIG))
    (tmp_path / "model.safetensors").write_bytes(safetensors_bytes(TINY_TENSORS))
    m = kw.load_model(tmp_path)
    assert m.params == TINY_PARAMS
    assert "exact" in m.params_source and "model.safetensors" in m.params_source
    assert m.name == tmp_path.name


def test_folder_with_index_gives_approximate_params(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(TINY_CONFIG))
    (tmp_path / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {"total_size": 16_060_522_496}, "weight_map": {}})
    )
    m = kw.load_model(tmp_path)
    assert m.params == 16_060_522_496 // 2  # bf16: 2 bytes per parameter
    assert m.params_source.startswith("APPROXIMATE") and "total_size" in m.params_source


def test_fp8_index_divides_by_one_byte(tmp_path):
    cfg = {**TINY_CONFIG, "quantization_config": {"quant_method": "fp8"}}
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    (tmp_path / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {"total_size": 1_000_000}})
    )
    assert kw.load_model(tmp_path).params == 1_000_000


def test_params_override_wins_over_checkpoint(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(TINY_CONFIG))
    (tmp_path / "model.safetensors").write_bytes(safetensors_bytes(TINY_TENSORS))
    m = kw.load_model(tmp_path, params=5)
    assert m.params == 5 and m.params_source == "given (params=)"


def test_public_api_accepts_any_source(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(
        json.dumps(
            {
                **TINY_CONFIG,
                "num_hidden_layers": 32,
                "num_attention_heads": 32,
                "num_key_value_heads": 8,
                "hidden_size": 4096,
            }
        )
    )
    fit = kw.users_that_fit(str(path), "H100-SXM", context=8000, params=8_030_261_248)
    assert fit.users == 53  # same shape as Llama 3 8B: the seed's 53 users on an H100
