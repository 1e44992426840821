"""DeepSeek-V4's compressed layers and Whisper's cross-attention drawn in a real browser:
PerTokenBytes and DecodeStep draw them with their own names and colour, with the core's
bytes in the readouts and the formula, and no page error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kvwidgets as kw

from .conftest import open_exported

pytestmark = pytest.mark.browser

LAYOUTS = Path(__file__).resolve().parents[1] / "configs" / "layouts"


def loaded(name: str, label: str):
    data = json.loads((LAYOUTS / f"{name}.json").read_text())
    data.pop("_source")
    return kw.load_model(data, name=label)


def test_per_token_bytes_draws_deepseek_v4_compressed_layers(watched, tmp_path):
    page = watched.page
    m = loaded("deepseek-v4-flash", "DeepSeek-V4-Flash")
    kw.PerTokenBytes(model=m, context=131_072, kv_dtype="fp8").to_html(tmp_path / "v4.html")
    open_exported(watched, tmp_path / "v4.html")
    # 21 x (584 + 132) / 4 + 20 x 584 / 128 = 3,850.25 B, rounded up once
    assert "3,851 B" in page.locator('[data-kv-out="bytes_per_token"]').text_content()
    rows = page.locator(".kv-formula-row").all_text_contents()
    assert len(rows) == 3 and all(r.startswith("compressed latent:") for r in rows)
    assert any("1/4" in r and "716" in r for r in rows)  # 584 B latent + 132 B indexer key per 4 tokens
    assert any("1/128" in r and "584" in r for r in rows)
    assert any("2 x 128" not in r and "149,504 B" in r for r in rows)  # 2 window-only layers x 128 x 584
    gd = page.evaluate("document.querySelector('.kv-plot').data")
    bar = next(t for t in gd if t["name"].startswith("compressed latent"))
    assert bar["marker"]["color"] == "#a85c2a"
    assert bar["customdata"][-1] == kw.core.units.fmt_bytes(m.kv_bytes(131_072, "fp8"))
    watched.assert_clean()


def test_per_token_bytes_draws_whisper_cross_attention_to_its_audio(watched, tmp_path):
    page = watched.page
    m = loaded("whisper-large-v3-turbo", "whisper-large-v3-turbo")
    kw.PerTokenBytes(model=m, context=448).to_html(tmp_path / "whisper.html")
    open_exported(watched, tmp_path / "whisper.html")
    # 4 decoder layers x 2 x 20 heads x 64 x 2 B
    assert "20,480 B" in page.locator('[data-kv-out="bytes_per_token"]').text_content()
    text = page.locator(".kv-text").text_content()
    assert "1,500 encoder tokens (image or audio) per sequence" in text
    watched.assert_clean()


def test_decode_step_draws_deepseek_v4_without_error(watched, tmp_path):
    page = watched.page
    m = loaded("deepseek-v4-flash", "DeepSeek-V4-Flash")
    kw.DecodeStep(model=m).to_html(tmp_path / "step.html")
    open_exported(watched, tmp_path / "step.html")
    assert "compressed latent" in page.locator(".kv-widget").text_content()
    watched.assert_clean()
