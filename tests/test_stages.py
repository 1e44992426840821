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
        ("tests/browser/test_height_holds.py", ["browser"], "browser"),
        ("tests/browser/test_voila.py", ["browser", "slow"], "hosts"),  # starts a server
        ("tests/export/test_deck.py", ["slow"], "hosts"),  # runs a kernel, drives no browser
        ("tests/browser/test_lecture_slides.py", ["browser", "slow"], "slides"),
        ("tests/notebooks/test_lesson_05.py", [], "notebooks"),
        ("tests/notebooks/test_binder.py", ["slow"], "notebooks"),
        ("notebooks/05_users_that_fit.ipynb", [], "notebooks"),
        ("tests/lite/test_lite_site.py", ["browser", "slow"], "lite"),
        ("tests/lite/test_without_pandas.py", [], "fast"),
        ("tests/export/test_page.py", ["slow"], "hosts"),  # any slow test stays out of fast
    ],
)
def test_stage_of(path, markers, stage):
    assert stage_of(path, markers) == stage
    assert stage_of(ROOT / path, markers) == stage  # pytest hands over absolute paths


def test_test_sh_runs_every_pytest_stage_in_this_order():
    text = (ROOT / "scripts" / "test.sh").read_text()
    listed = re.search(r"^STAGES=\((.*)\)$", text, re.M).group(1).split()
    assert [s for s in listed if s != "js"] == list(STAGES)
    assert listed.index("js") == 1  # beside fast, which runs its checks in the full run


# The commands of `bash scripts/js.sh check`, each as the words the fast stage's
# tests/js/test_js_checks.py passes to subprocess (the full run leaves the js stage out of
# its lanes because the fast stage runs these).
JS_CHECKS = [
    ("scripts/build_js.mjs", "--out"),
    ("eslint", "--max-warnings", "0"),
    ("tsc", "--noEmit", "-p", "jsconfig.json"),
    ("scripts/tsc_strict.mjs", "jsconfig.strict.json"),
]


def test_the_full_run_puts_every_pytest_stage_in_one_lane():
    text = (ROOT / "scripts" / "test.sh").read_text()
    lanes = re.findall(r'"([^"]*)"', re.search(r"^LANES=\((.*)\)$", text, re.M).group(1))
    in_lanes = [stage for lane in lanes for stage in lane.split()]
    assert sorted(in_lanes) == sorted(STAGES), lanes  # each once; js is not a pytest stage


def test_the_fast_stage_runs_the_js_stages_checks():
    js_sh = (ROOT / "scripts" / "js.sh").read_text()
    check = re.search(r"^  check\)\n(.*?)^    ;;", js_sh, re.M | re.S).group(1)
    commands = [line.strip() for line in check.splitlines() if line.strip().startswith("node")]
    assert len(commands) == len(JS_CHECKS), commands
    fast = (ROOT / "tests" / "js" / "test_js_checks.py").read_text()
    for command, words in zip(commands, JS_CHECKS, strict=True):
        assert " ".join(words) in command, (command, words)
        assert f'"{words[0]}"' in fast, words
        assert ", ".join(f'"{w}"' for w in words[1:]) in fast, words


def _collections() -> dict[str, tuple[list[str], list[str]]]:
    """scripts/test.sh's COLLECT table: per stage, the paths and the --ignore'd paths."""
    text = (ROOT / "scripts" / "test.sh").read_text()
    table = re.search(r"^declare -A COLLECT=\(\n(.*?)^\)$", text, re.M | re.S).group(1)
    out = {}
    for stage, words in re.findall(r'^\s*\[(\w+)\]="([^"]*)"$', table, re.M):
        words = words.split()
        out[stage] = (
            [w for w in words if not w.startswith("--")],
            [w.removeprefix("--ignore=") for w in words if w.startswith("--ignore=")],
        )
    return out


def _collects(collection: tuple[list[str], list[str]], rel: str) -> bool:
    paths, ignored = collection
    under = lambda folder: rel == folder or rel.startswith(folder + "/")  # noqa: E731
    return any(under(p) for p in paths) and not any(under(i) for i in ignored)


def test_every_test_file_is_collected_by_the_stage_it_belongs_to():
    collections = _collections()
    assert set(collections) == set(STAGES)
    # (the notebooks in notebooks/ are no stage's test files: their test modules in
    # tests/notebooks run them, and test_series.py checks that each one has such a module)
    files = list((ROOT / "tests").rglob("test_*.py"))
    assert len(files) > 100
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        for markers in ([], ["browser"], ["slow"]):  # a file may hold tests of either kind
            stage = stage_of(path, markers)
            assert _collects(collections[stage], rel), (
                f"{rel} {markers}: in stage {stage}, not in its collection"
            )


def test_a_file_outside_a_stages_collection_is_caught():
    collections = _collections()
    assert not _collects(collections["browser"], "tests/lite/test_lite_site.py")
    assert not _collects(collections["fast"], "tests/notebooks/test_lesson_05.py")
    assert _collects(collections["notebooks"], "tests/notebooks/test_lesson_05.py")
    assert not _collects(collections["notebooks"], "notebooks/05_users_that_fit.ipynb")
