"""The GPU and storage tables (kvwidgets/data/gpus.json, storage.json): every row complete,
numbers positive and sane, aliases unique, lookups forgiving of case and punctuation."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

import kvwidgets as kw
from kvwidgets.core import GPU, GPUS, STORAGE, UnknownNameError, get_gpu

FIELDS = {
    "aliases",
    "memory_gb",
    "memory_type",
    "device_bytes",
    "bandwidth_gbps",
    "bf16_tflops",
    "fp8",
    "host_link",
    "host_link_gbps",
    "source",
}


def raw(name: str) -> dict:
    return json.loads(resources.files("kvwidgets.data").joinpath(name).read_text())


def rows(name: str) -> dict:
    return {k: v for k, v in raw(name).items() if not k.startswith("_")}


@pytest.mark.parametrize("name", sorted(rows("gpus.json")))
def test_every_gpu_row_has_every_field(name):
    row = rows("gpus.json")[name]
    assert set(row) == FIELDS, f"{name}: missing {FIELDS - set(row)}, unexpected {set(row) - FIELDS}"
    for field in ("memory_gb", "bandwidth_gbps", "bf16_tflops", "host_link_gbps"):
        assert isinstance(row[field], (int, float)) and not isinstance(row[field], bool) and row[field] > 0, (
            field
        )
    assert isinstance(row["fp8"], bool)
    assert row["device_bytes"] is None or (isinstance(row["device_bytes"], int) and row["device_bytes"] > 0)
    assert row["memory_type"] in {"HBM2", "HBM2e", "HBM3", "HBM3e", "GDDR6", "GDDR6X"}
    assert re.fullmatch(r"PCIe Gen[3-6] x16", row["host_link"])
    # x16 lanes, one direction: Gen4 32 GB/s, Gen5 64 GB/s (the datasheets' 64 / 128 count both ways)
    gen = int(row["host_link"][8])
    assert row["host_link_gbps"] == {3: 16, 4: 32, 5: 64, 6: 128}[gen]
    # A source names the document and the dense/sparse reading, not just a vendor.
    assert len(row["source"]) > 60 and re.search(
        r"datasheet|data sheet|whitepaper|specifications", row["source"]
    )
    assert all(isinstance(a, str) and a.strip() for a in row["aliases"])


@pytest.mark.parametrize("name", sorted(GPUS))
def test_gpu_rows_are_physically_sane(name):
    g = GPUS[name]
    assert 16 <= g.memory_gb <= 300
    assert 100 <= g.bandwidth_gbps <= 10_000
    assert 50 <= g.bf16_tflops <= 5_000  # dense: no datasheet's "with sparsity" doubling
    assert g.host_link_gbps < g.bandwidth_gbps  # the host link is always the slow way in
    if g.device_bytes is not None:
        # A device reports a little more than its marketed GB (H200: 150.1e9 for "141 GB").
        assert g.memory_bytes < g.device_bytes < 1.1 * g.memory_bytes


def test_the_series_gpu_figures_are_the_datasheets():
    h100, h200 = get_gpu("H100"), get_gpu("H200")
    assert (h100.memory_gb, h100.bandwidth_gbps, h100.bf16_tflops, h100.fp8) == (80, 3350, 989, True)
    assert (h200.memory_gb, h200.bandwidth_gbps, h200.bf16_tflops) == (141, 4800, 989)
    assert not get_gpu("A100").fp8  # Ampere has no FP8 tensor cores
    assert get_gpu("H200").device_bytes == 150_109_880_320


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def test_names_and_aliases_are_unique_ignoring_case_and_punctuation():
    seen: dict[str, str] = {}
    for name, g in GPUS.items():
        for n in (name, *g.aliases):
            k = _key(n)
            assert seen.get(k, name) == name, f"{n!r} ({name}) collides with {seen[k]}"
            seen[k] = name


@pytest.mark.parametrize(
    "spelling, name",
    [
        ("h100", "H100-SXM"),
        ("H100 SXM", "H100-SXM"),
        ("H100-SXM5", "H100-SXM"),
        ("h100_sxm", "H100-SXM"),
        ("H100 PCIe", "H100-PCIe"),
        ("mi300x", "MI300X"),
        ("AMD MI300X", "MI300X"),
        ("a100", "A100-80GB"),
        ("A100 40GB", "A100-40GB"),
        ("rtx 4090", "RTX-4090"),
        ("4090", "RTX-4090"),
        ("h200", "H200"),
        ("l40s", "L40S"),
        ("L4", "L4"),
        ("hgx b200", "B200"),
    ],
)
def test_case_insensitive_lookups(spelling, name):
    assert get_gpu(spelling).name == name
    assert kw.get_gpu(spelling) is GPUS[name]


def test_every_alias_finds_its_row():
    for g in GPUS.values():
        for alias in g.aliases:
            assert get_gpu(alias) is g
            assert get_gpu(alias.upper()) is g and get_gpu(alias.lower()) is g


def test_a_gpu_object_passes_through_and_unknown_names_fail():
    g = GPUS["L4"]
    assert get_gpu(g) is g and isinstance(g, GPU)
    with pytest.raises(UnknownNameError, match="unknown GPU 'H300'"):
        get_gpu("H300")


# ---- storage tiers ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(rows("storage.json")))
def test_storage_rows(name):
    row = rows("storage.json")[name]
    assert set(row) == {"label", "low_gbps", "typical_gbps", "high_gbps", "source"}
    assert 0 < row["low_gbps"] <= row["typical_gbps"] <= row["high_gbps"]
    assert len(row["source"]) > 60
    assert STORAGE[name].typical_gbps == row["typical_gbps"]


def test_storage_ranges_match_their_sources():
    # Pinned copies cannot beat PCIe Gen5 x16's 64 GB/s; the measured 55.4 lies inside the range.
    pinned = STORAGE["cpu-pinned"]
    assert pinned.high_gbps == 64 and pinned.low_gbps <= 55.4 <= pinned.high_gbps
    assert STORAGE["cpu-pageable"].typical_gbps == 6.8
    ssd = STORAGE["nvme-ssd"]
    assert (ssd.low_gbps, ssd.high_gbps) == (3.5, 14.8)  # Gen3 970 PRO .. Gen5 9100 PRO rated reads
    assert ssd.high_gbps < pinned.low_gbps  # one SSD is slower than pinned CPU memory
