"""Precompile, inside Pyodide, the modules the JupyterLite kernel imports as it starts.

Run by scripts/pyodide_precompile.mjs (Node), never by the machine's own Python: a .pyc
holds bytecode of one CPython minor version, and Pyodide's (3.14) is not this machine's.

Pyodide runs with sys.dont_write_bytecode, so without this every kernel start compiles
IPython, jedi, the widgets and the standard library modules they import from source,
several seconds of each reader's wait. The pycs are hash-based and unchecked
(PEP 552): importlib uses them without reading the source's mtime, which the files
unpacked from a wheel or read from a zip do not keep. Only the modules a kernel start
and `import kvwidgets` load are compiled (a pyc of every file would add about 11 MB to
the site for modules most readers never import); the rest compile on import, as before.
"""

from __future__ import annotations

import importlib.util
import sys
import warnings
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc  # the writer py_compile uses

TAG = sys.implementation.cache_tag  # "cpython-314"


def imported_files() -> set[str]:
    """Runtime paths of the source files of every module loaded so far."""
    files = set()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if path and path.endswith(".py"):
            files.add(path)
    return files


def pyc_name(name: str, in_zip: bool) -> str:
    """Where importlib looks for the pyc of source file `name` (a path inside the archive).

    zipimport reads `mod.pyc` beside `mod.py`; the path finder reads __pycache__/mod.TAG.pyc."""
    if in_zip:
        return name[:-3] + ".pyc"
    folder, _, base = name.rpartition("/")
    cache = f"{folder}/__pycache__" if folder else "__pycache__"
    return f"{cache}/{base[:-3]}.{TAG}.pyc"


def precompile(src: str, dst: str, runtime_root: str, in_zip: bool, wanted: set[str]) -> int:
    """Copy archive `src` to `dst` with a pyc beside each member whose runtime path
    (runtime_root + member) is in `wanted`; a wheel's RECORD lists the added files.
    Returns how many pycs were added."""
    added = []
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        record = None
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                record = (info, data)
                continue
            zout.writestr(info, data)
            path = runtime_root + info.filename
            if path not in wanted:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # e.g. invalid escapes: the import would warn the same
                # the path the import would give the code object (zipimport does not rewrite it)
                code = compile(data, path, "exec", dont_inherit=True)
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            name = pyc_name(info.filename, in_zip)
            zout.writestr(zipfile.ZipInfo(name, info.date_time), pyc, compress_type=zipfile.ZIP_DEFLATED)
            added.append(name)
        if record is not None:
            info, data = record
            lines = data.decode("utf-8").rstrip("\n") + "\n" + "".join(f"{n},,\n" for n in added)
            zout.writestr(info, lines)
    return len(added)
