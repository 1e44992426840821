"""A config the loader refuses: the page keeps the model it showed and says why on a line of
its own directly under the model menu."""

from __future__ import annotations

import pytest

import kvwidgets as kw

from .conftest import open_exported

pytestmark = pytest.mark.browser

# Nemotron-3-Ultra's shape: no layer count and no per-layer list to count
REFUSED = {
    "model_type": "nemotron_h",
    "num_hidden_layers": None,
    "num_attention_heads": 32,
    "mamba_num_heads": 64,
}


def test_the_refusal_shows_under_the_model_menu(watched, tmp_path):
    page = watched.page
    w = kw.UsersThatFit(model="qwen3-8b")
    w.model = REFUSED
    w.to_html(tmp_path / "r.html")
    open_exported(watched, tmp_path / "r.html")
    note = page.locator(".kv-model-refusal")
    assert note.is_visible()
    assert note.text_content() == w.model_refusal
    assert "the layer count is missing" in note.text_content()
    # its own line, right after the label that holds the model menu
    after_menu = page.evaluate(
        "document.querySelector('.kv-model-refusal').previousElementSibling.querySelector('[data-kv=model]') !== null"
    )
    assert after_menu
    menu, line = (page.locator(s).bounding_box() for s in ('[data-kv="model"]', ".kv-model-refusal"))
    assert line["y"] >= menu["y"] + menu["height"] - 1
    assert page.locator('[data-kv="model"]').input_value() == "qwen3-8b"
    watched.assert_clean()


def test_no_refusal_takes_no_room(watched, tmp_path):
    page = watched.page
    kw.UsersThatFit().to_html(tmp_path / "ok.html")
    open_exported(watched, tmp_path / "ok.html")
    assert not page.locator(".kv-model-refusal").is_visible()
    watched.assert_clean()
