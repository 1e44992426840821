# Sourced by lab.sh, lite.sh and test.sh: make (or reuse) a virtual environment ($KVW_VENV,
# default .venv) and install kvwidgets into it, editable, with the extras in $KVW_EXTRAS.
# pip runs again only when pyproject.toml or the extras changed since the last install
# (a stamp file in the venv); delete the venv to start afresh. The test extra holds the
# dev extra (pyproject.toml), so a venv that holds test serves a request for dev as it is.
VENV="${KVW_VENV:-$PWD/.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
_kvw_hash=$(sha256sum pyproject.toml | cut -d' ' -f1)
_kvw_stamp="$KVW_EXTRAS $_kvw_hash"
_kvw_have=$(cat "$VENV/.kvwidgets-installed" 2>/dev/null || true)
if [ "$KVW_EXTRAS" = dev ] && [ "$_kvw_have" = "test $_kvw_hash" ]; then
  _kvw_stamp=$_kvw_have
fi
if [ "$_kvw_have" != "$_kvw_stamp" ]; then
  "$PY" -m pip install --quiet --disable-pip-version-check -e ".[${KVW_EXTRAS}]"
  echo "$_kvw_stamp" >"$VENV/.kvwidgets-installed"
fi
