"""Hot reload in a live JupyterLab: with KVW_DEV=1 and ANYWIDGET_HMR=1 a widget's `_esm` is
its development build's file, and a rebuild reaches the open widget without a kernel
restart or a new cell run.

The development build is made into a temporary folder (scripts/build_js.mjs --dev, the
library bundled in, inline source maps; KVW_DEV_DIR names the folder). The test then
writes what `bash scripts/js.sh watch` would write after an edit of the widget's title in
js/widgets/users_fit.js, and waits for the page to show the new title.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import PageWatch
from .jupyterlab import LabServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "hot_reload.ipynb"
OLD_TITLE = "How many conversations fit on these GPUs at once?"
NEW_TITLE = "How many conversations fit on these GPUs at once? (edited)"


@pytest.fixture(scope="module")
def dev_build(tmp_path_factory):
    node = shutil.which("node")
    assert node, "Node.js is needed to build the widgets' JavaScript (scripts/test.sh installs it)"
    assert (ROOT / "node_modules" / ".bin" / "esbuild").exists(), "run `bash scripts/js.sh install` first"
    out = tmp_path_factory.mktemp("static_dev")
    proc = subprocess.run(
        [node, "scripts/build_js.mjs", "--dev", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def lab(tmp_path_factory, dev_build):
    server = LabServer(tmp_path_factory.mktemp("jupyterlab"))
    env = {"KVW_DEV": "1", "ANYWIDGET_HMR": "1", "KVW_DEV_DIR": str(dev_build)}
    server.write_notebook(
        NOTEBOOK,
        [
            f"import os\nos.environ.update({json.dumps(env)})\n"
            "import kvwidgets as kw\nw = kw.UsersThatFit()\nw",
        ],
    )
    with server:
        yield server


def test_a_rebuilt_widget_module_reaches_the_open_widget(browser, lab, dev_build):
    built = dev_build / "users_fit.js"
    text = built.read_text(encoding="utf-8")
    assert "sourceMappingURL=data:application/json" in text  # stack traces point at js/
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = None
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        lab.open_and_run_all(page, NOTEBOOK)
        page.wait_for_selector(".jp-OutputArea .kv-plot svg.main-svg")
        title = page.locator(".jp-OutputArea .kv-title")
        assert title.text_content() == OLD_TITLE
        assert text.count(f'"{OLD_TITLE}"') == 1
        built.write_text(text.replace(f'"{OLD_TITLE}"', f'"{NEW_TITLE}"'), encoding="utf-8")
        page.wait_for_function(
            "t => [...document.querySelectorAll('.jp-OutputArea .kv-title')].some(e => e.textContent === t)",
            arg=NEW_TITLE,
            timeout=20_000,
        )
        # the re-rendered widget draws again, and the old view is gone
        page.wait_for_selector(".jp-OutputArea .kv-plot svg.main-svg")
        assert page.locator(".jp-OutputArea .kv-title").all_text_contents() == [NEW_TITLE]
        watch.assert_clean()
        assert lab.log_errors() == []
    except BaseException:
        lab.show_failure(page)
        raise
    finally:
        context.close()
