#!/usr/bin/env bash
# Set up kvwidgets in .venv and open the series in JupyterLab.
set -euo pipefail
cd "$(dirname "$0")/.."
KVW_EXTRAS=lab
source scripts/_venv.sh
exec "$VENV/bin/jupyter" lab notebooks/index.ipynb "$@"
