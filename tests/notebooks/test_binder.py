"""binder/ gives mybinder.org what it needs: a pinned Python, kvwidgets installed, JupyterLab.

No Docker engine exists here, so the image itself is never built. Instead:
  1. jupyter-repo2docker (what mybinder.org runs) generates its Dockerfile with
     --no-build, and we check it picks our Python and runs our install steps;
  2. a fresh virtual environment is built from binder/'s files alone, the way the
     image would be, and one notebook is executed with that environment's Python.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from .repo_copy import BINDER, ROOT, copy_repo

RUNTIME = (BINDER / "runtime.txt").read_text().strip()
PYTHON_VERSION = RUNTIME.removeprefix("python-")


def pinned_requirements() -> dict[str, Requirement]:
    reqs = {}
    for line in (BINDER / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            r = Requirement(line)
            reqs[r.name.lower().replace("_", "-")] = r
    return reqs


def project_dependencies() -> list[Requirement]:
    import tomllib

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [Requirement(d) for d in pyproject["project"]["dependencies"]]


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would let the repository's own files leak in."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    env.update(extra)
    return env


# ---- the files themselves (fast) ----------------------------------------------------------


def test_runtime_pins_a_python_repo2docker_reads():
    # repo2docker reads binder/runtime.txt as "python-X.Y" (buildpacks/base.py: runtime).
    assert re.fullmatch(r"python-3\.\d+", RUNTIME), f"binder/runtime.txt must be python-X.Y, got {RUNTIME!r}"
    import tomllib
    from packaging.specifiers import SpecifierSet

    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert PYTHON_VERSION in SpecifierSet(requires)


def test_requirements_pin_every_runtime_dependency_within_pyproject_ranges():
    pins = pinned_requirements()
    for dep in project_dependencies():
        key = dep.name.lower().replace("_", "-")
        assert key in pins, f"binder/requirements.txt does not pin {dep.name} (a kvwidgets dependency)"
        spec = pins[key].specifier
        assert len(spec) == 1 and next(iter(spec)).operator == "==", f"{dep.name} is not pinned with =="
        version = next(iter(spec)).version
        assert dep.specifier.contains(version), (
            f"{dep.name}=={version} is outside pyproject's {dep.specifier}"
        )
    assert "jupyterlab" in pins


def test_requirements_are_the_slides_stack():
    # Binder is where a class opens the lecture: every package of the lab and slides extras
    # is pinned within its range, so the slideshow gets the widget manager it can load.
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    pins = pinned_requirements()
    for dep in map(Requirement, extras["lab"] + extras["slides"]):
        key = dep.name.lower().replace("_", "-")
        assert key in pins, f"binder/requirements.txt does not pin {dep.name} (lab or slides extra)"
        version = next(iter(pins[key].specifier)).version
        assert dep.specifier.contains(version), (
            f"{dep.name}=={version} is outside the extra's {dep.specifier}"
        )


def test_postbuild_installs_kvwidgets_and_makes_lab_the_default():
    post = BINDER / "postBuild"
    assert os.access(post, os.X_OK), "binder/postBuild must be executable"
    text = post.read_text()
    assert text.startswith("#!/bin/bash") and "set -euo pipefail" in text
    assert re.search(r"pip install .*--no-deps \.$", text, re.M)
    assert "default_url" in text and "/lab" in text


# ---- repo2docker's own reading of binder/ ---------------------------------------------------


@pytest.mark.slow
def test_repo2docker_generates_a_build_with_our_python_and_install_steps(tmp_path):
    import importlib.util

    assert importlib.util.find_spec("repo2docker"), (
        "jupyter-repo2docker is missing: it is in the test extra (pip install -e '.[test]')"
    )
    repo = copy_repo(tmp_path / "repo")
    # Binder builds as user 1000 (jovyan); --no-build prints the Dockerfile without Docker.
    cmd = [
        sys.executable,
        "-m",
        "repo2docker",
        "--no-build",
        "--no-run",
        "--debug",
        "--user-id",
        "1000",
        "--user-name",
        "jovyan",
        str(repo),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=clean_env())
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]

    assert f"Building conda environment for python={PYTHON_VERSION}" in out
    assert "Python version unspecified" not in out
    steps = [line.strip() for line in out.splitlines() if line.startswith(("RUN", "COPY", "USER"))]
    install_reqs = next(
        i for i, s in enumerate(steps) if 'pip install --no-cache-dir -r "binder/requirements.txt"' in s
    )
    copy_repo_step = next(i for i, s in enumerate(steps) if s.startswith("COPY --chown=1000:1000 src/ "))
    post_build = steps.index("RUN ./binder/postBuild")
    # requirements first, then the repository, then postBuild (which needs the repository)
    assert install_reqs < copy_repo_step < post_build
    assert steps[post_build - 1] == "RUN chmod +x binder/postBuild"


# ---- the environment built from binder/ alone, running a notebook ---------------------------


@pytest.mark.slow
def test_binder_environment_runs_a_notebook(tmp_path):
    repo = copy_repo(tmp_path / "repo")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    bindir = venv / "bin"
    env = clean_env(
        PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
        VIRTUAL_ENV=str(venv),
        # Keep Jupyter's per-user files (kernelspecs, the config postBuild writes) in tmp.
        JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
        JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )

    def run(cmd, cwd=repo, timeout=600):
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, (
            f"{shlex.join(map(str, cmd))} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
        )
        return proc.stdout

    # What repo2docker runs, in its order: requirements.txt, then postBuild from the repo root.
    # --no-compile: bytecode changes nothing here and costs a third of the install time.
    run([bindir / "python", "-m", "pip", "install", "-q", "--no-compile", "-r", "binder/requirements.txt"])
    run(["bash", "binder/postBuild"])

    where = run([bindir / "python", "-c", "import kvwidgets; print(kvwidgets.__file__)"], cwd=tmp_path)
    assert str(venv) in where, f"kvwidgets imported from {where.strip()}, not the Binder environment"
    config = (tmp_path / "jupyter-config" / "jupyter_server_config.py").read_text()
    assert 'default_url = "/lab' in config

    # One extra cell at the end reports which Python the kernel ran and where kvwidgets came from.
    notebook = repo / "notebooks" / "05_users_that_fit.ipynb"
    nb = json.loads(notebook.read_text())
    nb["cells"].append(
        {
            "cell_type": "code",
            "id": "binder-probe",
            "metadata": {},
            "outputs": [],
            "execution_count": None,
            "source": "import sys, kvwidgets\nprint('PROBE', sys.prefix, kvwidgets.__file__)",
        }
    )
    notebook.write_text(json.dumps(nb))

    out_dir = tmp_path / "executed"
    run(
        [
            bindir / "python",
            "-m",
            "jupyter",
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            "--ExecutePreprocessor.timeout=120",
            "--output-dir",
            str(out_dir),
            str(notebook),
        ],
        cwd=repo,
    )
    nb = json.loads((out_dir / "05_users_that_fit.ipynb").read_text())
    code_cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
    # the probe's one print, from every stdout piece: a busy kernel can flush a line in two
    printed = [o for o in code_cells[-1]["outputs"] if o.get("name") == "stdout"]
    probe = "".join("".join(o["text"]) for o in printed).split()
    assert probe[0] == "PROBE" and Path(probe[1]).resolve() == venv.resolve(), f"kernel ran in {probe[1]}"
    assert probe[2].startswith(str(venv)), f"the kernel imported kvwidgets from {probe[2]}"
    assert code_cells and all(c["execution_count"] for c in code_cells), "not every cell ran"
    outputs = [o for c in code_cells for o in c["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    # the worked example printed its 53 users, and the widgets rendered as widget views
    printed_by_cell = ["".join("".join(o.get("text", "")) for o in c["outputs"]) for c in code_cells]
    assert any("-> 53 users" in text for text in printed_by_cell)
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
