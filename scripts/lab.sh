#!/usr/bin/env bash
# Set up kvwidgets in .venv and open the series in JupyterLab.
set -euo pipefail
cd "$(dirname "$0")/.."
KVW_EXTRAS=lab
source scripts/_venv.sh
# Jupyter refuses to run as root without --allow-root (containers and fresh VMs often are root).
as_root=(); [ "$(id -u)" -eq 0 ] && as_root=(--allow-root)
exec "$VENV/bin/jupyter" lab "${as_root[@]}" notebooks/index.ipynb "$@"
