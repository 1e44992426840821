"""The configs in tests/configs/layouts (each holds a `_source` line saying where it came
from) and a model's layers counted by kind: what the layout tests read and compare."""

from __future__ import annotations

import json
from pathlib import Path

LAYOUTS = Path(__file__).parent / "layouts"


def config(name: str) -> dict:
    """The config of tests/configs/layouts/<name>.json without its `_source` line."""
    data = json.loads((LAYOUTS / f"{name}.json").read_text())
    assert data.pop("_source")
    return data


def kinds(model) -> dict[str, int]:
    """Layers by kind, in the order the model's groups first name each kind."""
    out: dict[str, int] = {}
    for g in model.groups:
        out[g.spec.kind] = out.get(g.spec.kind, 0) + g.count
    return out
