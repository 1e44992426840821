#!/usr/bin/env bash
# Write a static JupyterLite site of the series: every notebook runs in the reader's
# browser (Pyodide kernel), with no server and no CDN. Publish the folder on any
# static host (see README, "JupyterLite"). Usage: bash scripts/lite.sh [OUT_DIR]
# (default: _lite; further options go to scripts/lite_site.py, e.g. --contents DIR). Needs Node.js (npm pack fetches Pyodide once) and PyPI access
# for the first build; later builds reuse ~/.cache/kvwidgets.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-_lite}"
KVW_EXTRAS="${KVW_EXTRAS:-lite}"
# A venv of its own: jupyterlite-pyodide-kernel installs a lab extension that only works
# inside JupyterLite; in the JupyterLab or Voila of .venv it fails to load (a console error
# on every page), so it must not be installed there.
export KVW_VENV="${KVW_VENV:-$PWD/.venv-lite}"
source scripts/_venv.sh
exec "$PY" scripts/lite_site.py "$OUT" "${@:2}"
