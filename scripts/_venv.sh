# Sourced by lab.sh, lite.sh and test.sh: make (or reuse) a virtual environment ($KVW_VENV,
# default .venv) and install kvwidgets into it, editable, with the extras in $KVW_EXTRAS.
# pip runs again only when pyproject.toml or the extras changed since the last install
# (a stamp file in the venv); delete the venv to start afresh.
VENV="${KVW_VENV:-$PWD/.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
_kvw_stamp="$KVW_EXTRAS $(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ "$(cat "$VENV/.kvwidgets-installed" 2>/dev/null)" != "$_kvw_stamp" ]; then
  "$PY" -m pip install --quiet --disable-pip-version-check -e ".[${KVW_EXTRAS}]"
  echo "$_kvw_stamp" >"$VENV/.kvwidgets-installed"
fi
