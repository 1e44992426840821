"""DeploymentRanks in a live JupyterLab: a layout button redraws at once and reaches the
kernel as tp / pp / dp / ep together, and a model chosen in the browser (which the kernel's
table does not hold yet) is placed by the kernel and drawn when its table arrives."""

from __future__ import annotations

import pytest

from .conftest import PageWatch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "deployment_ranks.ipynb"
CELLS = [
    "import kvwidgets as kw\nw = kw.DeploymentRanks()\nw",
    'print("kernel:", w.model, w.tp, w.pp, w.dp, w.result["conversations"])',
]

HELD = "() => [...document.querySelectorAll('.jp-OutputArea .kv-diagram g.kv-rk-rank')].map(g => +g.dataset.held)"


def _rerun_print(page, expect: str) -> None:
    page.locator(".jp-Notebook .jp-Cell").nth(1).locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        "[...document.querySelectorAll('.jp-Notebook .jp-Cell')][1]"
        f".querySelector('.jp-OutputArea-output')?.textContent.includes({expect!r})"
    )


def test_layout_switch_and_a_model_the_kernel_places(browser, shared_lab):
    lab = shared_lab
    lab.write_notebook(NOTEBOOK, CELLS)
    mark = lab.log_mark()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        lab.open_and_run_all(page, NOTEBOOK)
        page.wait_for_selector(".jp-OutputArea .kv-diagram g.kv-rk-rank")
        # Llama 3.1 70B, PP 3 on H100s: 6 conversations on every stage
        assert page.evaluate(HELD) == [6, 6, 6]
        # DP 3 does not load (every H100 would hold all 70B); the kernel gets the whole layout
        page.check('.jp-OutputArea input[data-kv="layout"][value="tp1-pp1-dp3-ep0"]')
        page.wait_for_selector(".jp-OutputArea .kv-widget.kv-failed")
        _rerun_print(page, "kernel: llama-3.1-70b 1 1 3 0")
        # another model: the kernel places it and the bars follow (Llama 3.1 8B over 3 GPUs)
        page.locator('.jp-OutputArea [data-kv="model"]').select_option("llama-3.1-8b")
        page.wait_for_function(f"({HELD})().length === 3 && ({HELD})().every(n => n > 6)")
        assert page.locator(".jp-OutputArea .kv-widget.kv-failed").count() == 0
        _rerun_print(page, "kernel: llama-3.1-8b 1 1 3")
        watch.assert_clean()
    except Exception:
        lab.show_failure(page)
        raise
    finally:
        context.close()
    assert lab.log_errors(since=mark) == [], "\n".join(lab.log_errors(since=mark))
