#!/usr/bin/env bash
# The widgets' JavaScript: kvwidgets/widgets/js (ES modules) -> kvwidgets/widgets/static (committed).
#   bash scripts/js.sh install    npm ci: esbuild, eslint, typescript, @anywidget/types, @myst-theme/anywidget with React (the browser tests run MyST's real renderer) and axe-core (tests/browser/test_axe.py) (package-lock.json)
#   bash scripts/js.sh ensure     install only when package-lock.json changed since the last install (a stamp in node_modules)
#   bash scripts/js.sh build      rebuild kvwidgets/widgets/static (commit the result)
#   bash scripts/js.sh check      the committed build is current, eslint and tsc are clean (jsconfig.json, and strict for the files jsconfig.strict.json lists)
#   bash scripts/js.sh build-dev  development build (library bundled in, source maps) into static_dev/
#   bash scripts/js.sh watch      the same, rebuilt on every save (KVW_DEV=1 + ANYWIDGET_HMR=1: hot reload)
set -euo pipefail
cd "$(dirname "$0")/.."

need_modules() {
  if [ ! -x node_modules/.bin/esbuild ] || [ ! -x node_modules/.bin/eslint ] || [ ! -x node_modules/.bin/tsc ]; then
    echo "node_modules is missing or incomplete: run 'bash scripts/js.sh install' first" >&2
    exit 1
  fi
}

# npm ci starts by deleting node_modules, so the stamp of the lock file it installed lives
# inside it: a fresh clone, a deleted folder or a changed lock all install again.
STAMP=node_modules/.kvw-lock-installed

install() {
  command -v npm >/dev/null 2>&1 || { echo "npm is needed (Debian: apt-get install npm)" >&2; exit 1; }
  npm ci --no-audit --no-fund
  sha256sum package-lock.json | cut -d' ' -f1 >"$STAMP"
}

case "${1:-}" in
  install)
    install
    ;;
  ensure)
    if [ "$(cat "$STAMP" 2>/dev/null)" != "$(sha256sum package-lock.json | cut -d' ' -f1)" ]; then
      install
    fi
    ;;
  build)
    need_modules
    node scripts/build_js.mjs
    ;;
  build-dev)
    need_modules
    node scripts/build_js.mjs --dev
    ;;
  watch)
    need_modules
    exec node scripts/build_js.mjs --dev --watch
    ;;
  check)
    need_modules
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    node scripts/build_js.mjs --out "$tmp/static" >/dev/null
    if ! diff -r kvwidgets/widgets/static "$tmp/static" >/dev/null; then
      diff -r kvwidgets/widgets/static "$tmp/static" | head -40 >&2
      echo "kvwidgets/widgets/static is not the build of kvwidgets/widgets/js: run 'bash scripts/js.sh build' and commit it" >&2
      exit 1
    fi
    echo "build: kvwidgets/widgets/static is current"
    node_modules/.bin/eslint --max-warnings 0
    echo "eslint: clean"
    node_modules/.bin/tsc --noEmit -p jsconfig.json
    echo "tsc: clean"
    node scripts/tsc_strict.mjs jsconfig.strict.json
    ;;
  *)
    sed -n '2,8p' "$0" >&2
    exit 2
    ;;
esac
