"""The shapes Python sends the browser equal what kvwidgets/widgets/js/shapes.d.ts declares.

tsc checks the JavaScript against shapes.d.ts (jsconfig.strict.json); this test checks
shapes.d.ts against Python: for every interface, the keys declared must be the keys Python
produces (an optional `?` key may be left out of some, a required one of none; a key
declared `?: undefined` must never be sent), and a number, string or boolean key must hold one. What Python produces: browser_data.model_shape()
of every preset and of a cross-attention model (no preset has one), and each widget's synced
traits and their values. A key renamed on either side fails here.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Any

import ipywidgets
import pytest

from kvwidgets import widgets
from kvwidgets.configs import load_model
from kvwidgets.core.layers import CrossAttentionSpec, FullAttentionSpec, LayerGroup
from kvwidgets.core.model import Model
from kvwidgets.widgets import browser_data
from kvwidgets.widgets.base import KVWidget

ROOT = Path(__file__).resolve().parents[2]
SHAPES = ROOT / "kvwidgets" / "widgets" / "js" / "shapes.d.ts"

# A declared type that names one shape: Foo, Foo[], Record<string, Foo>, each maybe `| null`.
NESTED = re.compile(
    r"^(?:(?P<record>Record<string, )(?P<rname>\w+)>|(?P<name>\w+)(?P<list>\[\])?)(?: \| null)?$"
)
SCALARS = {"number": (int, float), "string": (str,), "boolean": (bool,)}
# The layer groups' union, told apart by their `kind` literal.
GROUP_UNION = "LayerGroup"


def declared_interfaces(path: Path = SHAPES) -> dict[str, dict[str, dict[str, Any]]]:
    """Interface name -> key -> {optional, type}, as the TypeScript compiler reads path."""
    node = shutil.which("node")
    assert node, "Node.js is needed to read shapes.d.ts with the TypeScript compiler"
    proc = subprocess.run(
        [node, str(ROOT / "tests" / "js" / "shape_keys.mjs"), str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def declared() -> dict[str, dict[str, dict[str, Any]]]:
    return declared_interfaces()


def group_interfaces(declared: dict) -> dict[str, str]:
    """Layer kind -> the interface declaring its group (the one whose `kind` is that literal)."""
    out = {}
    for name, keys in declared.items():
        literal = re.fullmatch(r'"(\w+)"', keys.get("kind", {}).get("type", ""))
        if literal:
            out[literal.group(1)] = name
    return out


def collect(declared: dict, interface: str, value: Any, samples: dict[str, list[dict]]) -> None:
    """File `value` (a dict Python sends) under `interface`, and each nested shape under its own."""
    if interface == GROUP_UNION:
        kinds = group_interfaces(declared)
        assert value.get("kind") in kinds, (
            f"layer group kind {value.get('kind')!r}: shapes.d.ts declares {sorted(kinds)}"
        )
        interface = kinds[value["kind"]]
    samples[interface].append(value)
    for key, spec in declared.get(interface, {}).items():
        nested = NESTED.match(spec["type"])
        inner = value.get(key)
        if not nested or inner is None:
            continue
        name = nested["rname"] or nested["name"]
        if name not in declared and name != GROUP_UNION:
            continue
        if nested["record"]:
            items = list(inner.values())
        elif nested["list"]:
            items = list(inner)
        else:
            items = [inner]
        for item in items:
            collect(declared, name, item, samples)


def mismatches(declared: dict, samples: dict[str, list[dict]]) -> list[str]:
    """What differs between each interface's declared keys and the dicts Python produced for it."""
    out = []
    for interface, values in sorted(samples.items()):
        keys = declared.get(interface)
        if keys is None:
            out.append(f"{interface}: not declared in shapes.d.ts")
            continue
        produced = set().union(*(v.keys() for v in values))
        never_sent = {k for k, spec in keys.items() if spec["type"] == "undefined"}
        for key in sorted(produced & never_sent):
            out.append(f"{interface}.{key}: declared never sent (undefined), produced by Python")
        keys = {k: spec for k, spec in keys.items() if k not in never_sent}
        for key in sorted(produced - set(keys) - never_sent):
            out.append(f"{interface}.{key}: produced by Python, not declared in shapes.d.ts")
        for key in sorted(set(keys) - produced):
            out.append(
                f"{interface}.{key}: declared in shapes.d.ts, produced by none of {len(values)} values"
            )
        for key, spec in sorted(keys.items()):
            lacking = sum(key not in v for v in values)
            if not spec["optional"] and lacking:
                out.append(
                    f"{interface}.{key}: declared required, missing from {lacking} of {len(values)} values"
                )
            out += wrong_scalars(interface, key, spec["type"], [v[key] for v in values if key in v])
    return out


def wrong_scalars(interface: str, key: str, declared_type: str, found: list[Any]) -> list[str]:
    parts = [p.strip() for p in declared_type.split("|")]
    allowed: tuple[type, ...] = ()
    for part in parts:
        if part not in SCALARS and part != "null":
            return []  # not a plain scalar: its own interface is checked, or it is free-form
        allowed += SCALARS.get(part, ())
    nullable = "null" in parts
    bad = {
        type(v).__name__
        for v in found
        if not (v is None and nullable)
        and (not isinstance(v, allowed) or (isinstance(v, bool) and bool not in allowed))
    }
    return (
        [f"{interface}.{key}: declared {declared_type}, Python sends {', '.join(sorted(bad))}"] if bad else []
    )


def model_shapes() -> list[dict]:
    """The browser's shape of every preset, and of a model with cross-attention layers."""
    shapes = list(browser_data.preset_shapes().values())
    vision = Model(
        "cross-attention-example",
        (
            LayerGroup(FullAttentionSpec(8, 128), 32),
            LayerGroup(CrossAttentionSpec(8, 128, encoder_tokens=6404), 8),
        ),
        8_000_000_000,
        num_query_heads=32,
    )
    # DeepSeek-V4's compressed layers, from its verbatim config (no preset has them)
    compressed = load_model(
        ROOT / "tests" / "configs" / "corpus" / "deepseek-ai--DeepSeek-V4-Flash" / "config.json"
    )
    return [*shapes, browser_data.model_shape(vision), browser_data.model_shape(compressed)]


def widget_classes() -> list[type[KVWidget]]:
    return [
        cls
        for cls in (getattr(widgets, name) for name in widgets.__all__)
        if isinstance(cls, type) and issubclass(cls, KVWidget) and cls is not KVWidget
    ]


def synced_keys(cls: type) -> set[str]:
    """The traits a widget syncs to the browser beyond what every ipywidget syncs."""
    base = set(ipywidgets.DOMWidget.class_trait_names(sync=True))
    return {n for n in cls.class_trait_names(sync=True) if n not in base and not n.startswith("_")}


def test_every_layer_kind_has_a_declared_group(declared):
    kinds = group_interfaces(declared)
    from kvwidgets.core import layers

    python_kinds = {
        cls.kind
        for cls in vars(layers).values()
        if isinstance(cls, type) and issubclass(cls, layers.LayerSpec) and cls is not layers.LayerSpec
    }
    assert python_kinds == set(kinds), (
        f"layer kinds in Python {sorted(python_kinds)}, in shapes.d.ts {sorted(kinds)}"
    )


def test_model_shapes_have_the_declared_keys(declared):
    samples: dict[str, list[dict]] = defaultdict(list)
    for shape in model_shapes():
        collect(declared, "ModelShape", shape, samples)
    assert set(group_interfaces(declared).values()) <= set(samples), "a layer kind produced by no model"
    found = mismatches(declared, samples)
    assert not found, "shapes.d.ts and Model.shape() differ:\n" + "\n".join(found)


def test_each_widget_state_has_the_declared_keys(declared):
    classes = widget_classes()
    assert len(classes) >= 11
    states = {n for n in declared if n.endswith("State") and n != "KVWidgetState"}
    assert states == {f"{cls.__name__}State" for cls in classes}, (
        "one <Widget>State per widget, named after its class"
    )
    assert set(declared["KVWidgetState"]) == synced_keys(KVWidget)
    samples: dict[str, list[dict]] = defaultdict(list)
    for cls in classes:
        widget = cls()
        state = {name: getattr(widget, name) for name in synced_keys(cls)}
        collect(declared, f"{cls.__name__}State", state, samples)
    found = mismatches(declared, samples)
    assert not found, "shapes.d.ts and the widgets' synced state differ:\n" + "\n".join(found)


def test_a_renamed_key_fails_on_either_side(declared, tmp_path):
    """The comparison catches a key renamed in shapes.d.ts and one renamed in Python's dict."""
    text = SHAPES.read_text()
    assert "  head_k: number;" in text
    renamed = tmp_path / "shapes.d.ts"
    renamed.write_text(text.replace("  head_k: number;", "  head_key: number;", 1))
    renamed_declared = declared_interfaces(renamed)
    samples: dict[str, list[dict]] = defaultdict(list)
    for shape in model_shapes():
        collect(renamed_declared, "ModelShape", shape, samples)
    found = mismatches(renamed_declared, samples)
    assert any("head_key: declared in shapes.d.ts, produced by none" in f for f in found), found
    assert any("head_k: produced by Python, not declared" in f for f in found), found

    shape = model_shapes()[0]
    shape["query_head"] = shape.pop("query_heads")
    samples = defaultdict(list)
    collect(declared, "ModelShape", shape, samples)
    found = mismatches(declared, samples)
    assert "ModelShape.query_head: produced by Python, not declared in shapes.d.ts" in found
    assert "ModelShape.query_heads: declared in shapes.d.ts, produced by none of 1 values" in found
