# Sourced by lab.sh, lite.sh and test.sh: make (or reuse) a virtual environment ($KVW_VENV,
# default .venv) and install kvwidgets into it, editable, with the extras in $KVW_EXTRAS.
# The install runs again only when pyproject.toml or the extras changed since the last one
# (a stamp file in the venv); delete the venv to start afresh. The test extra holds the
# dev extra (pyproject.toml), so a venv that holds test serves a request for dev as it is.
#
# The installer is uv, which pip puts in a venv of its own (.venv-uv) the first time. It
# picks the same releases as pip, but downloads in parallel and keeps one cache for every
# venv, so a full run fetches each wheel once for its three venvs (this machine's package
# index sends nothing pip may cache: pip downloaded everything again for each venv).
# Bytecode: Python caches each module's bytecode the first time any process imports it,
# which costs little, since a run imports only a part of what is installed. Where
# PYTHONDONTWRITEBYTECODE is set nothing is cached, and each kernel start would compile
# the hosts' modules again, so there the whole venv is compiled at install instead
# (--compile-bytecode: about 14 CPU-seconds for the test extra). scripts/test.sh unsets it.
# The venv is seeded with pip, as `python3 -m venv` would make it, for whoever installs by
# hand.
VENV="${KVW_VENV:-$PWD/.venv}"
UV="$PWD/.venv-uv/bin/uv"
if [ ! -x "$UV" ]; then
  python3 -m venv "$PWD/.venv-uv"
  "$PWD/.venv-uv/bin/python" -m pip install --quiet --disable-pip-version-check "uv==0.13.9"
fi
if [ ! -x "$VENV/bin/python" ]; then
  "$UV" venv --quiet --seed --python "$(command -v python3)" "$VENV"
fi
PY="$VENV/bin/python"
_kvw_hash=$(sha256sum pyproject.toml | cut -d' ' -f1)
_kvw_stamp="$KVW_EXTRAS $_kvw_hash"
_kvw_have=$(cat "$VENV/.kvwidgets-installed" 2>/dev/null || true)
if [ "$KVW_EXTRAS" = dev ] && [ "$_kvw_have" = "test $_kvw_hash" ]; then
  _kvw_stamp=$_kvw_have
fi
if [ "$_kvw_have" != "$_kvw_stamp" ]; then
  _kvw_compile=()
  [ -z "${PYTHONDONTWRITEBYTECODE:-}" ] || _kvw_compile=(--compile-bytecode)
  "$UV" pip install --quiet --python "$PY" "${_kvw_compile[@]}" -e ".[${KVW_EXTRAS}]"
  echo "$_kvw_stamp" >"$VENV/.kvwidgets-installed"
fi
