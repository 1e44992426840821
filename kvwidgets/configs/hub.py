"""The Hugging Face Hub: the only module that imports huggingface_hub.

config.json is fetched with hf_hub_download, so the local cache, HF_HUB_OFFLINE,
HF_ENDPOINT and HF_TOKEN all behave as they do for transformers. Only data files are
read (config.json, safetensors headers); no model code is ever downloaded or run.

When the Hub cannot be reached at all, huggingface_hub retries with backoff for about
25 s before falling back to the cache. A one-connection check (3 s at most, skipped
behind a proxy, where only the proxy knows) goes straight to the cache instead, so an
offline notebook answers at once.

Errors are turned into ModelSourceError messages that say what to do: a gated repo
needs its licence accepted and a token (HF_TOKEN or token=); a missing repo may be a
typo or private; offline with nothing cached cannot work. Each message also names the
bundled presets, which need no network at all.
"""

from __future__ import annotations

import json
import os
import socket
from typing import Any
from urllib.parse import urlsplit

from ..core.errors import ConfigError, ModelSourceError
from .checkpoint import index_params, safetensors_params
from .presets import list_presets


def _presets_hint() -> str:
    return (
        "Bundled presets need no network, e.g. kw.load_model('llama-3-8b'); the presets are "
        + ", ".join(list_presets())
        + "."
    )


PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy")


def require(repo_id: str, presets: list[str]) -> None:
    """Raise ModelSourceError when huggingface_hub is missing: it is a dependency, but
    not installable everywhere (the offline JupyterLite site of scripts/lite.sh has none)."""
    try:
        import huggingface_hub  # noqa: F401
    except ModuleNotFoundError:
        raise ModelSourceError(
            f"cannot load {repo_id!r} from the Hugging Face Hub: the huggingface_hub package is not "
            f"installed here; use a preset ({', '.join(presets[:3])}, ...), a local config.json or a config dict"
        ) from None


def hub_reachable(timeout: float = 3.0) -> bool:
    """Can a TCP connection to the Hub endpoint (HF_ENDPOINT) be opened? True behind a proxy."""
    from huggingface_hub import constants

    if any(os.environ.get(v) for v in PROXY_VARIABLES):
        return True
    url = urlsplit(constants.ENDPOINT)
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        socket.create_connection((url.hostname, port), timeout=timeout).close()
        return True
    except OSError:
        return False


def is_offline() -> bool:
    from huggingface_hub import constants

    check = getattr(constants, "is_offline_mode", None)  # a function since huggingface_hub 1.0
    return bool(check()) if check else bool(constants.HF_HUB_OFFLINE)


def fetch_config(
    repo_id: str, *, revision: str | None = None, token: str | None = None
) -> tuple[dict[str, Any], str]:
    """(config dict, local path) of a Hub repo's config.json, through the HF cache."""
    import huggingface_hub
    from huggingface_hub import constants
    from huggingface_hub import errors as hf_errors
    from huggingface_hub.errors import (
        GatedRepoError,
        HFValidationError,
        LocalEntryNotFoundError,
        OfflineModeIsEnabled,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    # huggingface_hub 1.0 split EntryNotFoundError into remote and local kinds
    RemoteEntryNotFoundError = getattr(hf_errors, "RemoteEntryNotFoundError", hf_errors.EntryNotFoundError)

    rev = revision or "main"
    offline = is_offline()
    unreachable = not offline and not hub_reachable()
    try:
        path = huggingface_hub.hf_hub_download(
            repo_id, "config.json", revision=revision, token=token, local_files_only=unreachable
        )
    except GatedRepoError as e:
        raise ModelSourceError(
            f"{repo_id} is a gated repository on the Hugging Face Hub: accept its licence on "
            f"{constants.ENDPOINT}/{repo_id} and give a token with access, either in the HF_TOKEN "
            f"environment variable or as kw.load_model({repo_id!r}, token=...). {_presets_hint()}"
        ) from e
    except RepositoryNotFoundError as e:
        raise ModelSourceError(
            f"no model repository {repo_id!r} found on the Hugging Face Hub (check the spelling; a private "
            f"repo also needs a token in HF_TOKEN or token=). {_presets_hint()}"
        ) from e
    # before RemoteEntryNotFoundError: before huggingface_hub 1.0 the local error subclassed it
    except (LocalEntryNotFoundError, OfflineModeIsEnabled) as e:
        endpoint = constants.ENDPOINT
        why = (
            "HF_HUB_OFFLINE is set (offline mode)"
            if offline
            else f"the Hugging Face Hub could not be reached ({endpoint})"
        )
        raise ModelSourceError(
            f"cannot load {repo_id}: {why} and its config.json (revision {rev!r}) is not in the local "
            f"Hugging Face cache. Download it once while online, point to a local config.json, "
            f"or use a preset. {_presets_hint()}"
        ) from e
    except RevisionNotFoundError as e:
        raise ModelSourceError(f"{repo_id} has no revision {rev!r} on the Hugging Face Hub") from e
    except RemoteEntryNotFoundError as e:
        raise ModelSourceError(
            f"{repo_id} (revision {rev!r}) has no config.json, so it is not a "
            "transformers model kvwidgets can read"
        ) from e
    except HFValidationError as e:
        raise ModelSourceError(f"{repo_id!r} is not a valid Hub repo id (expected 'org/name'): {e}") from e
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f), path
    except json.JSONDecodeError as e:
        raise ConfigError(f"config.json of {repo_id} (cached at {path}) is not valid JSON: {e}") from e


def hub_params(
    repo_id: str, *, revision: str | None, token: str | None, weight_dtype: str
) -> tuple[int, str] | None:
    """(params, source) for a Hub repo, or None when nothing better than an estimate exists.

    Online: exact, from the safetensors headers (get_safetensors_metadata). Offline or
    when that fails: a cached model.safetensors (exact, from its header) or a cached
    model.safetensors.index.json (approximate, total_size / bytes per parameter).
    """
    import huggingface_hub

    if not is_offline() and hub_reachable():
        try:
            meta = huggingface_hub.get_safetensors_metadata(repo_id, revision=revision, token=token)
            counts = dict(meta.parameter_count)
            if counts:
                detail = ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items()))
                return sum(counts.values()), f"safetensors metadata of {repo_id} on the Hub ({detail})"
        except Exception:
            pass
    single = huggingface_hub.try_to_load_from_cache(repo_id, "model.safetensors", revision=revision)
    if isinstance(single, str):
        counts = safetensors_params(single)
        return sum(counts.values()), f"header of the cached model.safetensors of {repo_id} (exact)"
    index = huggingface_hub.try_to_load_from_cache(repo_id, "model.safetensors.index.json", revision=revision)
    if isinstance(index, str):
        found = index_params(index, weight_dtype)
        if found:
            params, how = found
            return params, f"{how} (cached index of {repo_id})"
    return None
