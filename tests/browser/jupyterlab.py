"""A throwaway JupyterLab (or Notebook 7) server for the live-session browser tests.

Runs `python -m jupyter lab` (or `jupyter notebook` with app="notebook") from the interpreter running the tests (so the kernel
imports the kvwidgets under test), on a free loopback port with a fixed token, with
settings, workspaces and runtime files kept in a temporary folder so neither the
developer's JupyterLab nor the test leaves traces in the other. The server's output
goes to a log file the test reads for errors.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.ports import free_port

REPO_ROOT = Path(__file__).resolve().parents[2]

# Lines a healthy run may log at error level; anything else fails the test.
BENIGN_LOG = (
    # Our own SIGTERM at the end, which jupyter_server logs at critical level.
    "received signal 15, stopping",
)


# Exceptions a traceback may end in without anything being wrong: the browser page (closed
# by the test before the server stops) dropped its websocket while the server was still
# writing a kernel message to it; tornado logs "Task exception was never retrieved".
BENIGN_EXCEPTIONS = ("tornado.iostream.StreamClosedError", "tornado.websocket.WebSocketClosedError")


def _traceback_exception(lines: list[str], start: int) -> str:
    """The exception line a traceback starting at lines[start] ends in."""
    for line in lines[start + 1 :]:
        if line and not line[0].isspace():
            return line
    return ""


def notebook(cells: list[str]) -> dict:
    return {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"cell{i}",
                "metadata": {},
                "outputs": [],
                "source": src,
            }
            for i, src in enumerate(cells)
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


class LabServer:
    """app="lab" runs JupyterLab; app="notebook" runs Notebook 7, the same front end
    packaged as one-document pages (same settings folder, same menus and cells)."""

    def __init__(self, workdir: Path, app: str = "lab", settings: dict | None = None):
        """settings: more lab settings, plugin id -> values (e.g. autosave off)."""
        if app not in ("lab", "notebook"):
            raise ValueError(f"app must be 'lab' or 'notebook', got {app!r}")
        self.app = app
        self.settings = dict(settings or {})
        self.workdir = workdir
        self.root = workdir / "root"
        self.root.mkdir(parents=True)
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.log_path = workdir / f"jupyter-{app}.log"
        self.proc: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def write_notebook(self, name: str, cells: list[str]) -> str:
        (self.root / name).write_text(json.dumps(notebook(cells), indent=1), encoding="utf-8")
        return name

    def start(self, timeout: float = 90.0) -> None:
        env = dict(os.environ)
        state = self.workdir / "jupyter"
        env.update(
            JUPYTER_RUNTIME_DIR=str(state / "runtime"),
            JUPYTERLAB_SETTINGS_DIR=str(state / "settings"),
            JUPYTERLAB_WORKSPACES_DIR=str(state / "workspaces"),
            JUPYTER_DATA_DIR=str(state / "data"),  # the notebook-signing key lands here
            # The kernel finds the kvwidgets being tested even when it is not installed.
            PYTHONPATH=os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p),
        )
        cmd = [
            sys.executable,
            "-m",
            "jupyter",
            self.app,
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
        ]
        if self.app == "lab":
            cmd += [
                "--LabApp.news_url=",
                "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                # No PyPI look-ups from the extension manager: the test runs offline.
                "--LabApp.extension_manager=readonly",
            ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:  # CI containers run as root
            cmd.append("--allow-root")
        self._write_lab_settings(state / "settings", self.settings)
        log = self.log_path.open("w", encoding="utf-8")
        # Its own session, so the finalizer can stop the server and its kernels together.
        self.proc = subprocess.Popen(
            cmd, cwd=self.root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter {self.app} exited with {self.proc.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/api/status?token={self.token}", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            except http.client.HTTPException as exc:  # something else holds the port
                raise RuntimeError(
                    f"port {self.port} answered, but not as jupyter {self.app} ({exc!r}):\n{self.log()}"
                ) from None
            time.sleep(0.5)
        raise RuntimeError(f"jupyter {self.app} did not answer within {timeout:.0f} s:\n{self.log()}")

    @staticmethod
    def _write_lab_settings(settings_dir: Path, more: dict | None = None) -> None:
        """Settings a test run needs: start the notebook's kernel without asking, and
        no news pop-up (which would ask about fetching news from the internet)."""
        for plugin, values in {
            "@jupyterlab/notebook-extension/tracker": {"autoStartDefaultKernel": True},
            "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
            **(more or {}),
        }.items():
            target = settings_dir / f"{plugin}.jupyterlab-settings"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(values), encoding="utf-8")

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        # SIGTERM makes jupyter_server shut its kernels down before it exits.
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def __enter__(self) -> LabServer:
        """`with server:` starts it and stops it after, also when starting fails half-way."""
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def show_failure(self, page) -> None:
        """What the page looked like, for whoever reads a failed test (the server log beside it)."""
        if page is not None:
            shot = self.workdir / "failure.png"
            page.screenshot(path=str(shot), full_page=True)
            print(f"screenshot: {shot}")
        print(f"server log: {self.log_path}")

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def log_mark(self) -> int:
        """Where the log ends now: log_errors(since=mark) then reads only what came after."""
        return len(self.log())

    def log_errors(self, since: int = 0) -> list[str]:
        """Error-level lines and tracebacks in the server's log, from `since` (a log_mark)
        on (tracebacks named by the exception they end in, so a benign one can be told apart)."""
        found = []
        lines = self.log()[since:].splitlines()
        for i, line in enumerate(lines):
            if "Traceback (most recent call last)" in line:
                ends_in = _traceback_exception(lines, i)
                if not ends_in.startswith(BENIGN_EXCEPTIONS):
                    found.append(f"{line} ... {ends_in}")
            elif re.match(r"\[(E|C) ", line) and not any(b in line for b in BENIGN_LOG):
                found.append(line)
        return found

    def wait_kernel_ready(self, notebook_name: str, pause, timeout: float = 120.0) -> None:
        """Until the notebook's kernel is started, idle and connected to the page.

        JupyterLab's own indicator reads "idle" before any kernel exists, so ask the
        server: running cells earlier can race the session and start a second kernel.
        `pause(ms)` must keep the browser going: with Playwright's sync API that is
        page.wait_for_timeout, since routed requests are only served inside its calls.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"{self.base_url}/api/sessions?token={self.token}", timeout=5) as r:
                sessions = json.loads(r.read())
            for session in sessions:
                kernel = session.get("kernel") or {}
                if (
                    session.get("path") == notebook_name
                    and kernel.get("execution_state") == "idle"
                    and kernel.get("connections", 0) >= 1
                ):
                    return
            pause(500)
        raise TimeoutError(f"the kernel of {notebook_name} was not idle and connected within {timeout:.0f} s")

    def lab_url(self, notebook_name: str) -> str:
        if self.app == "notebook":
            return f"{self.base_url}/notebooks/{notebook_name}?token={self.token}"
        return f"{self.base_url}/lab/tree/{notebook_name}?token={self.token}&reset"

    def open_and_run_all(self, page, notebook_name: str) -> None:
        """Open a notebook in the page, wait for its kernel, and run Run > Run All Cells.

        Generous timeouts: a cold JupyterLab on two shared cores is slow.
        """
        page.set_default_timeout(60_000)
        page.goto(self.lab_url(notebook_name))
        page.wait_for_selector(".jp-Notebook .jp-Cell")
        self.wait_kernel_ready(notebook_name, page.wait_for_timeout)
        if self.app == "lab":
            page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']")
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
