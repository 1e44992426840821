"""The notebooks as files: the series is complete, linked, stored clean, and each one run.

Running them is the test modules' job: each runs its notebook once, whole and unchanged, in
a fresh kernel (executed.py), and test_every_notebook_is_run_whole_by_a_test_module checks
that none is left out. The other checks are about what a reader opening the repository finds.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from .repo_copy import NOTEBOOKS

PARTS = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def load(name: str) -> dict:
    return json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))


def markdown(nb: dict) -> str:
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_eleven_parts_in_order():
    assert [p[:2] for p in PARTS] == [f"{i:02d}" for i in range(1, 12)]
    assert (NOTEBOOKS / "index.ipynb").exists()


def test_index_links_every_part():
    links = set(re.findall(r"\]\(([^)]+\.ipynb)\)", markdown(load("index.ipynb"))))
    assert set(PARTS) | {"lecture.ipynb"} <= links, f"index.ipynb does not link {sorted(set(PARTS) - links)}"


@pytest.mark.parametrize("name", PARTS)
def test_each_part_opens_with_its_question(name):
    title = load(name)["cells"][0]["source"][0]
    assert title.startswith("# ") and title.rstrip().endswith("?"), f"{name} opens with {title!r}"


@pytest.mark.parametrize("name", PARTS)
def test_each_part_links_index_and_neighbours(name):
    text = markdown(load(name))
    assert "(index.ipynb)" in text
    i = PARTS.index(name)
    if i + 1 < len(PARTS):
        assert f"({PARTS[i + 1]})" in text, f"{name} does not link the next part"
    if i > 0:
        assert f"({PARTS[i - 1]})" in text, f"{name} does not link the previous part"


@pytest.mark.parametrize("name", ["index.ipynb", "lecture.ipynb", *PARTS])
def test_stored_without_outputs_or_widget_state(name):
    nb = load(name)
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], f"{name} cell {i} has stored outputs"
            assert cell["execution_count"] is None, f"{name} cell {i} has an execution count"
    assert "widgets" not in nb["metadata"], f"{name} stores widget state"


@pytest.mark.parametrize("name", ["index.ipynb", "lecture.ipynb", *PARTS])
def test_no_test_code_in_the_readers_cells(name):
    """The notebooks are lessons: numbers are computed by the package in the cells and
    checked by tests/notebooks/test_lesson_NN.py, never by asserts a reader would trip over."""
    cells = [("".join(c["source"]), i) for i, c in enumerate(load(name)["cells"]) if c["cell_type"] == "code"]
    assert any("import kvwidgets as kw" in src for src, _ in cells)
    for src, i in cells:
        assert not re.search(r"^\s*assert\b", src, flags=re.M), f"{name} cell {i} holds an assert"


@pytest.mark.parametrize("name", PARTS)
def test_each_part_has_a_test_of_its_stated_numbers(name):
    assert (Path(__file__).parent / f"test_lesson_{name[:2]}.py").exists()


def notebooks_run_whole(module: Path) -> set[str]:
    """The notebooks a test module runs whole and unchanged: executed(NAME, ...) or
    run(NAME, ...) without replace=, NAME a string or a module-level constant holding one."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    constants = {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        for target in node.targets
        if isinstance(target, ast.Name) and isinstance(node.value.value, str)
    }
    found = set()
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.args):
            continue
        if call.func.id not in ("executed", "run") or any(k.arg == "replace" for k in call.keywords):
            continue
        first = call.args[0]
        if isinstance(first, ast.Constant):
            found.add(first.value)
        elif isinstance(first, ast.Name) and first.id in constants:
            found.add(constants[first.id])
    return found


def test_every_notebook_is_run_whole_by_a_test_module():
    """Every notebook runs top to bottom on a fresh kernel in the notebooks stage, where a
    failing cell fails its module's tests; a notebook added without a test module is caught."""
    run_whole = set().union(*(notebooks_run_whole(m) for m in Path(__file__).parent.glob("test_*.py")))
    stored = {p.name for p in NOTEBOOKS.glob("*.ipynb")}
    assert stored - run_whole == set(), f"no test module runs {sorted(stored - run_whole)} whole"


def test_mistakes_notebook_hides_answers_and_checks_them():
    nb = load("10_mistakes.ipynb")
    text = markdown(nb)
    questions = re.findall(r"\*\*Question (\d+[a-z]?)\.\*\*", text)
    assert len(questions) >= 7
    assert text.count("<details>") >= 6
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    for q in questions:
        assert f"answer_{q} = None" in code, f"question {q} has no answer cell"
        assert f"check({q if q.isdigit() else repr(q)}" in code.replace('"', "'"), (
            f"question {q} is never checked"
        )
