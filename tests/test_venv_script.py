"""scripts/_venv.sh installs only what the venv lacks: a changed pyproject.toml or other
extras install again, and a venv that holds the test extra (which includes dev) serves a
request for dev as it is, so the fast stage never shrinks it. The install goes through uv,
into the venv's own python, with the whole venv compiled to bytecode only where
PYTHONDONTWRITEBYTECODE keeps Python from caching it at import."""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# stands in for uv: records each call instead of installing (`venv` makes the bare folder)
FAKE_UV = """#!/usr/bin/env bash
echo "$*" >> "$UV_CALLS"
if [ "$1" = venv ]; then mkdir -p "${@: -1}"; fi
"""


def repo_with_fake_uv(tmp_path: Path) -> Path:
    """A repository holding _venv.sh and a pyproject.toml, its .venv-uv holding the fake uv."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "_venv.sh", repo / "scripts" / "_venv.sh")
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    uv = repo / ".venv-uv" / "bin" / "uv"
    uv.parent.mkdir(parents=True)
    uv.write_text(FAKE_UV)
    uv.chmod(0o755)
    return repo


def test_the_installer_runs_only_for_what_the_venv_lacks(tmp_path):
    repo = repo_with_fake_uv(tmp_path)
    venv = repo / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    (venv / "bin" / "python").chmod(0o755)
    calls = tmp_path / "calls"

    def venv_with(extras: str) -> list[str]:
        env = {**os.environ, "KVW_VENV": str(venv), "KVW_EXTRAS": extras, "UV_CALLS": str(calls)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run(["bash", "-c", "source scripts/_venv.sh"], cwd=repo, env=env, check=True, timeout=60)
        return calls.read_text().splitlines() if calls.exists() else []

    python = venv / "bin" / "python"
    assert venv_with("dev") == [f"pip install --quiet --python {python} -e .[dev]"]
    assert len(venv_with("dev")) == 1  # installed already
    assert venv_with("test")[-1].endswith("-e .[test]")  # dev lacks the hosts
    assert len(venv_with("dev")) == 2  # test holds dev: nothing to do
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\nversion = '1'\n")
    assert venv_with("dev")[-1].endswith("-e .[dev]")  # a changed pyproject.toml installs again


def test_a_missing_venv_is_made_by_uv_with_pip_in_it(tmp_path):
    repo = repo_with_fake_uv(tmp_path)
    calls = tmp_path / "calls"
    env = {**os.environ, "KVW_VENV": str(repo / "new"), "KVW_EXTRAS": "dev", "UV_CALLS": str(calls)}
    subprocess.run(["bash", "-c", "source scripts/_venv.sh"], cwd=repo, env=env, check=True, timeout=60)
    made = calls.read_text().splitlines()[0]
    assert made.startswith("venv --quiet --seed --python ") and made.endswith(f" {repo / 'new'}")


def test_the_whole_venv_is_compiled_where_python_caches_no_bytecode(tmp_path):
    repo = repo_with_fake_uv(tmp_path)
    calls = tmp_path / "calls"
    python = repo / "new" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("")
    python.chmod(0o755)
    env = {**os.environ, "KVW_VENV": str(repo / "new"), "KVW_EXTRAS": "dev", "UV_CALLS": str(calls)}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    subprocess.run(["bash", "-c", "source scripts/_venv.sh"], cwd=repo, env=env, check=True, timeout=60)
    assert calls.read_text().splitlines() == [
        f"pip install --quiet --python {python} --compile-bytecode -e .[dev]"
    ]


def test_test_sh_lets_python_cache_bytecode_before_any_venv_is_made():
    text = (ROOT / "scripts" / "test.sh").read_text()
    assert "unset PYTHONDONTWRITEBYTECODE" in text
    assert text.index("unset PYTHONDONTWRITEBYTECODE") < text.index("source scripts/_venv.sh")
