"""tests/stages.py puts every test in exactly one stage of scripts/test.sh, by folder and marker."""

from __future__ import annotations

import re

import pytest

from tests.stages import ROOT, STAGES, stage_of


@pytest.mark.parametrize(
    ("path", "markers", "stage"),
    [
        ("tests/core/test_step.py", [], "fast"),
        ("tests/widgets/test_widgets.py", ["parametrize"], "fast"),
        ("tests/widgets/test_redraw_in_chromium.py", ["browser"], "browser"),
        ("tests/browser/test_setup.py", [], "fast"),  # no browser needed to check the set-up's errors
        ("tests/browser/test_voila.py", ["browser", "slow"], "browser"),
        ("tests/browser/test_lecture_slides.py", ["browser", "slow"], "slides"),
        ("tests/notebooks/test_lesson_05.py", [], "notebooks"),
        ("tests/notebooks/test_binder.py", ["slow"], "notebooks"),
        ("notebooks/05_users_that_fit.ipynb", [], "notebooks"),
        ("tests/lite/test_lite_site.py", ["browser", "slow"], "lite"),
        ("tests/lite/test_without_pandas.py", [], "fast"),
        ("tests/export/test_page.py", ["slow"], "browser"),  # any slow test stays out of fast
    ],
)
def test_stage_of(path, markers, stage):
    assert stage_of(path, markers) == stage
    assert stage_of(ROOT / path, markers) == stage  # pytest hands over absolute paths


def test_test_sh_runs_every_pytest_stage_in_this_order():
    text = (ROOT / "scripts" / "test.sh").read_text()
    listed = re.search(r"^STAGES=\((.*)\)$", text, re.M).group(1).split()
    assert [s for s in listed if s != "js"] == list(STAGES)
    assert listed.index("js") == 1  # right after fast: a JS fault shows before the slow stages
