"""Start a notebook app (Voila, marimo) on 127.0.0.1 for one test module, and stop it.

The app runs in its own process group with this checkout first on PYTHONPATH, logs to a
file beside its folder, and is waited for until its port answers (a request for the page
itself would start a kernel in some apps, so only the port is probed).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .jupyterlab import REPO_ROOT


@contextlib.contextmanager
def app_server(
    name: str, cmd: list[str], folder: Path, port: int, env: dict[str, str] | None = None, wait_s: float = 90
) -> Iterator[str]:
    """Run `cmd` in `folder` until the block ends; yields http://127.0.0.1:<port>/."""
    env = dict(os.environ, **(env or {}))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p)
    log_path = folder / f"{name}.log"
    with log_path.open("w", encoding="utf-8") as log:
        proc = subprocess.Popen(
            cmd, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + wait_s
        while True:
            if proc.poll() is not None:
                pytest.fail(f"{name} exited with {proc.returncode}:\n{log_path.read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"{name} did not answer on port {port} within {wait_s:.0f} s:\n{log_path.read_text()}"
                    )
                time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
