"""What one input change costs in the kernel, per widget and input, against another commit.

A script, not a test: `python3 benchmarks/bench_kernel.py [--against REF] [--changes N]`.

The kernel's share of a control change is the widget's observer: recompute `result` with
kvwidgets.core and JSON-encode the update message, as ipykernel would send it. For every
widget and every input trait this sets the trait to a second value and back, N times,
and prints the median milliseconds of one change, here (this checkout) and in REF
(default: main), and their ratio; target <= 2 ms per change.

The two copies run side by side in one run: a worker process per copy (REF's is
extracted with `git archive` into a temporary folder), and the changes alternate
between them, one each in turn, so a busy machine slows both alike. The exit status is
1 when any input of this checkout's widgets is over the target.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_MS = 2.0
HYBRID = "gpt-oss-20b"

WIDGETS = [
    "PerTokenBytes",
    "UsersThatFit",
    "ContextVsUsers",
    "DecodeSpeed",
    "AttentionDesigns",
    "DecodeStep",
    "PagedBlocks",
    "OffloadOrRecompute",
]

# For each input trait, second values to alternate with the widget's own: the first
# that differs from it, chosen to change the answer (qwen3-8b has another KV shape
# than llama-3-8b; the H200 more memory than the H100).
OTHER_VALUES = {
    "model": ["qwen3-8b", "llama-3-8b"],
    "gpu": ["H200", "H100-SXM"],
    "num_gpus": [2, 1],
    "context": [32768, 8192],
    "batch": [16, 1],
    "weight_dtype": ["fp8", "bf16"],
    "kv_dtype": ["fp8", "bf16"],
    "utilization": [0.8, 0.9],
    "memory": ["device", "marketed"],
    "working_bytes": [4_000_000_000, 0],
    "window": [128, 1024],
    "short_context": [2048, 1024],
    "x_scale": ["linear", "log"],
    "y_scale": ["linear", "log"],
    "params": [70_000_000_000, 0],
    "prompt_tokens": [4096, 100],
    "generated": [50, 0],
    "used_tokens": [3000, 1000],
    "users": [16, 4],
    "prefix_tokens": [900, 500],
    "block_size": [32, 16],
}
# The same trait name with another kind of value in one widget.
OTHER_VALUES_IN = {"DecodeStep": {"speed": [30, 5]}, "OffloadOrRecompute": {"speed": ["low", "typical"]}}

# Traits whose other value needs another input first: only the H200 has a measured
# device-reported memory in the GPU table.
NEEDS = {"memory": {"gpu": "H200"}}


def encode_like_a_kernel(widget) -> list[int]:
    """Make the widget's comm JSON-encode every message (as ipykernel's session does),
    so a change's time includes building and encoding its update; return the sizes."""
    sent: list[int] = []

    def publish_msg(msg_type, data=None, metadata=None, buffers=None, **keys):
        sent.append(len(json.dumps(data, allow_nan=False).encode()))

    widget.comm.publish_msg = publish_msg
    return sent


class TraitChanges:
    """One widget, one input at a time: the input alternates between two values and
    each change is timed (the observer's recompute and the encoded update)."""

    def __init__(self, widget) -> None:
        self.widget = widget
        self.name = type(widget).__name__
        self.sent = encode_like_a_kernel(widget)
        self.others = {**OTHER_VALUES, **OTHER_VALUES_IN.get(self.name, {})}
        self.trait = ""
        self.values: list = []

    def start(self, trait: str) -> bool:
        """From the widget's starting inputs; False when there is no second value to time."""
        if trait not in self.others:
            return False
        self.widget.reset()
        for other, value in NEEDS.get(trait, {}).items():
            setattr(self.widget, other, value)
        own = getattr(self.widget, trait)
        self.trait = trait
        self.values = [next(v for v in self.others[trait] if v != own), own]
        return True

    def change(self, i: int) -> tuple[float, int]:
        """Milliseconds of the i-th change and the bytes of the update it sent."""
        self.sent.clear()
        value = self.values[i % 2]
        t0 = time.perf_counter()
        setattr(self.widget, self.trait, value)
        ms = (time.perf_counter() - t0) * 1e3
        assert not self.widget.error, f"{self.name}.{self.trait} = {value!r}: {self.widget.error}"
        return ms, sum(self.sent)


def kernel_ms(widget_class, changes: int) -> dict[str, tuple[float, int]]:
    """trait -> (median ms per change, median update bytes), in this process."""
    timer = TraitChanges(widget_class())
    out = {}
    for trait in timer.widget._inputs:
        if not timer.start(trait):
            print(f"  ({timer.name}.{trait}: no second value to alternate with; not timed)")
            continue
        runs = [timer.change(i) for i in range(changes)]
        out[trait] = (statistics.median(ms for ms, _ in runs), int(statistics.median(b for _, b in runs)))
    timer.widget.close()
    return out


# ---- one worker per copy of kvwidgets ------------------------------------------------------


def worker(root: str) -> None:
    """Answer one JSON request per line on stdin with one JSON line on stdout, timing
    the copy of kvwidgets in `root`."""
    sys.path.insert(0, root)
    import kvwidgets as kw

    where = Path(kw.__file__).resolve()
    if not where.is_relative_to(Path(root).resolve()):
        raise SystemExit(f"kvwidgets came from {where}, not from {root}")
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing else may write into the answers
    timer = None
    for line in sys.stdin:
        ask = json.loads(line)
        if ask["op"] == "open":
            cls = getattr(kw, ask["widget"])
            start = {"model": ask["model"]} if ask["model"] and "model" in cls._inputs else {}
            timer = TraitChanges(cls(**start))
            answer = {"inputs": list(timer.widget._inputs)}
        elif ask["op"] == "start":
            answer = {"timed": timer.start(ask["trait"])}
        elif ask["op"] == "change":
            answer = {"ms": timer.change(ask["i"])[0]}
        else:
            break
        out.write(json.dumps(answer) + "\n")
        out.flush()


class Worker:
    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, **request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"a worker stopped (exit {self.proc.wait()}) on {request}")
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def extract(ref: str, folder: Path) -> str:
    """REF's files into folder (git archive); returns the commit it names."""
    found = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", f"{ref}^{{commit}}"], capture_output=True, text=True
    )
    if found.returncode != 0:
        raise SystemExit(f"no commit {ref!r} in {REPO}: pass --against with a branch or commit that exists")
    commit = found.stdout.strip()
    archive = folder / "ref.tar"
    subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", "-o", str(archive), commit], check=True
    )
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "tree", filter="data")
    return commit


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="main", help="branch or commit to compare with (default main)")
    parser.add_argument("--changes", type=int, default=40, help="changes of each input trait (default 40)")
    parser.add_argument(
        "--model",
        action="append",
        help="start each widget with this model (repeat for several; default: the widget's own, "
        f"then {HYBRID}, whose sliding and full layers make kv_bytes the dearest to compute)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return 0

    from bench_core import machine

    with tempfile.TemporaryDirectory() as tmp:
        commit = extract(args.against, Path(tmp))
        here, there = Worker(REPO), Worker(Path(tmp) / "tree")
        print(machine())
        print(
            f"this checkout ({REPO}) against {args.against} ({commit[:12]}); {args.changes} changes per input\n"
        )
        head = (
            f"{'widget':<18} {'model':<14} {'input':<13} {'here ms':>8} {'<=2':>4} "
            f"{f'{args.against} ms':>10} {'ratio':>7}"
        )
        print(head)
        print("-" * len(head))
        slowest, over = {}, False
        for model in args.model or ["", HYBRID]:
            for name in WIDGETS:
                inputs = here.ask(op="open", widget=name, model=model)["inputs"]
                theirs = there.ask(op="open", widget=name, model=model)["inputs"]
                if model and "model" not in inputs:
                    continue  # no model input: timed once, with the widget's own
                label = f"{name:<18} {model or '(its own)':<14}"
                for trait in inputs:
                    if not here.ask(op="start", trait=trait)["timed"]:
                        print(f"{label} {trait:<13} (no second value to alternate with; not timed)")
                        continue
                    compare = trait in theirs and there.ask(op="start", trait=trait)["timed"]
                    mine, ref = [], []
                    for i in range(args.changes):
                        # one change each, in turn; which goes first swaps every two rounds
                        pair = [(here, mine), (there, ref)] if compare else [(here, mine)]
                        for worker_, times in pair if i % 4 < 2 else pair[::-1]:
                            times.append(worker_.ask(op="change", i=i)["ms"])
                    ms = statistics.median(mine)
                    over |= ms > TARGET_MS
                    slowest[name] = max(slowest.get(name, (0.0, "", "")), (ms, trait, model or "its own"))
                    cells = ""
                    if compare:
                        cells = f"{statistics.median(ref):>10.3f} {statistics.median(ref) / ms:>6.1f}x"
                    print(f"{label} {trait:<13} {ms:>8.3f} {'ok' if ms <= TARGET_MS else 'OVER':>4} {cells}")
        here.close()
        there.close()
    print("\nslowest input per widget, here:")
    for name, (ms, trait, model) in slowest.items():
        print(f"  {name:<18} {ms:6.2f} ms  {trait} ({model} model)")
    print(f"ratio = {args.against}'s median / this checkout's (above 1: faster here)")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
