"""What Node's test runner must report for a test file: every test in it passed.

The expected count is read from the file itself (its `test(` calls), so adding a test
needs no number bumped here, and a test that silently stopped running (a file that
throws before registering the rest, a skipped one) still fails the count."""

from __future__ import annotations

import re
from pathlib import Path

TEST_CALL = re.compile(r"^\s*test\(", re.MULTILINE)


def tests_in(node_test: Path) -> int:
    """The `test(...)` calls written in a node:test file."""
    return len(TEST_CALL.findall(node_test.read_text(encoding="utf-8")))


def assert_every_test_passed(stdout: str, node_test: Path) -> None:
    expected = tests_in(node_test)
    assert expected > 0, f"{node_test.name}: no test(...) calls found"
    summary = {
        key: int(n)
        for key, n in re.findall(r"^# (tests|pass|fail|skipped|todo|cancelled) (\d+)$", stdout, re.M)
    }
    assert summary.get("pass") == expected and summary.get("tests") == expected, (
        f"{node_test.name} has {expected} tests; Node reported {summary}"
    )
