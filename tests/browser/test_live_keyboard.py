"""Arrow keys on a focused slider, in a live JupyterLab 4 and a live Notebook 7.

In command mode both bind ArrowRight and friends to notebook commands (Lumino keymap,
selector `.jp-Notebook.jp-mod-commandMode:not(.jp-mod-readWrite) :focus`) and call
preventDefault before a focused <input type=range> sees the key. The widgets put
data-lm-suppress-shortcuts="true" on every control they create, which makes Lumino
leave the key alone (Lumino reads the attribute on the event's target, so it must sit on
the control itself, not on the widget's root; docs/hosts.md). Checked in each app, as a reader does it:
the notebook runs, the context slider gets the focus while the notebook is in
command mode, ArrowRight moves it one stop and the figure redraws, the active cell
stays the same (no notebook command took the key), and the kernel gets the new value.
Then the same key with the attribute removed from the slider: the notebook takes it
and the slider does not move, which shows the check above tests the attribute and
not an app that lets keys through anyway. The server logs no errors.
"""

from __future__ import annotations

import json
import re

import pytest

from .conftest import PageWatch
from .jupyterlab import LabServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "keyboard.ipynb"
CELLS = [
    "import kvwidgets as kw\nw = kw.UsersThatFit()\nw",
    'print("context in the kernel:", w.context)',
]
SLIDER = '.jp-OutputArea [data-kv="context"]'
PLOT_DATA = (
    "() => { const p = document.querySelector('.jp-OutputArea .kv-plot');"
    " return p && p.data ? JSON.stringify([p.data, p.layout.annotations || [], p.layout.shapes || []]) : null; }"
)
ACTIVE_CELL = "() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].findIndex(c => c.classList.contains('jp-mod-active'))"
COMMAND_MODE = "() => !!document.querySelector('.jp-Notebook.jp-mod-commandMode')"


# What each app itself logs on a healthy start. Notebook 7.6.5's keyboard-shortcut
# settings plugin (notebook_core, its pluginChanged handler) reads
# `plugins[id].schema` of a plugin it has not loaded and throws this on every page
# load, with a notebook holding only `1+1` and with no settings folder at all.
APP_NOISE = {"lab": (), "notebook": ("Cannot read properties of undefined (reading 'schema')",)}


# A widget's state update as the front end sends it to the kernel (comm_msg, method
# "update"); frames are JSON text or the v1 binary protocol, whose JSON parts read as text.
CONTEXT_UPDATE = re.compile(rb'"context":\s*(\d+)')


class SentContexts:
    """Each context value the page sent to the kernel, in order, read off its websockets.

    ipywidgets sends at most one update per model while the kernel has not answered the
    last (@jupyter-widgets/base, WidgetModel.sync keeps later ones in _msg_buffer and
    _handle_status sends them when that message's idle status arrives). Keys pressed in
    quick succession on a loaded machine may so reach the kernel after a cell run next,
    which is ipywidgets' contract, not the widget's: the test waits until the front end has
    sent the value on screen, then asks the kernel for it.
    """

    def __init__(self, page):
        self.values: list[int] = []
        page.on("websocket", lambda ws: ws.on("framesent", self._frame))

    def _frame(self, payload):
        data = payload.encode() if isinstance(payload, str) else payload
        self.values += [int(v) for v in CONTEXT_UPDATE.findall(data)]

    def wait_for_last(self, page, value: int, timeout_ms: int = 30_000):
        waited = 0
        while (self.values[-1:] or [None])[0] != value:
            assert waited < timeout_ms, f"the front end last sent context {self.values[-1:]}, not {value}"
            page.wait_for_timeout(100)
            waited += 100


def context_at(pos: int) -> int:
    """Slider stop -> tokens, as widgets/README.md states it."""
    return 2 ** (10 + pos // 16) * (16 + pos % 16) // 16


@pytest.mark.parametrize("app", ["lab", "notebook"])
def test_arrow_keys_move_a_focused_slider(browser, tmp_path_factory, request, app):
    # JupyterLab: the hosts stage's one server (conftest's shared_lab); Notebook 7, another
    # app, runs a server of its own
    own = LabServer(tmp_path_factory.mktemp("keys-notebook"), app="notebook") if app == "notebook" else None
    server = own or request.getfixturevalue("shared_lab")
    server.write_notebook(NOTEBOOK, CELLS)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = None
    try:
        if own:
            own.start()
        mark = server.log_mark()
        watch = PageWatch(context.new_page())
        page = watch.page
        sent = SentContexts(page)
        server.open_and_run_all(page, NOTEBOOK)
        page.wait_for_selector(".jp-OutputArea .kv-plot svg.main-svg")
        page.wait_for_function(f"({PLOT_DATA})() !== null")
        slider = page.locator(SLIDER)
        assert slider.get_attribute("data-lm-suppress-shortcuts") == "true"
        # every control the widget made carries it, not only the slider
        missing = page.evaluate("""[...document.querySelectorAll('.jp-OutputArea .kv-widget :is(input, select, button, textarea, summary)')]
            .filter(e => e.getAttribute('data-lm-suppress-shortcuts') !== 'true').map(e => e.dataset.kv)""")
        assert missing == []

        # The reader tabs or clicks into the output: the notebook is in command mode
        # with the slider focused, which is when its arrow-key shortcuts are live.
        page.keyboard.press("Escape")
        slider.focus()
        page.wait_for_function(COMMAND_MODE)
        assert page.evaluate("document.activeElement.dataset.kv") == "context"
        active = page.evaluate(ACTIVE_CELL)
        pos = int(slider.input_value())
        before = page.evaluate(PLOT_DATA)
        page.keyboard.press("ArrowRight")
        assert int(slider.input_value()) == pos + 1, f"{app}: ArrowRight did not move the slider"
        page.wait_for_function(f"({PLOT_DATA})() !== {json.dumps(before)}")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        assert int(slider.input_value()) == pos + 1
        assert page.evaluate(ACTIVE_CELL) == active, f"{app}: a notebook command took the key"
        assert page.evaluate("document.activeElement.dataset.kv") == "context"

        # the kernel follows: once the value on screen has gone out, run the print cell
        sent.wait_for_last(page, context_at(pos + 1))
        page.locator(".jp-Notebook .jp-Cell").nth(1).locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")
        page.wait_for_function(
            "[...document.querySelectorAll('.jp-Notebook .jp-Cell')][1].querySelector('.jp-OutputArea-output')"
            f"?.textContent.includes('context in the kernel: {context_at(pos + 1)}')"
        )

        # Control: without the attribute the notebook's shortcut takes the key.
        page.evaluate(f"document.querySelector('{SLIDER}').removeAttribute('data-lm-suppress-shortcuts')")
        page.keyboard.press("Escape")
        slider.focus()
        page.wait_for_function(COMMAND_MODE)
        page.keyboard.press("ArrowRight")
        assert int(slider.input_value()) == pos + 1, (
            f"{app}: the key reached the slider without the attribute"
        )

        watch.assert_clean(allow_errors=APP_NOISE[app])
    except Exception:
        server.show_failure(page)
        raise
    finally:
        context.close()
        if own:
            own.stop()
    assert server.log_errors(since=mark) == [], "\n".join(server.log_errors(since=mark))
