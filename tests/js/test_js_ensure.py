"""`bash scripts/js.sh ensure` runs npm ci only when package-lock.json changed since the
last install, so every scripts/test.sh call does not pay 20-30 s of npm for nothing."""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# stands in for npm: records each call, and empties node_modules as npm ci does
FAKE_NPM = """#!/usr/bin/env bash
echo "$*" >> "$NPM_CALLS"
rm -rf node_modules && mkdir node_modules
"""


def test_ensure_installs_only_when_the_lock_changed(tmp_path):
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "js.sh", repo / "scripts" / "js.sh")
    lock = repo / "package-lock.json"
    lock.write_text('{"lockfileVersion": 3}\n')
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "npm").write_text(FAKE_NPM)
    (bin_dir / "npm").chmod(0o755)
    calls = tmp_path / "calls"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "NPM_CALLS": str(calls)}

    def ensure() -> int:
        subprocess.run(["bash", "scripts/js.sh", "ensure"], cwd=repo, env=env, check=True, timeout=60)
        return len(calls.read_text().splitlines()) if calls.exists() else 0

    assert ensure() == 1  # no node_modules yet
    assert ensure() == 1  # the same lock: nothing to do
    lock.write_text('{"lockfileVersion": 3, "packages": {}}\n')
    assert ensure() == 2  # a changed lock installs again
    shutil.rmtree(repo / "node_modules")
    assert ensure() == 3  # so does a deleted node_modules
    assert calls.read_text().splitlines()[0].startswith("ci ")
