"""The model menu: the series' models first, a curated "more models" group, and every other
preset loadable by name (listed only while chosen)."""

import json
import re
from pathlib import Path

import kvwidgets as kw
from kvwidgets.widgets import browser_data

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def test_series_models_are_the_presets_the_notebooks_name():
    text = "\n".join(
        "".join(c["source"]) for p in NOTEBOOKS.glob("*.ipynb") for c in json.loads(p.read_text())["cells"]
    )
    named = {n for n in kw.list_presets() if re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w.-])", text)}
    assert set(browser_data.SERIES_MODELS) == named


def test_menu_order_puts_the_series_first_and_reference_presets_last():
    names = browser_data.preset_names()
    assert sorted(names) == sorted(kw.list_presets())
    n = len(browser_data.SERIES_MODELS)
    assert names[:n] == browser_data.SERIES_MODELS
    assert names[-1] == "gpt2" and "gpt2" not in names[:-1]
    w = kw.UsersThatFit()
    assert w.series_models == list(browser_data.SERIES_MODELS) and w.presets == list(names)


def test_more_models_is_a_curated_group_and_every_other_preset_still_loads_by_name():
    presets = set(kw.list_presets())
    menu = [*browser_data.SERIES_MODELS, *browser_data.MORE_MODELS]
    # 11 series models and 12 more: 23 of the 29 presets, no name twice, each a preset
    assert len(presets) == 29 and len(menu) == 23 and len(set(menu)) == 23 and set(menu) <= presets
    w = kw.UsersThatFit()
    assert w.more_models == list(browser_data.MORE_MODELS)
    # the reference and superseded presets are out of the menu
    left_out = presets - set(menu)
    assert left_out == {
        "gpt2",
        "mistral-7b-v0.1",
        "phi-3-mini-4k",
        "minicpm3-4b",
        "recurrentgemma-2b",
        "mamba-codestral-7b",
    }
    # ... and each still loads by name: the widget computes, and the model is drawable
    for name in sorted(left_out):
        w.model = name
        assert w.error == "" and name in w.shapes, name
        assert w.result["kv_per_user_bytes"] == kw.load_model(name).kv_bytes(w.context), name


def test_a_refused_config_keeps_the_model_and_says_why_under_the_menu():
    w = kw.UsersThatFit(model="qwen3-8b")
    shown = w.result["kv_per_user_bytes"]
    # Nemotron-3-Ultra's shape: no layer count and no per-layer list to count
    w.model = {
        "model_type": "nemotron_h",
        "num_hidden_layers": None,
        "num_attention_heads": 32,
        "mamba_num_heads": 64,
    }
    assert w.model == "qwen3-8b" and w.result["kv_per_user_bytes"] == shown
    assert w.model_refusal.startswith("This config was not loaded: config dict: the layer count is missing")
    assert w.model_refusal.index("num_hidden_layers") < w.model_refusal.index("mamba_num_heads")
    # a model that loads clears it
    w.model = "llama-3.1-8b"
    assert w.model_refusal == "" and w.error == ""
