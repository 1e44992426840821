"""One conversation's cache over a link, against prefill and a decode step, by hand."""

import pytest

import kvwidgets as kw
from kvwidgets.core.errors import UnknownNameError
from kvwidgets.core.transfer import LINKS, cache_transfer
from kvwidgets.data.measured import h200_host_copy_gbps, h200_prefill


def test_every_link_names_its_source():
    for link in LINKS.values():
        assert link.gbps > 0 and len(link.source) > 20
    assert LINKS["nvlink4"].gbps == 450  # 900 GB/s both ways
    assert LINKS["pcie5-h200-measured"].gbps == h200_host_copy_gbps()["h2d_pinned_GBps"]


def test_llama8b_over_nvlink4():
    m = kw.load_model("llama-3.1-8b")
    t = cache_transfer(m, "H200", 8192, "nvlink4")
    # 32 layers x 8 heads x 128 x 2 (K, V) x 2 B = 131,072 B a token x 8,192 = 1,073,741,824
    assert t.bytes_per_rank == t.bytes_one_copy == 1_073_741_824
    assert t.seconds == pytest.approx(1_073_741_824 / 450e9)  # 2.39 ms
    # prefill floor 2 x 8,030,261,248 x 8,192 / 989e12 = 0.13303 s
    assert t.prefill_seconds == pytest.approx(2 * 8_030_261_248 * 8192 / 989e12)
    # one decode step (16,060,522,496 + 1,073,741,824) / 4.8e12 = 3.5696 ms
    assert t.decode_step_seconds == pytest.approx(17_134_264_320 / 4.8e12)
    assert t.vs_decode_step == pytest.approx(0.6685, abs=1e-4)
    # the measured H200 prefill of 8,192 tokens is a row of the data
    assert t.measured_prefill_seconds == next(r["seconds"] for r in h200_prefill() if r["tokens"] == 8192)


def test_mla_latent_moves_from_every_rank():
    m = kw.load_model("deepseek-v3")
    t = cache_transfer(m, "H200", 32768, "ib-ndr-400g", tp=8, weight_dtype="fp8")
    # 61 x 576 x 2 B = 70,272 B a token x 32,768 = 2,302,672,896 on each of the 8 ranks
    assert t.bytes_per_rank == t.bytes_one_copy == 2_302_672_896
    assert t.bytes_all_ranks == 8 * 2_302_672_896
    assert t.seconds == pytest.approx(2_302_672_896 / 50e9)  # 46 ms
    assert t.measured_prefill_seconds is None  # measured for the Llama-3-8B shape only


def test_gqa_heads_copied_past_their_count():
    m = kw.load_model("llama-3.1-70b")
    # TP 8: one of 8 heads a rank, 80 x 128 x 2 x 2 = 40,960 B a token x 8,192 = 335,544,320
    t8 = cache_transfer(m, "H200", 8192, "nvlink4", tp=8)
    assert t8.bytes_per_rank == 335_544_320
    assert t8.bytes_all_ranks == t8.bytes_one_copy == 2_684_354_560
    # TP 16: still one head a rank, so twice the bytes cross in all
    t16 = cache_transfer(m, "H200", 8192, "nvlink4", tp=16)
    assert t16.bytes_all_ranks == 2 * t16.bytes_one_copy


def test_unknown_link_named():
    with pytest.raises(UnknownNameError, match="link"):
        cache_transfer(kw.load_model("llama-3.1-8b"), "H200", 8192, "carrier pigeon")


def test_as_dict_is_plain_json():
    import json

    t = cache_transfer(kw.load_model("llama-3.1-8b"), "H200", 8192, "nvlink4")
    d = json.loads(json.dumps(t.as_dict()))
    assert d["bytes_per_rank"] == 1_073_741_824 and d["link"]["gbps"] == 450
    assert d["vs_decode_step"] == t.vs_decode_step
