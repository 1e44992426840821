#!/usr/bin/env bash
# Set up kvwidgets and open the series in JupyterLab, with the lecture's slideshow.
#
# It installs the lab and slides extras in .venv-slides: jupyterlab-rise shows
# notebooks/lecture.ipynb as slides with live widgets only with jupyterlab_widgets 3.0.10
# (and so ipywidgets 8.1.2; see the slides extra in pyproject.toml). The same venv runs
# the slides stage of scripts/test.sh. For the current widget stack instead (no live
# widgets on the slides): KVW_VENV=.venv KVW_EXTRAS=lab bash scripts/lab.sh
set -euo pipefail
cd "$(dirname "$0")/.."
KVW_VENV="${KVW_VENV:-$PWD/.venv-slides}"
KVW_EXTRAS="${KVW_EXTRAS:-lab,slides}"
source scripts/_venv.sh
# Jupyter refuses to run as root without --allow-root (containers and fresh VMs often are root).
as_root=(); [ "$(id -u)" -eq 0 ] && as_root=(--allow-root)
exec "$VENV/bin/jupyter" lab "${as_root[@]}" notebooks/index.ipynb "$@"
