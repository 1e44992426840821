"""Load every corpus config with this checkout and with another kvwidgets, and list each difference.

    python benchmarks/compare_corpus.py --with PATH

PATH is a checkout of another kvwidgets (an earlier release, say: git worktree add
/tmp/prev REV). Each side runs in its own Python subprocess with PYTHONPATH set to its
checkout, so the two packages never meet in one interpreter. A difference is a model that
was refused and now loads, one that loaded and is now refused, or one whose bytes per token
or bytes for one CONTEXT-token sequence (bf16) changed. The last line counts them; the exit
status is 0 either way (a difference may be a fix).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "configs" / "corpus"
CONTEXT = 32_768

# Run inside each checkout: only load_model and the byte counts every release has had.
# The per-token figure counts windows still growing where the release can say so.
READ_CORPUS = r"""
import json, sys
from pathlib import Path
from kvwidgets.configs import load_model

corpus, context = Path(sys.argv[1]), int(sys.argv[2])
out = {}
for folder in sorted(p for p in corpus.iterdir() if (p / "config.json").is_file()):
    model_id = (folder / "SOURCE").read_text().split()[3]
    try:
        model = load_model(folder / "config.json")
    except Exception as error:
        message = str(error).split(": ", 1)[-1] if str(error).startswith("config.json at ") else str(error)
        out[model_id] = {"refused": type(error).__name__ + ": " + message.split(". ")[0]}
        continue
    per_token = getattr(model, "kv_bytes_per_token_within_windows", model.kv_bytes_per_token)
    out[model_id] = {"per_token": per_token("bf16"), "per_sequence": model.kv_bytes(context, "bf16")}
print(json.dumps(out))
"""


def read_corpus_with(checkout: Path, corpus: Path = CORPUS) -> dict[str, dict]:
    """Each corpus model's outcome as the kvwidgets in `checkout` gives it."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "HF_HUB_OFFLINE": "1"}
    result = subprocess.run(
        [sys.executable, "-c", READ_CORPUS, str(corpus), str(CONTEXT)],
        env=env,
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def describe(outcome: dict) -> str:
    if "refused" in outcome:
        return "refused (" + outcome["refused"] + ")"
    return f"{outcome['per_token']} B/token, {outcome['per_sequence']} B at {CONTEXT} tokens"


def differences(before: dict[str, dict], after: dict[str, dict]) -> list[str]:
    """One line per model whose outcome differs between the two checkouts."""
    lines = []
    for model in sorted(before.keys() | after.keys()):
        old, new = before.get(model), after.get(model)
        if old is None or new is None:
            lines.append(f"{model}: only in {'this checkout' if old is None else 'the other'}")
        elif ("refused" in old) != ("refused" in new):
            change = "refused -> loads" if "refused" in old else "loads -> refused"
            lines.append(f"{model}: {change}: {describe(old)} -> {describe(new)}")
        elif "refused" not in old and old != new:
            lines.append(f"{model}: number changed: {describe(old)} -> {describe(new)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--with", dest="other", required=True, type=Path, help="checkout of another kvwidgets"
    )
    args = parser.parse_args(argv)
    other = args.other.resolve()
    if not (other / "kvwidgets" / "__init__.py").is_file():
        parser.error(f"--with {other}: no kvwidgets/__init__.py there (expected a kvwidgets checkout)")
    before, after = read_corpus_with(other), read_corpus_with(ROOT)
    lines = differences(before, after)
    for line in lines:
        print(line)
    loads_before = sum("refused" not in o for o in before.values())
    loads_after = sum("refused" not in o for o in after.values())
    print(
        f"{len(lines)} differences over {len(after)} corpus models "
        f"(loads: {loads_before} with {other}, {loads_after} with this checkout)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
