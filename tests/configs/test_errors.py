"""Bad configs and bad sources raise clear errors that name the field and what was expected."""

import pytest

import kvwidgets as kw
from kvwidgets.core.errors import ConfigError, InputError, ModelSourceError, UnknownNameError

GOOD = {
    "model_type": "llama",
    "hidden_size": 4096,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
}


def test_empty_config():
    with pytest.raises(ConfigError, match="empty"):
        kw.load_model({})


def test_missing_num_hidden_layers_lists_names_tried():
    cfg = {k: v for k, v in GOOD.items() if k != "num_hidden_layers"}
    with pytest.raises(ConfigError) as e:
        kw.load_model(cfg)
    msg = str(e.value)
    for name in ("num_hidden_layers", "n_layer", "num_layers", "n_layers"):
        assert name in msg


@pytest.mark.parametrize(
    "field,value",
    [
        ("num_hidden_layers", -4),
        ("num_hidden_layers", 0),
        ("num_hidden_layers", 31.5),
        ("num_attention_heads", "32"),
        ("num_key_value_heads", 2.5),
        ("num_key_value_heads", True),
        ("head_dim", -128),
    ],
)
def test_bad_counts_name_the_field(field, value):
    with pytest.raises(ConfigError) as e:
        kw.load_model({**GOOD, field: value})
    assert field in str(e.value) and repr(value) in str(e.value)


def test_heads_not_divisible_by_kv_heads():
    with pytest.raises(ConfigError) as e:
        kw.load_model({**GOOD, "num_key_value_heads": 5})
    assert "num_attention_heads=32" in str(e.value) and "num_key_value_heads=5" in str(e.value)


def test_layer_types_length_mismatch():
    with pytest.raises(ConfigError) as e:
        kw.load_model({**GOOD, "layer_types": ["full_attention"] * 31})
    assert "layer_types has 31 entries" in str(e.value) and "num_hidden_layers is 32" in str(e.value)


def test_unknown_layer_type():
    with pytest.raises(ConfigError) as e:
        kw.load_model({**GOOD, "layer_types": ["full_attention"] * 31 + ["wormhole_attention"]})
    assert "layer_types[31]" in str(e.value) and "wormhole_attention" in str(e.value)


def test_sliding_layers_without_window():
    with pytest.raises(ConfigError, match="sliding_window"):
        kw.load_model({**GOOD, "layer_types": ["sliding_attention"] * 32})


def test_no_head_dim_and_no_hidden_size():
    cfg = {k: v for k, v in GOOD.items() if k != "hidden_size"}
    with pytest.raises(ConfigError, match="head_dim"):
        kw.load_model(cfg)


def test_hidden_not_divisible_by_heads_without_head_dim():
    with pytest.raises(ConfigError, match="hidden_size=4100 is not divisible by num_attention_heads=32"):
        kw.load_model({**GOOD, "hidden_size": 4100})


def test_unknown_preset_lists_close_matches():
    with pytest.raises(UnknownNameError) as e:
        kw.load_model("llama-3-8")
    msg = str(e.value)
    assert "unknown preset 'llama-3-8'" in msg and "Did you mean" in msg and "'llama-3-8b'" in msg
    assert "org/name" in msg
    assert isinstance(e.value, KeyError)  # callers catching KeyError still catch it


def test_missing_file(tmp_path):
    with pytest.raises(ModelSourceError) as e:
        kw.load_model(str(tmp_path / "nope" / "config.json"))
    assert "no such file or folder" in str(e.value)
    assert isinstance(e.value, FileNotFoundError)


def test_folder_without_config(tmp_path):
    with pytest.raises(ModelSourceError, match="has no config.json"):
        kw.load_model(tmp_path)


def test_unreadable_json(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"num_hidden_layers": 32,, }')
    with pytest.raises(ConfigError) as e:
        kw.load_model(path)
    assert str(path) in str(e.value) and "not valid JSON" in str(e.value) and "line 1" in str(e.value)


def test_json_that_is_not_an_object(tmp_path):
    path = tmp_path / "config.json"
    path.write_text("[1, 2, 3]")
    with pytest.raises(ConfigError, match="expected an object"):
        kw.load_model(path)


def test_wrong_source_type():
    with pytest.raises(ConfigError, match="preset name, a config dict"):
        kw.load_model(42)


def test_empty_string_source():
    with pytest.raises(ConfigError, match="empty string"):
        kw.load_model("  ")


def test_bad_params_override():
    with pytest.raises(InputError, match="params"):
        kw.load_model("llama-3-8b", params=-1)


def test_as_mha_without_query_heads():
    m = kw.uniform_model("toy", 2, 2, 64, 1000)
    with pytest.raises(ConfigError, match="num_query_heads"):
        m.as_mha()


def test_a_sliding_pattern_without_a_window_is_refused_by_name():
    """Reading the layers as full would be a silent number: the window size is missing."""
    config = dict(
        model_type="brandnew",
        hidden_size=4096,
        num_attention_heads=32,
        num_key_value_heads=8,
        num_hidden_layers=32,
        vocab_size=32000,
        intermediate_size=14336,
        sliding_window_pattern=6,
    )
    with pytest.raises(ConfigError, match=r"sliding_window_pattern is 6.*no sliding_window"):
        kw.load_model(config)
    assert kw.load_model({**config, "sliding_window": 4096}).bytes_by_kind(8192)["sliding"] > 0
