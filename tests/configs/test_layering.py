"""huggingface_hub lives in kvwidgets/configs/hub.py alone, and only loads when a repo id is used;
configs are data, so no module ever imports transformers."""

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "kvwidgets"


def imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module.split(".")[0]


def test_only_hub_module_imports_huggingface_hub_and_none_imports_transformers():
    importers = {
        p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*.py")
        if "huggingface_hub" in set(imported_modules(p))
    }
    assert importers == {"configs/hub.py"}
    assert not [p for p in PACKAGE.rglob("*.py") if "transformers" in set(imported_modules(p))]


def test_presets_and_dicts_do_not_load_huggingface_hub():
    code = (
        "import sys, kvwidgets as kw; kw.load_model('llama-3-8b'); "
        "kw.load_model({'num_hidden_layers': 2, 'num_attention_heads': 2, 'hidden_size': 64}); "
        "print('huggingface_hub' in sys.modules)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=PACKAGE.parent
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False"
