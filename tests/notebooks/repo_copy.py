"""A throwaway copy of the repository holding only what Binder would see.

Binder clones the repository; the working tree here may also hold a .venv, caches or
build output, so the Binder tests work on a clean copy of the files that matter.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
BINDER = ROOT / "binder"

# What `pip install .` and the notebooks need, plus binder/ itself.
COPIED = ("binder", "kvwidgets", "notebooks", "pyproject.toml", "README.md", "LICENSE")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", "node_modules")


def copy_repo(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=IGNORED)
        else:
            shutil.copy2(src, dest / name)
    return dest
