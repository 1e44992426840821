"""Loading Hub repo ids through the real huggingface_hub code, offline.

(1) a prepared Hugging Face cache (models--org--name/refs/main, snapshots/<sha>/, blobs/)
    read with HF_HUB_OFFLINE=1;
(2) a fake Hub on 127.0.0.1 (HF_ENDPOINT) that answers like the Hub for a normal repo
    (config.json + safetensors header), a gated repo, a missing repo and a repo
    without config.json or weights.
Each scenario runs in a fresh interpreter, as huggingface_hub reads its environment
variables at import.
"""

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.ports import closed_port_url

from .checkpoint_files import TINY_CONFIG, TINY_KV_PER_TOKEN, TINY_PARAMS, TINY_TENSORS, safetensors_bytes
from .fake_hub import FakeHub, FakeRepo

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("hub_probe.py")
SHA = "4e8c0f6d2f6f3c1e9b7a5d3c1b0a998877665544"


def probe(calls, tmp_path, **env):
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("HF_", "HUGGINGFACE_")) and k.lower() not in ("http_proxy", "https_proxy")
    }
    clean.update(
        HF_HOME=str(tmp_path / "hf_home"),
        HF_HUB_CACHE=str(tmp_path / "hub"),
        HF_HUB_DISABLE_TELEMETRY="1",
        HF_HUB_DISABLE_PROGRESS_BARS="1",
        NO_PROXY="127.0.0.1,localhost",
        PYTHONPATH=str(ROOT) + os.pathsep + clean.get("PYTHONPATH", ""),
    )
    clean.update(env)
    run = subprocess.run(
        [sys.executable, str(PROBE), json.dumps(calls)],
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def add_to_cache(cache: Path, repo_id: str, files: dict[str, bytes], sha: str = SHA) -> None:
    """Lay files out as huggingface_hub does: blobs by hash, snapshot symlinks, refs/main."""
    folder = cache / ("models--" + repo_id.replace("/", "--"))
    (folder / "refs").mkdir(parents=True, exist_ok=True)
    (folder / "refs" / "main").write_text(sha)
    snap = folder / "snapshots" / sha
    snap.mkdir(parents=True, exist_ok=True)
    (folder / "blobs").mkdir(exist_ok=True)
    for name, data in files.items():
        blob = folder / "blobs" / hashlib.sha256(data).hexdigest()
        blob.write_bytes(data)
        (snap / name).symlink_to(os.path.relpath(blob, snap))


# ---- (1) a prepared local cache, HF_HUB_OFFLINE=1 -------------------------------------------
def test_offline_cache(tmp_path):
    cache = tmp_path / "hub"
    index = {"metadata": {"total_size": 2 * 8_030_261_248}, "weight_map": {}}
    llama = {
        **TINY_CONFIG,
        "hidden_size": 4096,
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "intermediate_size": 14336,
        "vocab_size": 128256,
    }
    add_to_cache(
        cache,
        "acme/cached-llama",
        {
            "config.json": json.dumps(llama).encode(),
            "model.safetensors.index.json": json.dumps(index).encode(),
        },
    )
    add_to_cache(
        cache,
        "acme/cached-tiny",
        {
            "config.json": json.dumps(TINY_CONFIG).encode(),
            "model.safetensors": safetensors_bytes(TINY_TENSORS),
        },
    )
    add_to_cache(cache, "acme/config-only", {"config.json": json.dumps(TINY_CONFIG).encode()})
    with_index, with_single, config_only, missing = probe(
        [
            {"source": "acme/cached-llama"},
            {"source": "acme/cached-tiny"},
            {"source": "acme/config-only"},
            {"source": "acme/not-cached"},
        ],
        tmp_path,
        HF_HUB_OFFLINE="1",
    )

    assert with_index["ok"], with_index
    assert with_index["kv"] == 131_072
    assert (
        with_index["provenance"]["num_key_value_heads"]
        == "config.json of acme/cached-llama: num_key_value_heads"
    )
    assert with_index["params"] == 8_030_261_248  # total_size / 2 bytes (bf16)
    assert (
        with_index["params_source"].startswith("APPROXIMATE")
        and "acme/cached-llama" in with_index["params_source"]
    )

    assert (
        with_single["ok"] and with_single["params"] == TINY_PARAMS and "exact" in with_single["params_source"]
    )

    assert config_only["ok"] and config_only["kv"] == TINY_KV_PER_TOKEN
    assert config_only["params_source"].startswith("ESTIMATE")

    assert not missing["ok"] and missing["type"] == "ModelSourceError"
    msg = missing["message"]
    assert (
        "acme/not-cached" in msg and "HF_HUB_OFFLINE" in msg and "not in the local Hugging Face cache" in msg
    )
    assert "llama-3-8b" in msg  # points at the presets, which work offline


def test_offline_cache_at_a_pinned_revision(tmp_path):
    add_to_cache(tmp_path / "hub", "acme/pinned", {"config.json": json.dumps(TINY_CONFIG).encode()})
    (result,) = probe([{"source": "acme/pinned", "revision": SHA}], tmp_path, HF_HUB_OFFLINE="1")
    assert result["ok"] and result["kv"] == TINY_KV_PER_TOKEN
    assert SHA in result["provenance"]["num_hidden_layers"]


# ---- (2) a fake Hub over HTTP -----------------------------------------------------------------
@pytest.fixture
def hub():
    fake = FakeHub(
        {
            "acme/tiny": FakeRepo(
                {
                    "config.json": json.dumps(TINY_CONFIG).encode(),
                    "model.safetensors": safetensors_bytes(TINY_TENSORS),
                }
            ),
            "acme/gated": FakeRepo({"config.json": json.dumps(TINY_CONFIG).encode()}, gated_token="hf_good"),
            "acme/no-weights": FakeRepo({"config.json": json.dumps(TINY_CONFIG).encode()}),
            "acme/no-config": FakeRepo({"README.md": b"hello"}),
            "acme/broken-json": FakeRepo({"config.json": b'{"num_hidden_layers": 2,'}),
        }
    )
    url = fake.start()
    yield fake, url
    fake.stop()


def test_fake_hub_download_and_exact_params(hub, tmp_path):
    fake, url = hub
    tiny, no_weights = probe(
        [{"source": "acme/tiny"}, {"source": "acme/no-weights"}], tmp_path, HF_ENDPOINT=url
    )
    assert tiny["ok"], tiny
    assert tiny["kv"] == TINY_KV_PER_TOKEN and tiny["name"] == "acme/tiny"
    # exact, from the safetensors header read over HTTP (get_safetensors_metadata)
    assert tiny["params"] == TINY_PARAMS
    assert tiny["params_source"].startswith("safetensors metadata of acme/tiny on the Hub")
    assert "BF16 2,304" in tiny["params_source"] and "F32 16" in tiny["params_source"]
    ranged = [r for r in fake.log if r["path"].endswith("/model.safetensors") and r["method"] == "GET"]
    assert ranged and ranged[0]["range"] == "bytes=0-100000"
    # no safetensors on the repo: fall back to the estimate, and say so
    assert no_weights["ok"] and no_weights["params_source"].startswith("ESTIMATE")

    # the config is now in the cache: offline, the same repo still loads
    (again,) = probe([{"source": "acme/tiny"}], tmp_path, HF_HUB_OFFLINE="1")
    assert again["ok"] and again["kv"] == TINY_KV_PER_TOKEN


def test_fake_hub_gated_repo(hub, tmp_path):
    fake, url = hub
    # wrong token first: once config.json is cached, huggingface_hub (like transformers)
    # serves the cached copy when the Hub refuses
    no_token, wrong_token, with_token, env_token = probe(
        [
            {"source": "acme/gated"},
            {"source": "acme/gated", "token": "hf_wrong"},
            {"source": "acme/gated", "token": "hf_good"},
            {"source": "acme/gated", "env": {"HF_TOKEN": "hf_good"}},
        ],
        tmp_path,
        HF_ENDPOINT=url,
    )
    assert not no_token["ok"] and no_token["type"] == "ModelSourceError"
    msg = no_token["message"]
    assert "acme/gated" in msg and "gated" in msg and "HF_TOKEN" in msg and "token=" in msg
    assert "preset" in msg.lower()
    assert with_token["ok"] and with_token["kv"] == TINY_KV_PER_TOKEN
    assert env_token["ok"]
    assert not wrong_token["ok"] and "gated" in wrong_token["message"]
    assert any(r["auth"] == "Bearer hf_good" for r in fake.log)


def test_fake_hub_missing_repo_and_missing_config(hub, tmp_path):
    _, url = hub
    missing, no_config, bad_revision, broken = probe(
        [
            {"source": "nobody/missing"},
            {"source": "acme/no-config"},
            {"source": "acme/tiny", "revision": "v9"},
            {"source": "acme/broken-json"},
        ],
        tmp_path,
        HF_ENDPOINT=url,
    )
    assert not bad_revision["ok"] and "has no revision 'v9'" in bad_revision["message"]
    assert not broken["ok"] and broken["type"] == "ConfigError" and "not valid JSON" in broken["message"]
    assert not missing["ok"] and missing["type"] == "ModelSourceError"
    assert "no model repository 'nobody/missing'" in missing["message"]
    assert "FileNotFoundError" in missing["mro"]
    assert not no_config["ok"] and "has no config.json" in no_config["message"]


def test_hub_unreachable_fails_fast_or_uses_the_cache(tmp_path):
    # a port nothing listens on: the Hub "cannot be reached". huggingface_hub alone would
    # retry with backoff for about 25 s; kvwidgets checks one connection and goes to the cache.
    add_to_cache(tmp_path / "hub", "acme/cached", {"config.json": json.dumps(TINY_CONFIG).encode()})
    started = time.monotonic()
    missing, cached = probe(
        [{"source": "acme/anything"}, {"source": "acme/cached"}], tmp_path, HF_ENDPOINT=closed_port_url()
    )
    assert time.monotonic() - started < 15
    assert not missing["ok"] and missing["type"] == "ModelSourceError"
    assert "could not be reached" in missing["message"] and "acme/anything" in missing["message"]
    assert cached["ok"] and cached["kv"] == TINY_KV_PER_TOKEN
    assert cached["params_source"].startswith("ESTIMATE")
