"""One live JupyterLab session: a widget in a real notebook, driven through the UI.

The notebook shows kw.UsersThatFit(), then sets w.context = 32768 from Python, then
prints the kernel's w.context. Cells are run from JupyterLab's Run menu, as a reader
would. Checked: the widget draws a plotly figure; Python's assignment reaches the
browser; moving the context slider redraws at once and the new value reaches the
kernel (the print cell, run again with Shift+Enter, shows it); the server logs no
errors. Only localhost is reachable from the page.
"""

from __future__ import annotations

import json

import pytest

from .conftest import PageWatch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "users_that_fit.ipynb"
CELLS = [
    "import kvwidgets as kw\nw = kw.UsersThatFit()\nw",
    "w.context = 32768",
    'print("context in the kernel:", w.context)',
]

# What JupyterLab itself may log at error level on a healthy start (none so far).
LAB_CONSOLE_NOISE: tuple[str, ...] = ()

PLOT_DATA = "() => { const p = document.querySelector('.jp-OutputArea .kv-plot'); return p && p.data ? JSON.stringify(p.data) : null; }"


def test_widget_in_a_live_jupyterlab(browser, shared_lab):
    lab = shared_lab
    lab.write_notebook(NOTEBOOK, CELLS)
    mark = lab.log_mark()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        lab.open_and_run_all(page, NOTEBOOK)  # through the Run menu, as a reader would

        # the widget draws a plotly figure with data
        page.wait_for_selector(".jp-OutputArea .kv-plot svg.main-svg")
        page.wait_for_function(f"({PLOT_DATA})() !== null && JSON.parse(({PLOT_DATA})()).length > 0")

        # Python's w.context = 32768 reached the browser: the controls show it
        box = page.locator('.jp-OutputArea [data-kv="context-box"]')
        page.wait_for_function(
            "document.querySelector('.jp-OutputArea [data-kv=\"context-box\"]').value === '32768'"
        )
        printed = page.locator(".jp-Notebook .jp-Cell").nth(2).locator(".jp-OutputArea-output")
        assert "context in the kernel: 32768" in printed.text_content()
        users_at_32k = page.locator('.jp-OutputArea [data-kv-out="users"]').text_content()

        # the slider redraws in the browser at once, without waiting for the kernel
        before = page.evaluate(PLOT_DATA)
        page.locator('.jp-OutputArea [data-kv="context"]').fill("64")  # stop 64 = 16,384 tokens
        page.wait_for_function(f"({PLOT_DATA})() !== {json.dumps(before)}")
        assert box.input_value() == "16384"
        assert page.locator('.jp-OutputArea [data-kv-out="users"]').text_content() != users_at_32k

        # ... and the kernel got the new value: run the print cell again
        page.locator(".jp-Notebook .jp-Cell").nth(2).locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")
        page.wait_for_function(
            "[...document.querySelectorAll('.jp-Notebook .jp-Cell')][2]"
            ".querySelector('.jp-OutputArea-output')?.textContent.includes('context in the kernel: 16384')"
        )

        watch.assert_clean(allow_errors=LAB_CONSOLE_NOISE)
    except Exception:
        lab.show_failure(page)
        raise
    finally:
        context.close()
    assert lab.log_errors(since=mark) == [], "\n".join(lab.log_errors(since=mark))
