"""DeploymentRanks in Chromium: a bar per GPU, the GPU that fills first marked in words and
an outline, a layout button and the context slider redrawing from the kernel's table with
no kernel (an exported page), and failures drawn as failures.

Llama 3.1 70B, PP 3 on H100s at 32,768 tokens (tests/widgets/test_deployment_ranks.py):
stages hold 6, 7 and 7 conversations, so the deployment holds 6 and stage 0 fills first."""

from __future__ import annotations

import pytest

import kvwidgets as kw

from .conftest import open_exported

pytestmark = pytest.mark.browser

RANKS_JS = """() => [...document.querySelectorAll('.kv-diagram g.kv-rk-rank')].map(g => ({
    rank: +g.dataset.rank, full: g.classList.contains('kv-rk-full'), held: +g.dataset.held,
    alone: +g.dataset.conversations, mark: !!g.querySelector('.kv-rk-mark'),
    convs: g.querySelectorAll('.kv-rk-conv').length, over: g.querySelectorAll('.kv-rk-over').length,
    count: g.querySelector('.kv-rk-count').textContent }))"""


def test_bars_draw_the_full_rank_is_marked_and_a_layout_switch_redraws(watched, tmp_path):
    page = watched.page
    kw.DeploymentRanks().to_html(tmp_path / "ranks.html")
    open_exported(watched, tmp_path / "ranks.html")
    ranks = page.evaluate(RANKS_JS)
    assert [r["alone"] for r in ranks] == [6, 7, 7]
    # each bar draws the six conversations its replica holds, one segment each
    assert [r["convs"] for r in ranks] == [6, 6, 6] and [r["held"] for r in ranks] == [6, 6, 6]
    # the full GPU: an outline and words, not a colour alone
    assert [r["full"] for r in ranks] == [True, False, False] and ranks[0]["mark"]
    assert ranks[0]["count"] == "fills first: 6" and ranks[1]["count"] == "holds 6; room for 7"
    headline = page.text_content('[data-kv-out="headline"]')
    assert headline.startswith(
        "The deployment holds 6 conversations of 32,768 tokens; GPU 0 (stage 0) fills first"
    )
    assert "it also holds the embedding" in headline
    assert page.text_content('[data-kv-out="vllm"]') == "6 conversations, the same"
    # the context slider redraws from the table: 65,536 tokens, stage 0 holds
    # 23,693,310,566 / 7,247,757,312 = 3.3 -> 3
    page.focus('[data-kv="context"]')
    page.keyboard.press("ArrowRight")
    assert page.text_content('[data-kv-out="context"]') == "64K"
    assert [r["held"] for r in page.evaluate(RANKS_JS)] == [3, 3, 3]
    # a layout button: DP 3, every H100 holding the whole model, does not load
    page.check('input[data-kv="layout"][value="tp1-pp1-dp3-ep0"]')
    ranks = page.evaluate(RANKS_JS)
    assert len(ranks) == 3 and all(r["over"] == 1 and r["convs"] == 0 for r in ranks)
    assert not any(r["full"] for r in ranks)
    assert page.locator(".kv-diagram .kv-rk-end").count() == 1  # the GPU's end, marked
    assert "The weights do not load" in page.text_content(".kv-failure")
    assert page.locator(".kv-diagram svg").is_visible()  # the bars stay: they are the picture of why
    # "none" is this deployment's answer: every readout holds, so none is struck or hidden
    readouts = page.evaluate(
        """[...document.querySelectorAll('.kv-readout .kv-value')].map(e => [e.textContent,
            e.hasAttribute('data-kv-holds'), getComputedStyle(e).textDecorationLine, e.getAttribute('aria-hidden')])"""
    )
    assert readouts[0][0] == "none (the weights do not fit)"
    assert all(holds and deco == "none" and hidden is None for _, holds, deco, hidden in readouts), readouts
    # TP 3: the core's refusal, under the widget
    page.check('input[data-kv="layout"][value="tp3-pp1-dp1-ep0"]')
    assert "num_key_value_heads=8" in page.text_content(".kv-error")
    # back to PP 3: the bars return, and the error goes
    page.check('input[data-kv="layout"][value="tp1-pp3-dp1-ep0"]')
    assert page.text_content(".kv-error") == ""
    # at 65,536 tokens every stage holds 3 (3.3, 3.6 and 3.6): all full at once, though unequal
    assert [r["full"] for r in page.evaluate(RANKS_JS)] == [True, True, True]
    assert "all 3 GPUs reach their limit at the same count" in page.text_content('[data-kv-out="headline"]')
    page.focus('[data-kv="context"]')
    page.keyboard.press("ArrowLeft")
    assert [r["full"] for r in page.evaluate(RANKS_JS)] == [True, False, False]
    watched.assert_clean()


def test_dp_attention_draws_one_replica_per_gpu_and_a_model_change_waits_for_the_kernel(watched, tmp_path):
    page = watched.page
    kw.DeploymentRanks(model="deepseek-v3", gpu="H200", tp=8, pp=1, weight_dtype="fp8").to_html(
        tmp_path / "ds.html"
    )
    open_exported(watched, tmp_path / "ds.html")
    # TP 8: every GPU the same, all full at once, 18 conversations
    assert [r["held"] for r in page.evaluate(RANKS_JS)] == [18] * 8
    assert "all 8 fill at once" in page.text_content('[data-kv-out="headline"]')
    # the layout buttons are one radio group: the arrow keys move along it, each move redraws
    group = page.get_by_role("radiogroup", name="Layout: how the GPUs share the model")
    assert group.get_by_role("radio").count() == 3
    page.focus('input[data-kv="layout"][value="tp8-pp1-dp1-ep0"]')
    page.keyboard.press("ArrowRight")
    assert page.text_content(".kv-diagram svg text").startswith("PP 8: 8 x H200")
    page.keyboard.press("ArrowRight")
    assert page.is_checked('input[data-kv="layout"][value="tp1-pp1-dp8-ep1"]')
    ranks = page.evaluate(RANKS_JS)
    assert [r["held"] for r in ranks] == [12] * 8
    assert page.text_content('[data-kv-out="conversations"]') == "96 conversations"
    assert page.text_content('[data-kv-out="full_rank"]') == "all 8 GPUs at once, at 12 conversations each"
    assert page.text_content('[data-kv-out="headline"]').startswith(
        "Each of 8 replicas holds 12 conversations of 32,768 tokens, 96 in all"
    )
    # no kernel here: another model cannot be placed, and the figure says so instead of drawing stale bars
    page.locator('[data-kv="model"]').select_option("llama-3-8b")
    assert "waiting for it" in page.text_content(".kv-failure")
    assert page.locator(".kv-diagram g.kv-rk-rank").count() == 0
    watched.assert_clean()


def test_input_the_kernel_refuses_is_said_under_the_widget(watched, tmp_path):
    page = watched.page
    w = kw.DeploymentRanks(pp=0)
    assert w.error.startswith("pp")
    w.to_html(tmp_path / "bad.html")
    open_exported(watched, tmp_path / "bad.html")
    assert page.text_content(".kv-error") == w.error
    assert "waiting" not in page.text_content(".kv-failure")
    assert page.locator(".kv-diagram g.kv-rk-rank").count() == 0
    watched.assert_clean()
