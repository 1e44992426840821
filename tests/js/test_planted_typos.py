"""The strict type check catches a misspelt key: tsc (scripts/tsc_strict.mjs over
jsconfig.strict.json) run on a copy of the widgets' JavaScript with typos planted in it.

Three kinds of typo, each of which the loose check (jsconfig.json) lets through in .js files:
a key of a computed result (`fit.num_gpu` for core.budget.Fit's `num_gpus`), a key of
Model.shape() in the closed forms, and a trait name a widget reads from its model. The copy
without typos must be clean, so that what is reported is the typos and nothing else.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS = Path("kvwidgets") / "widgets" / "js"

# file, text, its misspelling, what tsc must say about it
TYPOS = [
    (
        JS / "widgets" / "users_fit.js",
        "const where = `${fit.num_gpus} ${gpu.name}`",
        "const where = `${fit.num_gpu} ${gpu.name}`",
        "'num_gpu' does not exist",
    ),
    (
        JS / "calc" / "budget.js",
        "max_context: shape.max_context ?? null",
        "max_context: shape.max_contxt ?? null",
        "'max_contxt' does not exist",
    ),
    (
        JS / "widgets" / "users_fit.js",
        'numGpus: model.get("num_gpus")',
        'numGpus: model.get("num_gpu")',
        '"num_gpu"',
    ),
]


def copy_front_end(dest: Path) -> Path:
    """The JavaScript, the two type-check projects and the strict runner, as laid out in the repository."""
    shutil.copytree(ROOT / JS, dest / JS, ignore=shutil.ignore_patterns("*.css"))
    for name in ("jsconfig.json", "jsconfig.strict.json", "scripts/tsc_strict.mjs"):
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, dest / name)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")  # typescript and @anywidget/types
    return dest


def strict_check(where: Path) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    assert node, "Node.js is needed for the type check"
    assert (ROOT / "node_modules" / "typescript").is_dir(), "run `bash scripts/js.sh install` first"
    return subprocess.run(
        [node, "scripts/tsc_strict.mjs", "jsconfig.strict.json"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=300,
    )


def plant(where: Path, path: Path, text: str, typo: str) -> None:
    source = (where / path).read_text()
    assert source.count(text) == 1, f"{path}: expected {text!r} exactly once to plant the typo in"
    (where / path).write_text(source.replace(text, typo))


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> subprocess.CompletedProcess:
    where = copy_front_end(tmp_path_factory.mktemp("typos"))
    for path, text, typo, _ in TYPOS:
        plant(where, path, text, typo)
    return strict_check(where)


def test_the_copy_without_typos_is_clean(tmp_path):
    proc = strict_check(copy_front_end(tmp_path))
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


@pytest.mark.parametrize(("path", "text", "typo", "said"), TYPOS, ids=["fit-key", "shape-key", "state-key"])
def test_a_planted_typo_is_reported(planted, path, text, typo, said):
    assert planted.returncode != 0, "the strict check passed with typos planted"
    lines = [
        line for line in planted.stdout.splitlines() if line.startswith(str(path)) and "error TS" in line
    ]
    assert any(said in line for line in lines), f"no error saying {said} in {path}:\n{planted.stdout[-4000:]}"


def test_only_the_planted_typos_are_reported(planted):
    errors = [line for line in planted.stdout.splitlines() if "error TS" in line]
    files = {line.split("(", 1)[0] for line in errors}
    assert files <= {str(path) for path, *_ in TYPOS}, errors
