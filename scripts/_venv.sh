# Sourced by lab.sh and test.sh: make (or reuse) the project's virtual environment
# and install kvwidgets into it with the extras named in $KVW_EXTRAS.
VENV="${KVW_VENV:-$PWD/.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
"$PY" -m pip install --quiet --disable-pip-version-check -e ".[${KVW_EXTRAS}]"
