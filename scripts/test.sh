#!/usr/bin/env bash
# The tests, in stages (DEVELOP.md; tests/stages.py says which test is in which stage).
#
#   bash scripts/test.sh                 set up what the tests need on a fresh Debian machine
#                                        (Chromium, Node.js, npm, the venvs) and run every
#                                        stage, in three lanes side by side (fast, browser;
#                                        notebooks, lite; hosts, slides; js's checks run in
#                                        fast's tests/js); a failing stage ends the run
#   bash scripts/test.sh STAGE [ARGS]    one stage: fast, js, browser, hosts, notebooks, lite,
#                                        slides (ARGS go to pytest, e.g. fast -x)
#   bash scripts/test.sh PATH [ARGS]     only the tests in PATH (file, folder or node id),
#                                        whatever their stage; ARGS go to pytest
#
# Stages: fast (ruff lint and format check, notebooks stored without outputs, every test
# without a browser, notebook run or site build), js (scripts/js.sh check, when that
# script exists), browser (pages a test writes and opens in Chromium), hosts (tests that
# start a server or kernel: JupyterLab, Notebook 7, Voila, marimo, nbconvert, MyST),
# notebooks, lite (the JupyterLite site), slides (the lecture's jupyterlab-rise slideshow,
# in .venv-slides with the slides extra's older widget stack).
set -euo pipefail
cd "$(dirname "$0")/.."
# Python's default, even where the machine turns it off: each test, server and kernel
# caches the bytecode of what it imports, so a module is compiled once, by the first
# process that imports it. Without the cache every kernel start compiles the hosts'
# modules again; compiling each venv whole at install instead (what scripts/_venv.sh does
# where PYTHONDONTWRITEBYTECODE stays set) takes about 14 CPU-seconds for each venv of the
# test extra, most of it for modules no test imports.
unset PYTHONDONTWRITEBYTECODE

STAGES=(fast js browser hosts notebooks lite slides)
# What each stage's pytest run collects: only the folders that can hold its tests by
# tests/stages.py's rule (tests/test_stages.py checks every test file is in its stage's
# collection); tests/conftest.py's --stage then keeps the stage's share of it. The notebooks
# stage runs each notebook once: its test module runs it whole in a fresh kernel
# (tests/notebooks/executed.py; test_series.py checks that none is left out), so nbval does
# not run them a second time here; given a notebook's path (below), nbval runs its cells
# alone. Word-split where used.
declare -A COLLECT=(
  [fast]="tests --ignore=tests/notebooks"
  [browser]="tests --ignore=tests/notebooks --ignore=tests/lite"
  [hosts]="tests --ignore=tests/notebooks --ignore=tests/lite"
  [notebooks]="tests/notebooks"
  [lite]="tests/lite"
  [slides]="tests/browser/test_lecture_slides.py"
)
# How a stage's pytest runs, besides what it collects. The browser stage is the longest,
# and one pytest keeps only about 1.2 cores busy, so once the other lanes were done its
# lane ran alone with a core half idle. In two pytest-xdist workers it takes what the
# machine has free instead; --dist loadfile keeps each file's tests, and its module
# fixtures, in one worker.
declare -A RUN_OPTS=(
  [browser]="-n 2 --dist loadfile"
)

usage() {
  # the comment block at the top of this file, up to its first line of code
  sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

is_stage() {
  local s
  for s in "${STAGES[@]}"; do [ "$1" = "$s" ] && return 0; done
  return 1
}

if [ $# -gt 0 ] && ! is_stage "$1" && [ ! -e "${1%%::*}" ]; then
  echo "not a stage or an existing path: $1" >&2
  usage
fi

# ---- set up -----------------------------------------------------------------------------

system_packages() {
  # Debian's Chromium drives the browser tests; Node.js checks the JavaScript maths; npm
  # fetches the pinned tarballs of the offline nbconvert assets and of Pyodide (JupyterLite).
  local need=()
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  command -v node >/dev/null 2>&1 || need+=(nodejs)
  command -v npm >/dev/null 2>&1 || need+=(npm)
  if [ ${#need[@]} -gt 0 ]; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "installing ${need[*]} from Debian's packages"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
  fi
}

# venv NAME EXTRAS: make (or reuse) the venv and install kvwidgets into it; sets PY.
venv() {
  KVW_VENV="$PWD/$1" KVW_EXTRAS="$2" source scripts/_venv.sh
}

# The front end's node_modules (scripts/js.sh, when present): npm ci only when
# package-lock.json changed since node_modules was installed.
js_install() {
  if [ -f scripts/js.sh ]; then
    bash scripts/js.sh ensure
  fi
}

# fast_path PATH: true when no test in PATH needs more than the dev extra (no notebook
# run, nothing marked browser or slow in its files), so it can run in the lean venv.
fast_path() {
  local file=${1%%::*} rel
  rel=$(realpath -m --relative-to=. "$file")
  case $rel in
    notebooks | notebooks/* | tests/notebooks | tests/notebooks/* | *.ipynb) return 1 ;;
  esac
  ! grep -rqE --include='*.py' 'mark\.(browser|slow)' "$file"
}

# use_chromium: the browser the tests drive, once system_packages has put it there.
use_chromium() {
  export KVW_CHROMIUM="${KVW_CHROMIUM:-$(command -v chromium)}"
}

# set_up_full_run: the system packages and then node_modules in the background while .venv
# is made (apt, npm and uv each wait mostly on the network); a failure prints its log.
set_up_full_run() {
  local log pid rc=0
  log=$(mktemp)
  (system_packages; js_install) >"$log" 2>&1 & # errexit holds in the subshell: a failing step ends it
  pid=$!
  venv .venv test
  wait "$pid" || rc=$?
  cat "$log"
  rm -f "$log"
  if [ $rc -ne 0 ]; then
    echo "setting up the system packages or node_modules failed" >&2
    return 1
  fi
  use_chromium
}

if [ $# -gt 0 ]; then
  system_packages
  use_chromium
fi
# The tests never contact the real Hugging Face Hub (this machine cannot reach it, and
# a test should not depend on it): Hub loading is tested against a prepared local cache
# and a fake Hub on 127.0.0.1, and notebook 02's Hub cell prints its offline note.
export HF_HUB_OFFLINE="${HF_HUB_OFFLINE:-1}"

# ---- stages -----------------------------------------------------------------------------

# pytest_stage STAGE [ARGS]: one pytest run of the stage's tests, in the stage's venv.
pytest_stage() {
  local stage=$1 rc=0
  shift
  case $stage in
    slides) venv ${OWN_VENV[slides]} ;; # word-split: the venv and its extras
    fast) venv .venv dev ;;
    *) venv .venv test ;;
  esac
  # shellcheck disable=SC2086 # word-split: the collection's paths and the run's options
  "$PY" -m pytest ${COLLECT[$stage]} ${RUN_OPTS[$stage]:-} --stage "$stage" "$@" || rc=$?
  if [ $rc -eq 5 ]; then
    # pytest's "no tests ran": every stage has tests, so an empty one is a broken selection
    echo "stage $stage: pytest ran no tests (exit 5): with these arguments none of the" \
      "collected tests is in this stage (tests/stages.py)" >&2
  fi
  return $rc
}

run_stage() {
  local stage=$1
  shift
  case $stage in
    fast)
      venv .venv dev
      js_install
      "$VENV/bin/ruff" check .
      "$VENV/bin/ruff" format --check .
      # Notebooks are stored without outputs or widget state.
      "$VENV/bin/nbstripout" --verify notebooks/*.ipynb
      pytest_stage fast "$@"
      ;;
    js)
      if [ -f scripts/js.sh ]; then
        js_install
        bash scripts/js.sh check
      else
        echo "no scripts/js.sh in this checkout: nothing for the js stage to check"
      fi
      ;;
    browser | hosts | notebooks | lite | slides)
      js_install
      pytest_stage "$stage" "$@"
      ;;
  esac
}

banner() {
  printf '\n==== %s %s\n' "$1" "$(printf '=%.0s' $(seq 1 $((70 - ${#1}))))"
}

# The full run: three lanes side by side, each running its stages in order. A stage alone
# keeps about 1.2 of a 2-core machine's cores busy (a browser test waits on a server, a
# frame or a timer; a notebook waits on its kernel), and two lanes still left about a fifth
# of the CPU idle, so three lanes fill each other's gaps: fast and browser in one;
# notebooks and lite in another; hosts and slides, the two stages that start JupyterLab, in
# the third. The js stage is in no lane: the fast stage's tests/js/test_js_checks.py runs
# the same four checks as scripts/js.sh check (tests/test_stages.py holds them equal), and
# running them twice would cost about 12 CPU-seconds. Each stage's output goes to a log that
# is printed whole when every lane is done; a failing stage stops the other lanes too, and
# its log is printed last.
LANES=("fast browser" "notebooks lite" "hosts slides")
# The venvs a stage needs besides .venv, built in the background when its lane starts:
# the slides' older widget stack, and the lite site's build (scripts/lite.sh, lite extra).
declare -A OWN_VENV=([slides]=".venv-slides test,slides" [lite]=".venv-lite lite")

# lane_stages LOGS STAGE...: the stages in order, each in a subshell that turns errexit
# back on (under `run_stage || ...` bash would ignore errexit inside, and a failing ruff
# would not stop it). Writes "STAGE SECONDS" per passed stage to LOGS/times and appends
# the failed stage's name to LOGS/failed (its first line is the first failure: a stage that
# another lane's failure stopped may add its name after).
lane_stages() {
  local logs=$1 stage start rc dir extras
  shift
  declare -A venv_pid=()
  for stage in "$@"; do
    [ -n "${OWN_VENV[$stage]:-}" ] || continue
    read -r dir extras <<<"${OWN_VENV[$stage]}"
    (KVW_VENV="$PWD/$dir" KVW_EXTRAS="$extras" source scripts/_venv.sh) >"$logs/venv-$stage.log" 2>&1 &
    venv_pid[$stage]=$!
  done
  for stage in "$@"; do
    start=$SECONDS
    {
      banner "$stage"
      if [ -n "${venv_pid[$stage]:-}" ] && ! wait "${venv_pid[$stage]}"; then
        echo "setting up the venv of the $stage stage failed:"
        cat "$logs/venv-$stage.log"
        false
      fi
    } >"$logs/$stage.log" 2>&1 || {
      echo "$stage" >>"$logs/failed"
      return 1
    }
    set +e
    (set -e; run_stage "$stage") >>"$logs/$stage.log" 2>&1
    rc=$?
    set -e
    if [ $rc -ne 0 ]; then
      echo "$stage" >>"$logs/failed"
      echo "stage $stage FAILED (exit $rc) after $((SECONDS - start))s"
      return $rc
    fi
    echo "$stage $((SECONDS - start))s" >>"$logs/times"
    echo "stage $stage passed in $((SECONDS - start))s"
  done
}

# kill_tree PID: the process and everything it started (a lane's pytest, Chromium, servers).
kill_tree() {
  local child
  for child in $(pgrep -P "$1" || true); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}

run_lanes() {
  local logs lane pid failed="" stage
  logs=$(mktemp -d)
  declare -A lane_of=()
  for lane in "${LANES[@]}"; do
    # shellcheck disable=SC2086  # a lane is a space-separated list of stage names
    lane_stages "$logs" $lane &
    lane_of[$!]=$lane
  done
  # as each lane ends: if it failed, the others are stopped
  while [ ${#lane_of[@]} -gt 0 ]; do
    set +e
    wait -n -p pid "${!lane_of[@]}"
    rc=$?
    set -e
    unset "lane_of[$pid]"
    if [ $rc -ne 0 ]; then
      for pid in "${!lane_of[@]}"; do kill_tree "$pid"; done
      wait 2>/dev/null || true
      break
    fi
  done
  failed=$(head -n 1 "$logs/failed" 2>/dev/null || true)
  for stage in "${STAGES[@]}"; do
    if [ -f "$logs/$stage.log" ] && [ "$stage" != "$failed" ]; then cat "$logs/$stage.log"; fi
  done
  local times
  times=$(tr '\n' ' ' <"$logs/times" 2>/dev/null || true)
  if [ -n "$failed" ]; then
    cat "$logs/$failed.log"
    echo -e "\nstage $failed FAILED; the other lanes were stopped. Stages passed: ${times}" >&2
    return 1
  fi
  echo -e "\nevery stage passed in ${SECONDS}s (${#LANES[@]} lanes side by side). Stage times: ${times}"
}

if [ $# -eq 0 ]; then
  set_up_full_run
  run_lanes
elif is_stage "$1"; then
  stage=$1
  shift
  banner "$stage"
  run_stage "$stage" "$@"
else
  # A path narrows the run to it (the slides test needs its own venv).
  path=$1
  shift
  if [ "$(realpath -m "${path%%::*}")" = "$(realpath -m tests/browser/test_lecture_slides.py)" ]; then
    venv ${OWN_VENV[slides]} # word-split: the venv and its extras
    nbval=(--nbval-lax --nbval-current-env)
  elif fast_path "$path"; then
    venv .venv dev # nbval is not in dev, and no notebook is in the path
    nbval=()
  else
    venv .venv test
    nbval=(--nbval-lax --nbval-current-env)
  fi
  js_install
  rc=0
  "$PY" -m pytest "$path" "${nbval[@]}" "$@" || rc=$?
  if [ $rc -eq 5 ]; then
    echo "no tests ran for $path $* (pytest exit 5)" >&2
  fi
  exit $rc
fi
