"""DecodeStep in a live JupyterLab: it draws its diagram in a real notebook, Step and Play
move it without waiting for the kernel, and the kernel's `generated` and `result` follow
(the print cell, run again, shows them). Slow: a page of the hosts stage's one JupyterLab
(conftest's shared_lab)."""

from __future__ import annotations

import pytest

from .conftest import PageWatch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "decode_step.ipynb"
CELLS = [
    "import kvwidgets as kw\nw = kw.DecodeStep(model='gpt-oss-20b', prompt_tokens=100)\nw",
    'print("kernel:", w.generated, w.result["tokens"], w.result["stored_bytes"])',
]


def test_decode_step_plays_in_a_live_jupyterlab(browser, shared_lab):
    lab = shared_lab
    lab.write_notebook(NOTEBOOK, CELLS)
    mark = lab.log_mark()
    context = browser.new_context(viewport={"width": 1400, "height": 1100})
    page = None
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        lab.open_and_run_all(page, NOTEBOOK)
        page.wait_for_selector(".jp-OutputArea .kv-diagram svg .kv-dst-layer")
        assert page.locator(".jp-OutputArea .kv-dst-layer").count() == 4  # 2 sliding + 2 full drawn of 24
        page.locator('.jp-OutputArea [data-kv="step"]').click()
        assert page.locator('.jp-OutputArea [data-kv-out="tokens"]').text_content().startswith("101 ")
        page.locator('.jp-OutputArea [data-kv="play"]').click()
        page.wait_for_function(
            "(() => { const t = document.querySelector('.jp-OutputArea [data-kv-out=\"tokens\"]');"
            " return t && parseInt(t.textContent.replace(/,/g, '')) >= 104; })()"
        )
        page.locator('.jp-OutputArea [data-kv="play"]').click()  # pause
        shown = int(
            page.locator('.jp-OutputArea [data-kv-out="tokens"]')
            .text_content()
            .split(" ")[0]
            .replace(",", "")
        )
        page.wait_for_timeout(500)
        assert (
            int(
                page.locator('.jp-OutputArea [data-kv-out="tokens"]')
                .text_content()
                .split(" ")[0]
                .replace(",", "")
            )
            == shown
        )
        # the kernel followed every step: run the print cell again
        page.locator(".jp-Notebook .jp-Cell").nth(1).locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")
        # gpt-oss-20b: 24 layers x 8 KV heads x 64 x 2 x 2 B = 49,152 B per token while the window fills
        page.wait_for_function(
            "[...document.querySelectorAll('.jp-Notebook .jp-Cell')][1].querySelector('.jp-OutputArea-output')"
            f"?.textContent.includes('kernel: {shown - 100} {shown} {shown * 49152}')"
        )
        watch.assert_clean()
    except Exception:
        lab.show_failure(page)
        raise
    finally:
        context.close()
    assert lab.log_errors(since=mark) == [], "\n".join(lab.log_errors(since=mark))
