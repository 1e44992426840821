"""scripts/_venv.sh runs pip only when the venv lacks what is asked: a changed
pyproject.toml or other extras install again, and a venv that holds the test extra (which
includes dev) serves a request for dev as it is, so the fast stage never shrinks it."""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# stands in for the venv's python: records each pip call instead of installing
FAKE_PYTHON = """#!/usr/bin/env bash
echo "$*" >> "$PIP_CALLS"
"""


def test_pip_runs_only_for_what_the_venv_lacks(tmp_path):
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "_venv.sh", repo / "scripts" / "_venv.sh")
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    venv = repo / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text(FAKE_PYTHON)
    (venv / "bin" / "python").chmod(0o755)
    calls = tmp_path / "calls"

    def venv_with(extras: str) -> list[str]:
        env = {**os.environ, "KVW_VENV": str(venv), "KVW_EXTRAS": extras, "PIP_CALLS": str(calls)}
        subprocess.run(["bash", "-c", "source scripts/_venv.sh"], cwd=repo, env=env, check=True, timeout=60)
        return calls.read_text().splitlines() if calls.exists() else []

    assert venv_with("dev") == ["-m pip install --quiet --disable-pip-version-check -e .[dev]"]
    assert len(venv_with("dev")) == 1  # installed already
    assert venv_with("test")[-1].endswith("-e .[test]")  # dev lacks the hosts
    assert len(venv_with("dev")) == 2  # test holds dev: nothing to do
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\nversion = '1'\n")
    assert venv_with("dev")[-1].endswith("-e .[dev]")  # a changed pyproject.toml installs again
