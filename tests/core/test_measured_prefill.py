"""The measured H200 prefill and host copies shipped in kvwidgets/data/h200, read as data."""

import json
from importlib import resources

import kvwidgets as kw
from kvwidgets.data.measured import h200_host_copy_gbps, h200_prefill


def test_prefill_rows_are_the_measurement():
    raw = json.loads(resources.files("kvwidgets.data").joinpath("h200", "measure.json").read_text())[
        "prefill"
    ]
    rows = h200_prefill()
    assert [r["tokens"] for r in rows] == [1_024, 4_096, 8_192, 16_384, 32_768]
    assert [r["seconds"] * 1e3 for r in rows] == [r["prefill_ms"] for r in raw]
    # The README's table: 8,192 tokens in 228 ms, 32,768 in 1,283 ms.
    assert round(rows[2]["seconds"] * 1e3) == 228 and round(rows[4]["seconds"] * 1e3) == 1_283


def test_measured_prefill_is_slower_than_the_ideal_floor():
    m = kw.load_model("llama-3-8b")
    for r in h200_prefill():
        assert r["seconds"] > kw.prefill_seconds(m, "H200", r["tokens"])


def test_host_copy_matches_the_storage_table():
    copy = h200_host_copy_gbps()
    assert round(copy["h2d_pinned_GBps"], 1) == 55.4 and round(copy["h2d_pageable_GBps"], 1) == 6.8
    pinned = kw.STORAGE["cpu-pinned"]
    assert pinned.low_gbps <= copy["h2d_pinned_GBps"] <= pinned.high_gbps


def test_the_readme_says_only_what_is_known_of_the_batch_1_decode_rows():
    # The rows record that PyTorch's scaled_dot_product_attention ran, not which backend; the
    # flash backend (flash_api.cpp) packs a KV head's query heads and splits the context when
    # batch x heads is small, so "32 thread blocks, each reading its head's context alone" was
    # an explanation the data never supported.
    readme = resources.files("kvwidgets.data").joinpath("h200", "README.md").read_text()
    for words in ("32 thread blocks", "divides a decode step's work by sequence and head only"):
        assert words not in readme
    assert "not which backend it picked" in readme
    # the figures the README gives for batch 1: 0.57 TB/s at 128K; +39.7 ms for +12.9 GB from 32K
    raw = json.loads(resources.files("kvwidgets.data").joinpath("h200", "measure.json").read_text())["decode"]
    row = {r["context"]: r for r in raw if r["batch"] == 1 and r["attention"] == "sdpa"}
    assert round(row[131_072]["achieved_GBps"] / 1000, 2) == 0.57
    more_ms = row[131_072]["step_ms"] - row[32_768]["step_ms"]
    more_bytes = row[131_072]["bytes_per_step"] - row[32_768]["bytes_per_step"]
    assert (round(more_ms, 1), round(more_bytes / 1e9, 1), round(more_bytes / more_ms / 1e9, 2)) == (
        39.7,
        12.9,
        0.32,
    )
    assert (
        "0.57 TB/s (from 32K to 128K its step grew by 39.7 ms for 12.9 GB more history, about\n0.32 TB/s"
        in readme
    )
