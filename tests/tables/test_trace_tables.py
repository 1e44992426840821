"""The allocator and sharing tables: each value is the core's, the rows what was asked."""

from __future__ import annotations

import pytest

import kvwidgets as kw
from kvwidgets import tables
from kvwidgets.data.reported import PAPER_BATCH, PAPER_KV_SLOTS_OPT13B_A100_40GB, PAPER_KV_USE


def test_allocator_table_rows_are_the_cores_means():
    trace = kw.allocator_trace("alpaca", kv_slots=3000, num_requests=150, seed=2)
    df = tables.allocator_table(trace)
    assert list(df["policy"]) == [r.label for r in trace.runs.values()]
    for (_, row), run in zip(df.iterrows(), trace.runs.values(), strict=True):
        assert row["token states (%)"] == pytest.approx(run.mean_token_states * 100)
        assert row["free (%)"] == pytest.approx(run.mean_free * 100)
        assert row["batch (requests)"] == run.mean_running
    shares = [c for c in df.columns if c.endswith("(%)") and not c.startswith("paper")]
    assert df[shares].sum(axis=1).tolist() == pytest.approx([100.0] * len(df))
    assert "paper: batch (requests)" not in df.columns  # not the paper's setting


def test_allocator_table_sets_the_paper_beside_its_setting():
    df = tables.allocator_table(
        requests="sharegpt", kv_slots=PAPER_KV_SLOTS_OPT13B_A100_40GB, num_requests=200
    )
    assert df["paper: batch (requests)"].tolist() == list(PAPER_BATCH["sharegpt"].values())
    assert df["paper: token states (%)"].tolist() == pytest.approx(
        [PAPER_KV_USE[p]["token_states"] * 100 for p in ("max", "pow2", "oracle", "paged")]
    )


def test_allocator_series_long_format():
    trace = kw.allocator_trace("alpaca", kv_slots=3000, num_requests=60, seed=1, points=20)
    df = tables.allocator_series(trace)
    assert len(df) == len(trace.steps) * len(trace.runs) * 5
    per_point = df.groupby(["policy", "step"])["share (%)"].sum()
    assert per_point.tolist() == pytest.approx([100.0] * len(per_point))


def test_sharing_table_rows_and_paper_column():
    df = tables.sharing_table(datasets=("alpaca",), widths=(2, 4), num_requests=100)
    assert len(df) == 4
    got = df[(df["mode"] == "parallel sampling") & (df["samples or beams"] == 2)]["saving (%)"].item()
    assert got == pytest.approx(kw.sharing_saving("alpaca", "parallel", 2, num_requests=100).saving * 100)
    assert df["paper (%)"].notna().all()
