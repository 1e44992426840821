"""Which stage of scripts/test.sh runs each test: one rule, so every test is in exactly one.

scripts/test.sh runs the stages in this order, each as its own pytest run with `--stage
NAME` over the folders that can hold its tests (its COLLECT table), which keeps that
stage's tests and deselects the rest (tests/conftest.py). The "js" stage is not pytest
(scripts/js.sh check); the full run leaves it out, since the fast stage's tests/js runs
the same checks.

  fast       everything that needs no browser, no notebook kernel run and no site build
  browser    tests marked `browser` and not `slow`, outside the folders below: Chromium
             through Playwright on pages a test writes and opens (exported widgets, the gallery)
  hosts      tests marked `slow`, outside the folders below: they start a server or a kernel
             (JupyterLab, Notebook 7, Voila, marimo, nbconvert, a MyST build), most of them
             then drive Chromium in it. Kept apart from browser so that the full run can run
             the two side by side (scripts/test.sh LANES)
  notebooks  tests/notebooks (each lesson runs its notebook in a kernel; Binder's
             environment is built); a notebook in notebooks/ given to scripts/test.sh as a
             path is run by nbval, in this stage's venv
  lite       tests/lite marked browser or slow: the JupyterLite site is built and opened
             (the quick tests there, kvwidgets without pandas, are fast)
  slides     tests/browser/test_lecture_slides.py, in its own venv (.venv-slides) with the
             slides extra: jupyterlab-rise holds jupyterlab_widgets at 3.0.10
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("fast", "browser", "hosts", "notebooks", "lite", "slides")
SLIDES_TEST = Path("tests/browser/test_lecture_slides.py")
HEAVY = {"browser", "slow"}  # markers that keep a test out of the fast stage


def stage_of(path: Path, markers: Iterable[str]) -> str:
    """The stage of a test in `path` (relative to the repository, or absolute) with these markers."""
    path = Path(path)
    rel = path.resolve().relative_to(ROOT) if path.is_absolute() else path
    marks = set(markers)
    heavy = bool(HEAVY & marks)
    if rel == SLIDES_TEST:
        return "slides"
    if rel.parts[:2] == ("tests", "lite") and heavy:
        return "lite"
    if rel.parts[:1] == ("notebooks",) or rel.parts[:2] == ("tests", "notebooks"):
        return "notebooks"
    if "slow" in marks:
        return "hosts"
    return "browser" if "browser" in marks else "fast"
