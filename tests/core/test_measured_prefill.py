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
