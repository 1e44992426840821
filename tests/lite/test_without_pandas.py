"""kvwidgets where pandas is missing, as in the offline JupyterLite site: the package, the
calculation API and the widgets import and work; kvwidgets.tables says in one line why
it cannot. Run in a fresh interpreter where `import pandas` fails."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = r"""
import sys
sys.modules["pandas"] = None          # import pandas -> ModuleNotFoundError
import kvwidgets as kw
w = kw.UsersThatFit()
assert w.result["users"] > 0, w.result
assert kw.users_that_fit("llama-3-8b", "H100", 8_000).users > 0
try:
    import kvwidgets.tables
except ModuleNotFoundError as exc:
    print("MESSAGE:", exc)
else:
    raise SystemExit("kvwidgets.tables imported without pandas")
assert "pandas" not in [m for m in sys.modules if sys.modules[m] is not None]
"""


def test_widgets_and_api_without_pandas():
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    message = proc.stdout.split("MESSAGE:", 1)[1].strip()
    assert message.startswith("kvwidgets.tables needs pandas") and "\n" not in message


HUB_SCRIPT = r"""
import sys
sys.modules["huggingface_hub"] = None   # as in the JupyterLite site
import kvwidgets as kw
try:
    kw.load_model("Qwen/Qwen3-8B")
except kw.ModelSourceError as exc:
    print("MESSAGE:", exc)
assert kw.load_model("llama-3-8b").kv_bytes_per_token() == 131_072
"""


def test_hub_names_without_huggingface_hub_fail_clearly():
    # notebook 02's Hub cell catches KVWidgetsError and falls back to the presets
    proc = subprocess.run([sys.executable, "-c", HUB_SCRIPT], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    message = proc.stdout.split("MESSAGE:", 1)[1].strip()
    assert "'Qwen/Qwen3-8B'" in message and "huggingface_hub package is not installed" in message
