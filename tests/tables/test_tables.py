"""The tables: each value equals the core's answer, the shape is what was asked, the units
are in the column names and mean what they say."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import kvwidgets as kw
from kvwidgets import tables
from kvwidgets.core import FullAttentionSpec, LayerGroup, Model, SlidingWindowSpec

GB, KiB = 10**9, 1024


@pytest.fixture(scope="module")
def m8():
    return kw.load_model("llama-3-8b")


@pytest.fixture(scope="module")
def m70():
    return kw.load_model("llama-3-70b")


@pytest.fixture(scope="module")
def hybrid():
    """A gpt-oss-like hybrid built here, so these tests do not depend on a preset."""
    groups = (LayerGroup(SlidingWindowSpec(8, 64, window=128), 18), LayerGroup(FullAttentionSpec(8, 64), 18))
    return Model("hybrid-test", groups, 116_000_000_000, num_query_heads=64)


def test_exports():
    assert set(tables.__all__) == {
        "allocator_series",
        "allocator_table",
        "attention_designs_table",
        "bytes_per_token_table",
        "cache_per_conversation_table",
        "decode_table",
        "offload_table",
        "shape_variants",
        "sharing_table",
        "users_grid",
        "users_table",
        "vllm_groups_table",
    }
    for name in tables.__all__:
        assert callable(getattr(tables, name))


# ---- bytes per token ---------------------------------------------------------------------------


def test_bytes_per_token_table(m8, m70, hybrid):
    df = tables.bytes_per_token_table([m8, "llama-3-70b", hybrid])
    assert list(df["model"]) == ["llama-3-8b", "llama-3-70b", "hybrid-test"]
    for col in [
        "attention design",
        "full layers",
        "sliding layers",
        "MLA layers",
        "KV heads",
        "head dim",
        "bytes/token bf16 (B)",
        "bytes/token fp8 (B)",
        "bytes/token bf16 (KiB)",
    ]:
        assert col in df.columns
    for m, (_, row) in zip([m8, m70, hybrid], df.iterrows()):
        assert row["bytes/token bf16 (B)"] == m.kv_bytes_per_token("bf16")
        assert row["bytes/token fp8 (B)"] == m.kv_bytes_per_token("fp8")
        assert row["bytes/token bf16 (KiB)"] * KiB == m.kv_bytes_per_token()
        assert (
            row["layers"]
            == m.num_layers
            == row[
                [
                    "full layers",
                    "sliding layers",
                    "chunked layers",
                    "cross-attention layers",
                    "MLA layers",
                    "recurrent layers",
                ]
            ].sum()
        )
    assert df.loc[0, "bytes/token bf16 (KiB)"] == 128 and df.loc[1, "bytes/token bf16 (KiB)"] == 320
    assert list(df["attention design"]) == ["GQA", "GQA", "hybrid: sliding GQA + GQA"]
    assert (df.loc[2, "full layers"], df.loc[2, "sliding layers"]) == (18, 18)
    assert df.loc[2, "bytes/token bf16 (B)"] == 36_864  # 18 full layers only
    assert list(df["KV heads"]) == ["8", "8", "8"] and df.loc[0, "head dim"] == "128"
    assert df["MLA latent (numbers)"].isna().all()


def test_bytes_per_token_table_takes_one_model(m8):
    assert len(tables.bytes_per_token_table(m8)) == 1
    assert len(tables.bytes_per_token_table("llama-3-8b")) == 1


def test_designs_are_labelled_from_heads(m8):
    df = tables.bytes_per_token_table([m8.with_kv_heads(1), m8.with_kv_heads(32)])
    assert list(df["attention design"]) == ["MQA", "MHA"]


# ---- cache per conversation ------------------------------------------------------------------------


def test_cache_per_conversation_table(m8, m70, hybrid):
    df = tables.cache_per_conversation_table([m8, m70, hybrid])
    cols = ["1K tokens (GB)", "8K tokens (GB)", "32K tokens (GB)", "128K tokens (GB)", "1M tokens (GB)"]
    assert [c for c in df.columns if c.endswith("tokens (GB)")] == cols
    assert df.shape == (3, 4 + len(cols))
    for m, (_, row) in zip([m8, m70, hybrid], df.iterrows()):
        for col, ctx in zip(cols, [1024, 8192, 32_768, 131_072, 1_048_576]):
            assert row[col] * GB == pytest.approx(m.kv_bytes(ctx), rel=1e-15)
    # 8B at 128K: 131,072 x 131,072 B = 17.18 GB; the hybrid's sliding layers stop at 128 tokens.
    assert round(df.loc[0, "128K tokens (GB)"], 2) == 17.18
    assert df.loc[2, "1M tokens (GB)"] * GB == pytest.approx(1_048_576 * 36_864 + 18 * 128 * 2048, rel=1e-15)


def test_cache_per_conversation_fp8_halves(m8):
    bf16 = tables.cache_per_conversation_table(m8, [8000])
    fp8 = tables.cache_per_conversation_table(m8, [8000], kv_dtype="fp8")
    assert fp8.loc[0, "8,000 tokens (GB)"] * 2 == bf16.loc[0, "8,000 tokens (GB)"] == 1.048576
    assert fp8.loc[0, "KV dtype"] == "fp8"


# ---- users that fit -----------------------------------------------------------------------------------


def test_users_table_values_and_shape(m8):
    df = tables.users_table(
        [m8], ["H100", "H200"], [8000, 131_072], weight_dtype=["bf16", "fp8"], kv_dtype=["bf16", "fp8"]
    )
    assert len(df) == 1 * 2 * 2 * 2 * 2
    for _, row in df.iterrows():
        fit = kw.users_that_fit(
            m8,
            row["GPU"],
            row["context (tokens)"],
            weight_dtype=row["weight dtype"],
            kv_dtype=row["KV dtype"],
        )
        assert row["users"] == fit.users
        assert row["weights (GB)"] * GB == pytest.approx(fit.weights_bytes)
        assert row["left for KV (GB)"] * GB == pytest.approx(fit.kv_budget_bytes)
        assert row["per conversation (GB)"] * GB == pytest.approx(fit.kv_per_user_bytes)
    pick = df[(df["GPU"] == "H100-SXM") & (df["weight dtype"] == "bf16") & (df["KV dtype"] == "bf16")]
    assert list(pick["users"]) == [53, 3]  # the seed's 53 and 3
    assert (df["usable memory (GB)"].isin([72.0, 126.9])).all()


def test_users_table_marks_what_cannot_serve():
    m70 = kw.load_model("llama-3-70b", params=70_000_000_000)  # 000's assumption
    df = tables.users_table(m70, ["H100", "H200"], [8000], weight_dtype=["bf16", "fp8"])
    status = {(r["GPU"], r["weight dtype"]): (r["status"], r["users"]) for _, r in df.iterrows()}
    assert status[("H100-SXM", "bf16")] == ("does not load", 0)
    assert status[("H100-SXM", "fp8")] == ("loads but cannot serve", 0)
    assert status[("H200", "fp8")] == ("serves", 21)
    grid = tables.users_grid(df)
    assert grid.loc[("llama-3-70b", "H100-SXM", 1, "fp8", "bf16"), "8,000 tokens"] == "loads but cannot serve"
    assert grid.loc[("llama-3-70b", "H200", 1, "fp8", "bf16"), "8,000 tokens"] == 21


def test_users_table_tensor_parallel(m70):
    df = tables.users_table(m70, "H100", [8192, 131_072], num_gpus=[1, 4])
    four = df[df["GPUs"] == 4]
    assert list(four["users"]) == [54, 3]  # 002's 70B on four GPUs
    assert (df[df["GPUs"] == 1]["status"] == "does not load").all()


# ---- attention designs -----------------------------------------------------------------------------------


def test_attention_designs_shape_rows(m8, hybrid):
    df = tables.attention_designs_table(m8, [m8, hybrid], context=32_768)
    shape = df[df["row"] == "shape"]
    assert list(shape["attention design"]) == ["MHA", "GQA", "MQA", "MLA", "hybrid: sliding GQA + GQA"]
    # The seed's shape rows: MHA 524,288, GQA 131,072, MQA 16,384 bytes per token.
    assert list(shape["bytes/token (B)"])[:3] == [524_288, 131_072, 16_384]
    assert shape["bytes/token (B)"].iloc[3] == 32 * 576 * 2  # MLA latent on the 8B layers
    assert shape["bytes/token (B)"].iloc[4] == 16 * 2 * 8 * 128 * 2  # half the layers still full
    assert list(shape["x smaller than its MHA form"])[:3] == [1, 4, 32]
    models = df[df["row"] == "model"]
    assert list(models["model"]) == ["llama-3-8b", "hybrid-test"]
    for m, (_, row) in zip([m8, hybrid], models.iterrows()):
        assert row["bytes/token (B)"] == m.kv_bytes_per_token()
        assert row["per conversation at 32,768 tokens (GB)"] * GB == pytest.approx(m.kv_bytes(32_768))
        assert row["bytes/token (KiB)"] * KiB == row["bytes/token (B)"]


def test_shape_variants_need_a_full_attention_shape():
    from kvwidgets.core import MLASpec

    mla_only = Model("mla", (LayerGroup(MLASpec(512, 64), 4),), 10**9, num_query_heads=16)
    with pytest.raises(ValueError, match="needs full-attention layers"):
        tables.shape_variants(mla_only)


# ---- decode ------------------------------------------------------------------------------------------------


def test_decode_table(m8):
    df = tables.decode_table(m8, "H100", [1024, 8192, 131_072], [1, 32])
    assert df.shape[0] == 6
    assert list(zip(df["context (tokens)"], df["batch"]))[:2] == [(1024, 1), (1024, 32)]
    for _, row in df.iterrows():
        d = kw.decode_ceiling(m8, "H100", row["context (tokens)"], row["batch"])
        assert row["step (ms)"] == d.step_ms
        assert row["tokens/s per user"] == d.tokens_per_s_per_user
        assert row["tokens/s total"] == pytest.approx(row["batch"] * row["tokens/s per user"])
        # step = (weights + batch x KV) / 3.35 TB/s, in ms
        read = (row["weights read per step (GB)"] + row["KV read per step (GB)"]) * GB
        assert row["step (ms)"] == pytest.approx(read / 3.35e12 * 1e3)
        fits = kw.users_that_fit(m8, "H100", row["context (tokens)"]).users >= row["batch"]
        assert row["fits in memory"] == fits
    single = df[df["batch"] == 1]["tokens/s per user"].tolist()
    assert single == sorted(single, reverse=True)
    assert not df[(df["context (tokens)"] == 131_072) & (df["batch"] == 32)]["fits in memory"].item()


# ---- offload -----------------------------------------------------------------------------------------------


def test_offload_table(m8):
    df = tables.offload_table(m8, "H100", [8000, 32_000])
    rows = kw.offload_vs_recompute(m8, "H100", 8000)
    assert len(df) == 2 * len(rows)
    first = df[df["tokens"] == 8000]
    assert list(first["option"]) == [r.option for r in rows]
    for r, (_, row) in zip(rows, first.iterrows()):
        assert row["fastest (ms)"] == r.seconds_low * 1e3 and row["slowest (ms)"] == r.seconds_high * 1e3
        assert row["cache (GB)"] == 1.048576
    x_col = "x faster than recompute, best cases"
    assert first[x_col].iloc[0] == 1
    pinned = first[first["option"].str.endswith(kw.STORAGE["cpu-pinned"].label)]
    assert 5 <= pinned[x_col].item() <= 20  # the seed's "roughly ten times"
    # like with like: the fastest copy against the ideal floor (a fast NVMe drive beats recompute)
    nvme = first[first["option"].str.endswith(kw.STORAGE["nvme-ssd"].label)]
    assert (
        math.isclose(nvme[x_col].item(), rows[0].seconds_low * 1e3 / nvme["fastest (ms)"].item())
        and nvme[x_col].item() > 1
    )
    # recompute grows with tokens exactly as the reload does (both linear for a full-attention model)
    x = df.groupby("option", sort=False)[x_col].agg(["first", "last"])
    assert all(math.isclose(a, b) for a, b in zip(x["first"], x["last"]))


def test_every_column_names_its_unit_or_is_a_label(m8):
    frames = [
        tables.bytes_per_token_table(m8),
        tables.cache_per_conversation_table(m8),
        tables.users_table(m8, "H100", [8000]),
        tables.attention_designs_table(m8, m8),
        tables.decode_table(m8, "H100", [8000], [1]),
        tables.offload_table(m8, "H100", [8000]),
    ]
    units = (
        "(B)",
        "(KiB)",
        "(GB)",
        "(ms)",
        "(tokens)",
        "(numbers)",
        "tokens/s",
        "share",
        "layers",
        "GPUs",
        "users",
        "batch",
        "tokens",
        "x ",
    )
    labels = {
        "model",
        "attention design",
        "KV heads",
        "head dim",
        "KV dtype",
        "GPU",
        "weight dtype",
        "status",
        "row",
        "option",
        "source",
        "fits in memory",
    }
    for df in frames:
        assert isinstance(df, pd.DataFrame) and len(df) > 0
        for col in df.columns:
            assert col in labels or any(u in col for u in units), col


def test_default_tables_cover_every_design_with_the_seed_numbers():
    """The defaults load the bundled presets; the series' numbers appear where they belong."""
    per_token = tables.bytes_per_token_table().set_index("model")["bytes/token bf16 (B)"]
    assert per_token["llama-3-8b"] == 131_072 and per_token["llama-3-70b"] == 327_680
    assert per_token["deepseek-v3"] == 70_272 and per_token["gpt-oss-120b"] == 36_864
    assert per_token["mistral-7b-v0.1"] == 0  # every layer slides: nothing grows past the window
    designs = set(tables.bytes_per_token_table()["attention design"])
    assert {"GQA", "MLA", "sliding GQA", "hybrid: sliding GQA + GQA"} <= designs
    conv = tables.cache_per_conversation_table().set_index("model")
    assert round(conv.loc["llama-3-70b", "128K tokens (GB)"], 1) == 42.9
    assert conv.loc["mistral-7b-v0.1", "1M tokens (GB)"] == conv.loc["mistral-7b-v0.1", "8K tokens (GB)"]
    d = tables.attention_designs_table().set_index("model")
    # Like with like: each real model against its own MHA form (DeepSeek-V3: 4,997,120 / 70,272).
    assert round(d.loc["deepseek-v3", "x smaller than its MHA form"]) == 71
    assert d.loc["llama-3-70b", "x smaller than its MHA form"] == 8
