"""CacheTransfer from Python: its result is core.transfer.cache_transfer's, bad input a message."""

from __future__ import annotations

import json

import pytest

import kvwidgets as kw
from kvwidgets.core.transfer import LINKS, cache_transfer
from kvwidgets.data import measured


def test_default_is_the_core_for_llama_8b_over_nvlink4():
    w = kw.CacheTransfer()
    r = w.result
    m = kw.load_model("llama-3.1-8b")
    core = cache_transfer(m, "H200", 8192, "nvlink4")
    assert w.error == "" and r == {
        **core.as_dict(),
        "link": "nvlink4",
        "link_gbps": 450,
        "seconds_by_link": r["seconds_by_link"],
    }
    # 32 layers x 8 heads x 128 x 2 (K, V) x 2 B = 131,072 B a token x 8,192 tokens
    assert r["bytes_per_rank"] == 1_073_741_824
    assert r["seconds"] == 1_073_741_824 / 450e9  # 2.39 ms
    # the measured H200 prefill of 8,192 tokens is a row of the data
    assert r["measured_prefill_seconds"] == next(
        x["seconds"] for x in measured.h200_prefill() if x["tokens"] == 8192
    )
    # every link's row: the same bytes over its own bandwidth
    assert r["seconds_by_link"] == {name: 1_073_741_824 / (link.gbps * 1e9) for name, link in LINKS.items()}


def test_llama_70b_tp8_at_32k_nvlink_against_rdma():
    w = kw.CacheTransfer(model="llama-3.1-70b", context=32_768, tp=8, link="nvlink4")
    # one of 8 KV heads a GPU: 80 layers x 128 x 2 (K, V) x 2 B = 40,960 B a token x 32,768
    assert w.result["bytes_per_rank"] == 1_342_177_280
    assert w.result["bytes_all_ranks"] == 8 * 1_342_177_280
    nvlink = w.result["seconds"]
    assert nvlink == pytest.approx(1_342_177_280 / 450e9)  # 2.98 ms
    w.link = "roce-400g"
    assert w.result["seconds"] == pytest.approx(1_342_177_280 / 50e9)  # 26.8 ms, 9 times longer
    core = cache_transfer(kw.load_model("llama-3.1-70b"), "H200", 32_768, "roce-400g", tp=8)
    assert w.result["prefill_seconds"] == core.prefill_seconds
    assert w.result["decode_step_seconds"] == core.decode_step_seconds
    assert w.result["measured_prefill_seconds"] is None  # measured for the 8B shape only


def test_deepseek_v3_latent_whole_on_every_gpu():
    w = kw.CacheTransfer(model="deepseek-v3", context=32_768, tp=8, weight_dtype="fp8", link="ib-ndr-400g")
    # 61 layers x 576 (latent 512 + rope 64) x 2 B = 70,272 B a token x 32,768, on each of 8 GPUs
    assert w.error == "" and w.result["bytes_per_rank"] == w.result["bytes_one_copy"] == 2_302_672_896
    assert w.result["seconds"] == pytest.approx(2_302_672_896 / 50e9)  # 46 ms
    core = cache_transfer(
        kw.load_model("deepseek-v3"), "H200", 32_768, "ib-ndr-400g", tp=8, weight_dtype="fp8"
    )
    assert w.result["vs_decode_step"] == core.vs_decode_step and w.result["vs_prefill"] == core.vs_prefill


@pytest.mark.parametrize(
    "name,value",
    [
        ("model", "llama-3.1-70b"),
        ("gpu", "B200"),
        ("context", 32768),
        ("kv_dtype", "fp8"),
        ("weight_dtype", "fp8"),
        ("link", "pcie4-x16"),
        ("tp", 2),
        ("params", 70_000_000_000),
    ],
)
def test_inputs_are_synced_and_change_the_result(name, value):
    w = kw.CacheTransfer()
    before = w.result
    setattr(w, name, value)
    assert w.error == "" and w.get_state()[name] == value
    assert w.result != before


@pytest.mark.parametrize(
    "name,value,words",
    [
        ("link", "carrier pigeon", "unknown link 'carrier pigeon'"),
        ("context", 0, "context must be a whole number >= 1"),
        ("tp", 0, "tp must be a whole number >= 1"),
        ("tp", 3, "num_gpus=3 does not divide num_key_value_heads=8"),
        ("gpu", "H900", "unknown GPU"),
    ],
)
def test_bad_input_is_a_message_and_keeps_the_last_result(name, value, words):
    w = kw.CacheTransfer()
    good = dict(w.result)
    setattr(w, name, value)
    assert words in w.error and w.result == good


def test_state_is_small_and_the_page_exports(tmp_path):
    w = kw.CacheTransfer()
    state = w.get_state()
    assert len(json.dumps(state).encode()) <= 1_500_000
    assert state["links"]["nvlink4"] == {
        "label": LINKS["nvlink4"].label,
        "gbps": 450,
        "source": LINKS["nvlink4"].source,
    }
    assert "cacheTransfer" in w.to_html(tmp_path / "transfer.html")
