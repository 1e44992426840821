"""vllm_groups_table: one row per KV cache group, each value the report's own."""

from __future__ import annotations

from kvwidgets import tables

GiB, KiB = 2**30, 1024


def test_gemma3_groups_table_rows_match_the_report():
    df = tables.vllm_groups_table("gemma-3-27b", "H100", max_model_len=32_768, kv_cache_memory_bytes=40 * GiB)
    r = df.attrs["report"]
    assert len(df) == len(r.groups) == 7
    assert list(df["layers"]) == [g.layers for g in r.groups]
    assert df["padding layers"].sum() == r.padding_layers == 8
    assert (df["layers"] + df["padding layers"] == r.group_size).all()
    # every group shares one page: 16 tokens x 16 KV heads x 256 numbers x 2 B
    assert (df["page (KiB)"] == 16 * 16 * 256 * 2 / KiB).all()
    assert df["blocks per request"].sum() == r.blocks_per_request
    assert abs(df["share of a request's blocks"].sum() - 1) < 1e-12
