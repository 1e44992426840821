"""Bundled presets: trimmed config.json files in kvwidgets/data/presets/<name>.json.

Each file holds the fields the loader reads, copied from the model's published
config.json, plus two kvwidgets keys:
  "provenance"  repo_id, where the config was read and when, a one-line description,
                aliases
  "params"      {"value": total parameter count, "source": where that number comes from}
Names are matched case-insensitively and ignoring punctuation, so "Llama3-8B",
"llama_3_8b" and "llama-3-8b" are the same preset.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from ..core.errors import ConfigError, unknown_name

KVWIDGETS_KEYS = ("provenance", "params")


def compact(name: str) -> str:
    """'Llama-3.1-8B' -> 'llama318b': the key names are matched on."""
    return re.sub(r"[^a-z0-9]", "", str(name).lower())


@cache
def _files() -> dict[str, dict[str, Any]]:
    folder = resources.files("kvwidgets.data").joinpath("presets")
    out: dict[str, dict[str, Any]] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            name = entry.name[: -len(".json")]
            try:
                out[name] = json.loads(entry.read_text(encoding="utf-8"))
            except json.JSONDecodeError as e:  # a packaging mistake, not a user error
                raise ConfigError(f"bundled preset {entry.name} is not valid JSON: {e}") from e
    return out


@cache
def _index() -> dict[str, str]:
    """compact name or alias -> preset name; two presets may never claim one key."""
    index: dict[str, str] = {}
    for name, data in _files().items():
        for key in [name, *data.get("provenance", {}).get("aliases", [])]:
            c = compact(key)
            if index.get(c, name) != name:
                raise ConfigError(f"preset alias {key!r} is claimed by both {index[c]!r} and {name!r}")
            index[c] = name
    return index


def list_presets() -> list[str]:
    """Names of the bundled presets, sorted."""
    return sorted(_files())


def preset_descriptions() -> dict[str, str]:
    return {
        name: data.get("provenance", {}).get("description", "") for name, data in sorted(_files().items())
    }


def find_preset(name: str) -> str | None:
    """The preset a name or alias refers to, or None."""
    return _index().get(compact(name))


def get_preset(name: str) -> tuple[str, Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]]:
    """(preset name, config fields, provenance, params) or UnknownNameError listing close matches."""
    found = find_preset(name)
    if found is None:
        raise unknown_name("preset", name, list_presets())
    data = _files()[found]
    config = {k: v for k, v in data.items() if k not in KVWIDGETS_KEYS}
    return found, config, data.get("provenance", {}), data.get("params", {})
