"""The model menu: the series' models first, every other preset behind "more models"."""

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
