"""kvwidgets in JupyterLite's Pyodide kernel: cells that need pandas say so in one line.

The offline JupyterLite site (scripts/lite.sh) has no pandas or numpy: no WebAssembly
build of them is reachable there. The widgets and the calculation API do not need
them; the notebooks' table cells do. Rather than a traceback that stops "Run All",
such a cell prints one line saying why it cannot run here, and the notebook goes on.
A cell counts as needing pandas when it fails on importing pandas or numpy (directly
or through kvwidgets.tables), on the names `pd` / `np` the notebooks import them as,
or on a name that an earlier such cell would have defined. Every other error shows
its usual traceback.

kvwidgets installs this on import only where sys.platform is "emscripten" (Pyodide).
"""

from __future__ import annotations

import ast
import linecache

# module -> the name the notebooks import it as
OPTIONAL_MODULES = {"pandas": "pd", "numpy": "np"}
NOTE = (
    "[JupyterLite] this cell needs {module}, which this offline JupyterLite site does not have "
    "(no WebAssembly build of it is available here); run the notebook in JupyterLab to see it"
)

_lost_names: set[str] = set()  # names that cells skipped for a missing module would have defined


def _assigned_names(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = set()
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
            targets = [node.target]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):  # e.g. from kvwidgets.tables import ...
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        for target in targets:
            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def missing_module(etype, value) -> str | None:
    """The optional module a cell's error comes down to, or None."""
    if issubclass(etype, ModuleNotFoundError):
        top = (getattr(value, "name", None) or "").split(".")[0]
        return top if top in OPTIONAL_MODULES else None
    if issubclass(etype, NameError):
        name = getattr(value, "name", None)
        for module, alias in OPTIONAL_MODULES.items():
            if name == alias:
                return module
        if name in _lost_names:
            return "pandas"
    return None


def _handler(shell, etype, value, tb, tb_offset=None):
    module = missing_module(etype, value)
    if module is None:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        return []
    # the cell's own frame: the first one of the traceback running in the notebook's
    # namespace (IPython keeps the cell's source in linecache under its file name)
    while tb is not None and tb.tb_frame.f_globals is not shell.user_ns:
        tb = tb.tb_next
    if tb is not None:
        _lost_names.update(_assigned_names("".join(linecache.getlines(tb.tb_frame.f_code.co_filename))))
    print(NOTE.format(module=module))
    return []


def install_note(shell=None) -> bool:
    """Make the IPython shell (default: the running one) print the one-line note for
    cells that need a missing optional module; False when there is no shell."""
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
    if shell is None:
        return False
    shell.set_custom_exc((ModuleNotFoundError, NameError), _handler)
    return True
