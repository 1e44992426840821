"""Run a notebook of the series in a fresh kernel and read values back from that kernel.

The notebooks hold no asserts (they are lessons, and a reader who changes a number must
not meet a failed assert). The numbers their prose states are checked here instead: a
test module runs its notebook once (module-scoped fixture), then evaluates a list of
expressions in the executed kernel's namespace, so every claim is checked against what
the reader actually sees computed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from .repo_copy import NOTEBOOKS

TIMEOUT = 600  # seconds per cell; the slowest notebook cell builds widgets in well under this

# Turns a value from the kernel into JSON: numpy/pandas scalars through .item(), containers
# element by element, anything else as its repr. Errors are returned, not raised, so one
# bad expression fails its own test only.
_PROBE = r"""
def __kvw_probe(exprs):
    import json as _json
    def plain(v):
        if hasattr(v, "item") and not isinstance(v, (list, tuple, dict, str)):
            try:
                v = v.item()
            except Exception:
                pass
        if isinstance(v, (bool, int, float, str)) or v is None:
            return v
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in v.items()}
        if hasattr(v, "tolist"):
            return plain(v.tolist())
        return repr(v)
    out = {}
    for e in exprs:
        try:
            out[e] = {"value": plain(eval(e, globals()))}
        except Exception as exc:
            out[e] = {"error": f"{type(exc).__name__}: {exc}"}
    print("__KVW__" + _json.dumps(out))
__kvw_probe(%s)
"""


class NotebookRunError(AssertionError):
    pass


def load(name: str, replace: Sequence[tuple[str, str]] = ()) -> nbformat.NotebookNode:
    """The notebook, with each (old, new) code snippet swapped in; each old must occur once."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    for old, new in replace:
        hits = [c for c in nb.cells if c.cell_type == "code" and old in c.source]
        if len(hits) != 1 or hits[0].source.count(old) != 1:
            raise NotebookRunError(
                f"{name}: {old!r} should occur once in a code cell, found {len(hits)} cells"
            )
        hits[0].source = hits[0].source.replace(old, new)
    return nb


def printed_text(cell) -> str:
    """What a code cell shows as text: what it printed, then the plain-text form of a table
    or value it ends with (what a reader sees under it)."""
    out = []
    for o in cell.outputs:
        if o.get("output_type") == "stream":
            out.append(o.get("text", ""))
        elif o.get("output_type") in ("execute_result", "display_data"):
            out.append(o.get("data", {}).get("text/plain", "") + "\n")
    return "".join(out)


def run(
    name: str, exprs: Iterable[str] = (), replace: Sequence[tuple[str, str]] = (), printed: Sequence[str] = ()
) -> dict:
    """Execute the notebook top to bottom (an error in any cell fails), then evaluate exprs.

    For each snippet in `printed`, the text the one code cell holding it printed is returned
    under PRINTED[snippet], so a test can read what the reader sees after a change."""
    nb = load(name, replace)
    cells = {}
    for snippet in printed:
        hits = [c for c in nb.cells if c.cell_type == "code" and snippet in c.source]
        if len(hits) != 1:
            raise NotebookRunError(f"{name}: {snippet!r} should occur in one code cell, found {len(hits)}")
        cells[snippet] = hits[0]
    exprs = list(exprs)
    nb.cells.append(nbformat.v4.new_code_cell(_PROBE % json.dumps(exprs)))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the kernel inherits it: never contact the Hub
    client = NotebookClient(
        nb, timeout=TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    try:
        client.execute()
    except Exception as exc:  # CellExecutionError names the cell and the traceback
        raise NotebookRunError(f"{name} did not run top to bottom:\n{exc}") from None
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    payload = json.loads(text[text.index("__KVW__") + len("__KVW__") :])
    payload[PRINTED] = {snippet: printed_text(cell) for snippet, cell in cells.items()}
    return payload


PRINTED = "__printed__"


class Values:
    """What the executed notebook computed, by expression."""

    def __init__(self, name: str, raw: dict):
        self.name, self.raw = name, raw

    def __getitem__(self, expr: str):
        got = self.raw[expr]
        if "error" in got:
            raise AssertionError(f"{self.name}: evaluating {expr!r} raised {got['error']}")
        return got["value"]


def executed(name: str, exprs: Iterable[str]) -> Values:
    return Values(name, run(name, exprs))


def code_cells(name: str) -> list[str]:
    return [c.source for c in nbformat.read(NOTEBOOKS / name, as_version=4).cells if c.cell_type == "code"]


def markdown_text(name: str) -> str:
    return "\n".join(
        c.source for c in nbformat.read(NOTEBOOKS / name, as_version=4).cells if c.cell_type == "markdown"
    )


ROOT = Path(__file__).resolve().parents[2]


def check_stated(values: Values, prose: str, claim: str, expr: str, expected) -> None:
    """The claim is quoted in the notebook's text, and the expression gives the stated value."""
    assert claim in prose, f"{values.name} no longer says {claim!r}: update the test with the prose"
    got = values[expr]
    if isinstance(expected, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        ok = abs(got - expected) <= 1e-9 * max(1.0, abs(expected))
    else:
        ok = got == expected
    assert ok, f"{values.name} says {claim!r}, but {expr} = {got!r} (expected {expected!r})"


def notebook_text(name: str) -> str:
    """Everything a reader sees written: markdown and the code cells (with their comments)."""
    return "\n".join(c.source for c in nbformat.read(NOTEBOOKS / name, as_version=4).cells)
