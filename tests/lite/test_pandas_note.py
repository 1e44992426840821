"""kvwidgets.lite: in an IPython shell without pandas, cells that need it print one line
and do not fail; other errors keep their traceback. (In JupyterLite kvwidgets installs
this itself; here it is installed by hand in a fresh interpreter where pandas is hidden.)"""

from __future__ import annotations

import subprocess
import sys

SCRIPT = r"""
import sys
sys.modules["pandas"] = None
from IPython.core.interactiveshell import InteractiveShell
from kvwidgets.lite import install_note
shell = InteractiveShell.instance()
assert install_note(shell)
def run(label, code):
    print(f"--- {label}", flush=True)
    shell.run_cell(code, store_history=True)
    sys.stdout.flush()
run("imports", "try:\n    import pandas as pd\nexcept ModuleNotFoundError:\n    pass\nimport kvwidgets as kw")
run("dataframe", "table = pd.DataFrame({'a': [1]})\nprint('not reached')")
run("lost", "table.round(2)")
run("tables", "from kvwidgets.tables import users_table")
run("api", "print('users', kw.users_that_fit('llama-3-8b', 'H100', 8000).users)")
run("zero", "1 / 0")
run("name", "undefined_name")
"""


def test_pandas_cells_print_one_line():
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    blocks = dict(b.split("\n", 1) for b in proc.stdout.split("--- ")[1:])
    notes = sorted(k for k, v in blocks.items() if "[JupyterLite] this cell needs pandas" in v)
    # pd.DataFrame, the table that cell would have made, kvwidgets.tables
    assert notes == ["dataframe", "lost", "tables"], out
    for key in notes:
        assert blocks[key].strip().count("\n") == 0, blocks[key]  # one line, no traceback
    assert blocks["imports"].strip() == "" and "not reached" not in out
    assert blocks["api"].startswith("users ")
    assert "ZeroDivisionError" in blocks["zero"] and "NameError" in blocks["name"]  # tracebacks kept
