#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine, then run every test:
# the calculation core, config loading, widgets (Python, Node and Chromium),
# the exported pages, a live JupyterLab, the Binder files and every notebook.
# Extra arguments go to pytest (for example: bash scripts/test.sh -k core).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Chromium drives the browser tests; Node.js checks the JavaScript maths.
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v node >/dev/null 2>&1 || need+=(nodejs)
# npm fetches the pinned tarballs of the offline nbconvert assets and of Pyodide (JupyterLite)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "installing ${need[*]} from Debian's packages"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

KVW_EXTRAS=test
source scripts/_venv.sh

# Notebooks are stored without outputs or widget state.
"$VENV/bin/nbstripout" --verify notebooks/*.ipynb

# esbuild, eslint and tsc for the JavaScript build and checks (tests/js), from package-lock.json
bash scripts/js.sh install

export KVW_CHROMIUM="${KVW_CHROMIUM:-$(command -v chromium)}"
# The tests never contact the real Hugging Face Hub (this machine cannot reach it, and
# a test should not depend on it): Hub loading is tested against a prepared local cache
# and a fake Hub on 127.0.0.1, and notebook 02's Hub cell prints its offline note.
export HF_HUB_OFFLINE="${HF_HUB_OFFLINE:-1}"
exec "$PY" -m pytest tests notebooks --nbval-lax --nbval-current-env "$@"
