"""Build the static JupyterLite site of the series (called by scripts/lite.sh).

    python scripts/lite_site.py OUT_DIR [--contents DIR]

The site runs every notebook in the reader's browser with the Pyodide kernel and needs
no server and no CDN: Pyodide comes from the npm `pyodide` package (the version
jupyterlite-pyodide-kernel was built for), the Python packages the kernel and the
widgets need are pure-Python wheels from PyPI pinned in scripts/lite-wheels.txt, and
kvwidgets is built from this checkout.

Pyodide installs packages from its lock file, pyodide-lock.json: the kernel loads
micropip with it before anything else, micropip installs ipython, comm and jedi from
it when the kernel starts, and before each cell the kernel loads the packages the
cell imports (pyodide_kernel/kernel.py, `loadPackagesFromImports`). The npm package's
lock names the ~350 wheels of Pyodide's CDN, none of which it holds, so the lock is
rewritten to name exactly the wheels this site ships (name, version, file, sha256,
imports, dependencies from each wheel's METADATA): `import kvwidgets` in a notebook
then loads kvwidgets and its widget stack with no install cell, and a package the
site lacks (pandas, numpy) is a plain ModuleNotFoundError rather than a request to
the CDN. kvwidgets' pandas and huggingface_hub requirements are left out:
the widgets and the calculation API do not import them; kvwidgets.tables does.

Last, the modules a kernel start imports get their bytecode beside their source in the
site's wheels and python_stdlib.zip, compiled by Pyodide in Node
(scripts/pyodide_precompile.mjs and .py say why); the lock's sha256s are then redone.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from email.parser import Parser
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from kvwidgets.export.offline import Asset, default_cache, npm_tarball

ROOT = Path(__file__).resolve().parent.parent
WHEELS_TXT = ROOT / "scripts" / "lite-wheels.txt"

# The Pyodide core, sha256 of the tarball `npm pack pyodide@314.0.6` fetched from
# registry.npmjs.org (2026-12-01). 314.0.6 is the version jupyterlite-pyodide-kernel
# 0.8.6 loads (jupyterlite_pyodide_kernel/constants.py, PYODIDE_VERSION); checked below.
PYODIDE = Asset(
    "pyodide",
    "314.0.6",
    "package/",
    "static/pyodide",
    "MPL-2.0",
    "d78ac549b28a2a58600cd06f44e017024151775f8c6b2d73fab1475400d38ea2",
)
# Files of the npm package the kernel loads; the rest (source maps, REPL pages,
# TypeScript types) is not needed by the site.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)

KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
# Lab extensions the site's front end needs: the kernel itself, the ipywidgets
# manager and anywidget's (the widgets' models live in it). Taken from this
# environment only, so the site does not pick up every extension installed here.
LAB_EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager", "anywidget")


def log(msg: str) -> None:
    print(f"[lite] {msg}", flush=True)


def fetch_wheels(cache: Path) -> list[Path]:
    """The pinned wheels, downloaded once into the cache (pip checks each sha256)."""
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--require-hashes",
            "--only-binary=:all:",
            "--platform",
            "any",
            "--python-version",
            "3.14",
            "--implementation",
            "py",
            "--abi",
            "none",
            "-r",
            str(WHEELS_TXT),
            "-d",
            str(cache),
        ],
        check=True,
    )
    names = {}
    for line in WHEELS_TXT.read_text(encoding="utf-8").splitlines():
        spec = line.split("#")[0].split("--hash")[0].strip()
        if spec:
            name, version = spec.split("==")
            names[canonicalize_name(name)] = version
    found = [
        w
        for w in sorted(cache.glob("*.whl"))
        if names.get(canonicalize_name(w.name.split("-")[0])) == w.name.split("-")[1]
    ]
    if len(found) != len(names):
        raise SystemExit(f"expected {len(names)} wheels in {cache}, found {[w.name for w in found]}")
    return found


def build_kvwidgets_wheel(dest: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "-w",
            str(dest),
            str(ROOT),
        ],
        check=True,
    )
    return next(dest.glob("kvwidgets-*.whl"))


def unpack_pyodide(store: Path, dest: Path) -> None:
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    if PYODIDE_VERSION != PYODIDE.version:
        raise SystemExit(
            f"jupyterlite-pyodide-kernel expects Pyodide {PYODIDE_VERSION}, "
            f"this script pins {PYODIDE.version}: update PYODIDE (version and sha256)"
        )
    _, data, _ = npm_tarball(PYODIDE, store)
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in PYODIDE_FILES:
            (dest / name).write_bytes(tar.extractfile(f"package/{name}").read())


def _wheel_metadata(wheel: Path) -> tuple[dict, list[str]]:
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
        meta = Parser().parsestr(zf.read(meta_name).decode("utf-8"))
        top = next((n for n in names if n.endswith(".dist-info/top_level.txt")), None)
        if top:
            imports = [line.strip() for line in zf.read(top).decode().splitlines() if line.strip()]
        else:  # importable top-level packages and modules
            imports = sorted(
                {
                    n.split("/")[0].removesuffix(".py")
                    for n in names
                    if not n.split("/")[0].endswith((".dist-info", ".data"))
                    and (n.count("/") >= 1 or n.endswith(".py"))
                }
            )
    return meta, [i for i in imports if not i.startswith("_")]


def rewrite_lock(lock_path: Path, wheels: list[Path]) -> dict[str, list[str]]:
    """Make pyodide-lock.json name exactly ``wheels`` (which sit beside it); return the
    requirements left out per package (names the site does not ship)."""
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    python = lock["info"]["python"]  # "3.14.2"
    # Environment markers as Pyodide evaluates them (micropip's own marker environment).
    env = {
        "sys_platform": "emscripten",
        "platform_system": "Emscripten",
        "platform_machine": "wasm32",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "python_version": ".".join(python.split(".")[:2]),
        "python_full_version": python,
        "extra": "",
    }
    entries, wanted = {}, {}
    for wheel in wheels:
        meta, imports = _wheel_metadata(wheel)
        key = canonicalize_name(meta["Name"])
        reqs = [Requirement(r) for r in meta.get_all("Requires-Dist") or []]
        wanted[key] = sorted(
            {canonicalize_name(r.name) for r in reqs if r.marker is None or r.marker.evaluate(env)}
        )
        entries[key] = {
            "name": meta["Name"],
            "version": meta["Version"],
            "file_name": wheel.name,
            "install_dir": "site",
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "package_type": "package",
            "imports": imports,
            "depends": [],
            "unvendored_tests": False,
        }
    left_out = {}
    for key, deps in wanted.items():
        entries[key]["depends"] = [d for d in deps if d in entries]
        missing = [d for d in deps if d not in entries]
        if missing:
            left_out[key] = missing
    lock["packages"] = dict(sorted(entries.items()))
    lock_path.write_text(json.dumps(lock, indent=1) + "\n", encoding="utf-8")
    return left_out


def precompile_kernel_modules(pyodide_dir: Path) -> None:
    """Add the pycs of what a kernel start imports to the site's archives, in place
    (scripts/pyodide_precompile.py says why; Pyodide in Node compiles them)."""
    kernel_wheels = (
        Path(sys.prefix) / "share" / "jupyter" / "labextensions" / LAB_EXTENSIONS[0] / "static" / "pypi"
    )
    with tempfile.TemporaryDirectory(prefix="kvw-pyc-") as out:
        proc = subprocess.run(
            [
                "node",
                str(ROOT / "scripts" / "pyodide_precompile.mjs"),
                str(pyodide_dir),
                str(kernel_wheels),
                out,
            ],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise SystemExit(
                f"precompiling the kernel's modules in Pyodide failed:\n{proc.stdout}{proc.stderr}"
            )
        for archive in Path(out).iterdir():
            shutil.move(archive, pyodide_dir / archive.name)
    pycs = sum(int(line.rsplit(": ", 1)[1].split()[0]) for line in proc.stdout.splitlines() if ": " in line)
    log(f"precompiled {pycs} modules a kernel start imports")


def lite_build(lite_dir: Path, out: Path, contents: Path) -> None:
    labext = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    extensions = []
    for name in LAB_EXTENSIONS:
        if not (labext / name / "package.json").is_file():
            raise SystemExit(f"lab extension {name} is not installed in {sys.prefix}")
        extensions.append(str(labext / name))
    (lite_dir / "jupyter-lite.json").write_text(
        json.dumps(
            {
                "jupyter-lite-schema-version": 0,
                "jupyter-config-data": {
                    "appName": "kvwidgets (JupyterLite)",
                    # pyodideUrl is set by the build to ./static/pyodide/pyodide.mjs (the local copy)
                    "litePluginSettings": {KERNEL_PLUGIN: {"disablePyPIFallback": True}},
                },
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    (lite_dir / "jupyter_lite_config.json").write_text(
        json.dumps(
            {
                "LiteBuildConfig": {
                    "contents": [str(contents)],
                    "ignore_sys_prefix": ["federated_extensions"],
                    "federated_extensions": extensions,
                    "no_sourcemaps": True,
                    "output_dir": str(out),
                },
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    jupyter_lite = Path(sys.executable).parent / "jupyter-lite"
    subprocess.run([str(jupyter_lite), "build", "--lite-dir", str(lite_dir)], check=True, cwd=lite_dir)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder the static site is written to (replaced)")
    parser.add_argument(
        "--contents",
        type=Path,
        default=ROOT / "notebooks",
        help="folder of notebooks the site opens (default: notebooks/)",
    )
    parser.add_argument(
        "--no-precompile",
        dest="precompile",
        action="store_false",
        help="ship the kernel's modules as source only (benchmarks/bench_lite_start.py compares)",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = args.out.resolve()
    cache = default_cache().parent  # ~/.cache/kvwidgets
    with tempfile.TemporaryDirectory(prefix="kvw-lite-") as tmp:
        lite_dir = Path(tmp)
        pyodide_dir = lite_dir / PYODIDE.target  # the well-known static/pyodide the build copies
        unpack_pyodide(cache / "npm", pyodide_dir)
        wheels = fetch_wheels(cache / "lite-wheels") + [build_kvwidgets_wheel(lite_dir / "dist")]
        for wheel in wheels:
            shutil.copy2(wheel, pyodide_dir / wheel.name)
        left_out = rewrite_lock(pyodide_dir / "pyodide-lock.json", [pyodide_dir / w.name for w in wheels])
        for name, missing in left_out.items():
            log(f"{name}: requires {', '.join(missing)}, not shipped (not importable in the site)")
        if args.precompile:
            precompile_kernel_modules(pyodide_dir)
            rewrite_lock(
                pyodide_dir / "pyodide-lock.json", [pyodide_dir / w.name for w in wheels]
            )  # new sha256s
        if out.exists():
            shutil.rmtree(out)
        lite_build(lite_dir, out, args.contents.resolve())
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    log(
        f"wrote {out}: {size / 1e6:.1f} MB in {sum(1 for _ in out.rglob('*'))} files, "
        f"{time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
