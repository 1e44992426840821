"""Fixtures and options shared across test folders.

`--stage NAME` keeps only that stage's tests (the rule is in tests/stages.py; scripts/test.sh
runs the stages one by one). One Playwright instance per test session: its sync API refuses a second instance
while the first is alive, so every test that drives Chromium (tests/browser,
tests/widgets' redraw checks) takes this one `browser`.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import CHROMIUM_ARGS, chromium_path
from tests.stages import STAGES, stage_of


def pytest_addoption(parser):
    parser.addoption(
        "--stage",
        choices=STAGES,
        help="run only this stage's tests (tests/stages.py says which test is in which stage)",
    )


def pytest_collection_modifyitems(config, items):
    stage = config.getoption("--stage")
    if not stage:
        return
    counts = dict.fromkeys(STAGES, 0)
    keep, drop = [], []
    for item in items:
        own = stage_of(item.path, (m.name for m in item.iter_markers()))
        counts[own] += 1
        (keep if own == stage else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
    # one line that shows the split: the stages' counts add up to everything collected
    split = ", ".join(f"{name} {n}" for name, n in counts.items())
    config.stash[STAGE_SPLIT] = f"stage {stage}: {len(keep)} of {len(keep) + len(drop)} collected ({split})"


STAGE_SPLIT = pytest.StashKey[str]()


def pytest_report_collectionfinish(config, start_path, items):
    return config.stash.get(STAGE_SPLIT, None)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
