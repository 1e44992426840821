"""load_model: one entry point for every way of naming a model.

source may be
  a Model                       returned as is (params= / name= still apply)
  a preset name or alias        "llama-3-8b", "Llama3-8B" (bundled, offline)
  a config dict                 the contents of a config.json
  a path                        to a config.json, or to a folder holding one
  a Hub repo id                 "org/name", fetched through the Hugging Face cache

Like transformers, an existing local path wins over a preset or repo of the same name.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, ModelSourceError, check_int, unknown_name
from ..core.model import Model
from .checkpoint import index_params, safetensors_params
from .fields import ConfigView
from .hf_config import model_from_config, weight_dtype
from .presets import find_preset, get_preset, list_presets

REPO_ID = re.compile(r"^[A-Za-z0-9][\w.\-]*/[\w.\-]+$")


def load_model(
    source: Any,
    *,
    params: int | None = None,
    name: str | None = None,
    token: str | None = None,
    revision: str | None = None,
) -> Model:
    """A Model from a preset name, config dict, config.json path/folder or Hub repo id.

    params overrides the parameter count (e.g. 70.0e9 vs 70.6e9 for Llama 3 70B, as the
    series uses both); name overrides the display name; token and revision go to the Hub.
    """
    if params is not None:
        params = check_int("params", params, minimum=1)

    if isinstance(source, Model):
        model = source
    elif isinstance(source, Mapping):
        model = model_from_config(source, source="config dict", name=name)
    elif isinstance(source, (str, os.PathLike)):
        model = _from_name_or_path(
            source, name=name, token=token, revision=revision, params_given=params is not None
        )
    else:
        raise ConfigError(
            f"load_model source must be a preset name, a config dict, a path to a config.json (or a folder "
            f"holding one), a Hub repo id 'org/name' or a Model; got {type(source).__name__}"
        )

    if params is not None:
        model = model.with_params(params, "given (params=)")
    if name is not None and model.name != name:
        from dataclasses import replace

        model = replace(model, name=name)
    return model


def _from_name_or_path(source: str | os.PathLike, *, name, token, revision, params_given: bool) -> Model:
    text = os.fspath(source).strip()
    if not text:
        raise ConfigError("load_model source is an empty string; expected a preset name, path or Hub repo id")
    path = Path(text).expanduser()
    if path.exists():
        return _from_path(path, name=name)
    # "org/name" is always a Hub repo id, never a preset alias (qwen/3-8b is not qwen3-8b)
    if REPO_ID.match(text) and not text.endswith(".json"):
        return _from_hub(text, name=name, token=token, revision=revision, params_given=params_given)
    preset = find_preset(text)
    if preset is not None:
        return _from_preset(preset, name=name)
    if text.endswith(".json") or os.sep in text or text.startswith((".", "~")):
        raise ModelSourceError(
            f"no such file or folder: {text} (expected a config.json or a folder holding one)"
        )
    err = unknown_name("preset", text, list_presets())
    err.args = (str(err) + " A Hub model needs its full repo id, 'org/name'.",)
    raise err


# ---- presets ----------------------------------------------------------------------------
# Widgets and kw.* calls resolve preset names on every slider tick; a Model is frozen,
# so parsing each bundled config once is safe and saves ~0.6 ms a call.
@functools.lru_cache(maxsize=64)
def _from_preset(preset: str, *, name: str | None) -> Model:
    preset, config, prov, par = get_preset(preset)
    repo = prov.get("repo_id", "?")
    source = f"config.json of {repo} (bundled preset {preset})"
    value = par.get("value")
    return model_from_config(
        config,
        source=source,
        name=name or preset,
        params=int(value) if value else None,
        params_source=par.get("source") if value else None,
    )


# ---- local files ------------------------------------------------------------------------
def _read_json(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ModelSourceError(f"cannot read {path}: {e.strerror or e}") from e
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(
            f"{path} is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg}); "
            "expected a config.json object"
        ) from e
    if not isinstance(data, dict):
        raise ConfigError(f"{path} holds a JSON {type(data).__name__}, expected an object (a config.json)")
    return data


def _from_path(path: Path, *, name: str | None) -> Model:
    if path.is_dir():
        folder, file = path, path / "config.json"
        if not file.is_file():
            raise ModelSourceError(
                f"folder {path} has no config.json (expected a model folder as saved by "
                "transformers, or pass the path of the config file itself)"
            )
    else:
        folder, file = path.parent, path
    config = _read_json(file)
    source = f"config.json at {file}"
    params = params_source = None
    single, index = folder / "model.safetensors", folder / "model.safetensors.index.json"
    if single.is_file():
        counts = safetensors_params(single)
        params, params_source = sum(counts.values()), f"header of {single} (exact)"
    elif index.is_file() and (found := index_params(index, weight_dtype(ConfigView(config, source)))):
        params, params_source = found
    label = name or config.get("_name_or_path") or (folder.name if folder.name else None)
    return model_from_config(config, source=source, name=label, params=params, params_source=params_source)


# ---- the Hub ----------------------------------------------------------------------------
def _from_hub(repo_id: str, *, name, token, revision, params_given: bool) -> Model:
    from . import hub  # imports huggingface_hub only when a repo id is actually used

    hub.require(repo_id, list_presets())
    config, _path = hub.fetch_config(repo_id, revision=revision, token=token)
    source = f"config.json of {repo_id}" + (f" at revision {revision}" if revision else "")
    params = params_source = None
    if not params_given:
        found = hub.hub_params(
            repo_id, revision=revision, token=token, weight_dtype=weight_dtype(ConfigView(config, source))
        )
        if found:
            params, params_source = found
    return model_from_config(
        config, source=source, name=name or repo_id, params=params, params_source=params_source
    )
