"""The allocator over a request trace (PagedAttention paper, Kwon et al., SOSP 2023).

Properties of the model first, then the paper's figures that have their inputs given:
OPT-13B on one A100-40GB with 15.7K KV slots (Table 1: 12 GiB / 800 KiB per token =
15,728), ShareGPT and Alpaca lengths (Figure 11 means; the spread is our assumption,
kvwidgets/data/request_lengths.json), maximum length 2,048, blocks of 16.
"""

import math
import statistics

import pytest

from kvwidgets.core.allocator_trace import SHARES, allocator_trace, kv_slots_for, next_pow2
from kvwidgets.core.errors import InputError, UnknownNameError
from kvwidgets.core.model import uniform_model
from kvwidgets.core.request_lengths import get_length_fit, sample_requests
from kvwidgets.core.sampling_sharing import sharing_saving
from kvwidgets.data.reported import (
    PAPER_BATCH,
    PAPER_KV_SLOTS_OPT13B_A100_40GB,
    PAPER_KV_USE,
    PAPER_SHARING_SAVING,
    PAPER_SHARING_SAVING_SHAREGPT,
)

PAPER_SLOTS = PAPER_KV_SLOTS_OPT13B_A100_40GB  # Table 1: 12 GiB for the KV cache / 800 KiB per token


@pytest.fixture(scope="module")
def sharegpt():
    return allocator_trace("sharegpt", kv_slots=PAPER_SLOTS, num_requests=2000, seed=0)


@pytest.fixture(scope="module")
def small():
    return allocator_trace("sharegpt", kv_slots=4000, num_requests=120, seed=3, points=50)


# ---- properties ------------------------------------------------------------------------


def test_shares_sum_to_one_at_every_sampled_step_and_on_average(small):
    for run in small.runs.values():
        for j in range(len(small.steps)):
            total = sum(getattr(run, s)[j] for s in SHARES)
            assert total == pytest.approx(1.0, abs=1e-12)
            assert all(getattr(run, s)[j] >= -1e-12 for s in SHARES)
        assert sum(run.mean_shares.values()) == pytest.approx(1.0, abs=1e-12)


def test_paged_never_worse_than_reserving(sharegpt, small):
    for trace in (sharegpt, small):
        paged = trace["paged"]
        for pol in ("max", "pow2", "oracle"):
            assert paged.mean_token_states > trace[pol].mean_token_states
            assert paged.mean_running > trace[pol].mean_running
            assert paged.total_steps <= trace[pol].total_steps


def test_exact_reservation_never_reserves_past_the_end(small):
    # Oracle reserves prompt + output: nothing it holds goes unwritten for good. It still
    # holds slots for tokens not yet written (the paper's Figure 2 "reservation", 25.2%).
    oracle = small["oracle"]
    assert max(oracle.internal) == 0 and oracle.mean_internal == 0
    assert oracle.mean_reserved > 0


def test_paged_empty_slots_under_one_block_per_request(small):
    paged = small["paged"]
    for j in range(len(small.steps)):
        empty_slots = (paged.reserved[j] + paged.internal[j]) * small.kv_slots
        assert empty_slots < max(1, paged.running[j]) * small.block_size
        assert paged.rounding[j] == 0


def test_same_seed_same_result_other_seed_other_requests():
    a = allocator_trace("alpaca", kv_slots=3000, num_requests=200, seed=7)
    b = allocator_trace("alpaca", kv_slots=3000, num_requests=200, seed=7)
    c = allocator_trace("alpaca", kv_slots=3000, num_requests=200, seed=8)
    assert a == b
    assert a.requests != c.requests


def test_max_holds_a_fixed_batch_and_the_rest_is_free():
    # Every Max reservation is 2,048 slots: floor(slots / 2048) run while requests wait.
    trace = allocator_trace("sharegpt", kv_slots=PAPER_SLOTS, num_requests=300, seed=1, policies=["max"])
    run = trace["max"]
    assert run.mean_running == PAPER_SLOTS // 2048
    assert run.mean_free == pytest.approx(1 - 7 * 2048 / PAPER_SLOTS, abs=1e-12)


def test_reservations_follow_the_papers_rules():
    # Pow2: "if the true output length is 25, it reserves 32 positions for outputs"
    trace = allocator_trace([(10, 25)], kv_slots=4096, policies=["pow2", "oracle", "max"], buddy=False)
    for pol, held in (("pow2", 10 + 32), ("oracle", 35), ("max", 2048)):
        run = trace[pol]
        first = trace.steps.index(0)
        assert run.token_states[first] * 4096 == 11  # prompt + the first token
        assert (run.token_states[first] + run.reserved[first] + run.internal[first]) * 4096 == held
    assert next_pow2(25) == 32 and next_pow2(32) == 32 and next_pow2(1) == 1


def test_buddy_rounds_each_reservation_to_a_power_of_two():
    trace = allocator_trace([(100, 100)], kv_slots=4096, policies=["oracle"], buddy=True)
    run = trace["oracle"]
    assert run.rounding[0] * 4096 == 256 - 200


def test_buddy_arena_splits_free_space():
    from kvwidgets.core.allocator_trace import _Buddy

    arena = _Buddy(1024)
    assert [arena.alloc(256) for _ in range(4)] == [0, 256, 512, 768]
    arena.release(0, 256)
    arena.release(512, 256)
    assert arena.alloc(512) is None  # 512 slots free, but in two pieces that are not buddies
    arena.release(256, 256)
    assert arena.alloc(512) == 0  # 0 and 256 merged
    # the paper's 15,728 slots: aligned powers of two, largest first; the largest holds 8,192
    paper = _Buddy(PAPER_SLOTS)
    assert sorted((a, size) for size, addrs in paper.free.items() for a in addrs)[:3] == [
        (0, 8192),
        (8192, 4096),
        (12288, 2048),
    ]
    assert paper.alloc(16384) is None and paper.alloc(8192) == 0


def test_paged_preempts_when_blocks_run_out_and_still_finishes_everyone():
    # Two requests whose prompts fit but whose outputs cannot both be held: vLLM pushes the
    # later one back (recompute) and both finish.
    trace = allocator_trace([(16, 48), (16, 48)], kv_slots=96, policies=["paged"], watermark=0)
    run = trace["paged"]
    assert run.preemptions >= 1
    assert run.total_steps > 48


def test_given_lengths_and_budget_from_a_model():
    opt13 = uniform_model("OPT-13B", 40, 40, 128, 12_853_000_000)
    slots = kv_slots_for(opt13, "A100-40GB")
    assert opt13.kv_bytes_per_token() == 819_200  # the paper's 800 KB per token
    assert slots == (40 * 10**9 * 9 // 10 - opt13.params * 2) // 819_200
    trace = allocator_trace([(100, 50)] * 20, model=opt13, gpu="A100-40GB")
    assert trace.kv_slots == slots and trace.dataset is None


def test_bad_input_names_the_field():
    with pytest.raises(InputError, match="kv_slots"):
        allocator_trace("sharegpt")
    with pytest.raises(InputError, match="policies"):
        allocator_trace("sharegpt", kv_slots=5000, policies=["fifo"])
    with pytest.raises(UnknownNameError, match="dataset"):
        allocator_trace("sharegtp", kv_slots=5000)
    with pytest.raises(InputError, match=r"requests\[1\]"):
        allocator_trace([(10, 10), (2000, 100)], kv_slots=5000)
    with pytest.raises(InputError, match="could never"):
        allocator_trace([(100, 100)], kv_slots=1000, policies=["max"])
    window = uniform_model("sliding", 4, 4, 64, 10**8, window=512)
    with pytest.raises(InputError, match="sliding"):
        kv_slots_for(window, "H100")


def test_sampled_lengths_keep_the_published_means():
    for name in ("sharegpt", "alpaca"):
        fit = get_length_fit(name)
        reqs = sample_requests(name, 20_000, seed=11)
        assert statistics.mean(p for p, _ in reqs) == pytest.approx(fit.input_mean, rel=0.03)
        assert statistics.mean(o for _, o in reqs) == pytest.approx(fit.output_mean, rel=0.03)
        assert all(p >= 1 and o >= 1 and p + o <= fit.max_len for p, o in reqs)
    # section 6.1: ShareGPT prompts 8.4x and outputs 5.8x longer than Alpaca's
    s, a = get_length_fit("sharegpt"), get_length_fit("alpaca")
    assert s.input_mean / a.input_mean == pytest.approx(8.4, abs=0.05)
    assert s.output_mean / a.output_mean == pytest.approx(5.8, abs=0.05)


# ---- the paper's figures -----------------------------------------------------------------
#
# The paper's runs are one-hour traces of real lengths at one Poisson rate; ours are
# saturated synthetic traces whose length spread is partly assumed (the output spread is
# fitted to Figure 2's Orca (Max) bar, kvwidgets/data/request_lengths.json). A published
# share or saving counts as reproduced within 4 percentage points, a batch within 15%:
# moving the assumed spread over sigma 0.7-1.0 moves our shares by up to 3 points and the
# batches by up to 12%, and seeds add about a point. Figures outside that are pinned with
# the direction and the reason of the miss, not widened to pass.

SHARE_TOL = 0.04
BATCH_TOL = 0.15


def test_figure2_orca_max_is_the_fitted_bar(sharegpt):
    # The output spread was fitted to these two numbers; this checks the fit holds.
    run, paper = sharegpt["max"], PAPER_KV_USE["max"]
    assert run.mean_token_states == pytest.approx(paper["token_states"], abs=0.01)
    assert run.mean_reserved == pytest.approx(paper["reserved"], abs=0.01)
    # predicted: what Max reserves past each request's end, and the free remainder
    # (exact arithmetic: 7 reservations of 2,048 in 15,728 slots leave 8.85%)
    assert run.mean_internal == pytest.approx(paper["internal"], abs=SHARE_TOL)
    assert run.mean_free == pytest.approx(paper["external_and_others"], abs=0.001)


def test_figure2_orca_oracle(sharegpt):
    run, paper = sharegpt["oracle"], PAPER_KV_USE["oracle"]
    assert run.mean_token_states == pytest.approx(paper["token_states"], abs=SHARE_TOL)
    assert run.mean_reserved == pytest.approx(paper["reserved"], abs=SHARE_TOL)
    assert run.mean_internal == 0 == paper["internal"]
    # the paper's "external fragmentation & others": the buddy arena's rounding and split free space
    assert run.mean_rounding + run.mean_free == pytest.approx(paper["external_and_others"], abs=SHARE_TOL)


def test_figure2_orca_pow2(sharegpt):
    run, paper = sharegpt["pow2"], PAPER_KV_USE["pow2"]
    assert run.mean_token_states == pytest.approx(paper["token_states"], abs=SHARE_TOL)
    assert run.mean_reserved == pytest.approx(paper["reserved"], abs=SHARE_TOL)
    assert run.mean_internal == pytest.approx(paper["internal"], abs=SHARE_TOL)
    # Our buddy arena leaves 35% to rounding and free space where the paper has 41.6%:
    # 6 points short, so Pow2's other shares come out 1-3.5 points high. The paper does
    # not describe its allocator beyond "buddy"; this pins the gap.
    ext = run.mean_rounding + run.mean_free
    assert paper["external_and_others"] - 0.10 < ext < paper["external_and_others"]


def test_figure2_paged_holds_token_states_in_96_percent(sharegpt):
    # Paper: 96.3%. Ours keeps vLLM's 1% watermark free and counts part-filled last blocks.
    assert sharegpt["paged"].mean_token_states == pytest.approx(
        PAPER_KV_USE["paged"]["token_states"], abs=0.015
    )
    # and the paper's headline: earlier systems keep 20.4-38.2% for token states
    shares = [sharegpt[p].mean_token_states for p in ("max", "pow2", "oracle")]
    assert shares == sorted(shares)
    assert 0.204 - SHARE_TOL < shares[0] and shares[-1] < 0.382 + SHARE_TOL


def test_figure13a_batch_sizes(sharegpt):
    # Paper, ShareGPT at 2 requests/s: Max 7.00, Pow2 9.81, Oracle 13.62, vLLM 30.42.
    assert sharegpt["max"].mean_running == PAPER_BATCH["sharegpt"]["max"]
    for pol in ("pow2", "oracle", "paged"):
        assert sharegpt[pol].mean_running == pytest.approx(PAPER_BATCH["sharegpt"][pol], rel=BATCH_TOL)
    # vLLM's knee on this trace is near 2 requests/s, so the paper's batch can sit below
    # the memory limit ours measures, never above it
    assert sharegpt["paged"].mean_running > PAPER_BATCH["sharegpt"]["paged"]


def test_figure13b_alpaca_orca_batches():
    # Paper, Alpaca at 30 requests/s: Pow2 43.24, Oracle 72.75. vLLM's 132.44 is not a
    # memory limit at that rate (a saturated server holds ~205), so it is not compared.
    trace = allocator_trace(
        "alpaca", kv_slots=PAPER_SLOTS, num_requests=4000, seed=0, policies=["pow2", "oracle"]
    )
    for pol in ("pow2", "oracle"):
        assert trace[pol].mean_running == pytest.approx(PAPER_BATCH["alpaca"][pol], rel=BATCH_TOL)


def test_figure15_parallel_sampling():
    # Paper: Alpaca 6.09, 8.53, 9.79% for 2, 4, 6 samples; ShareGPT 16.2-30.5%. The
    # saving is what the prompt's full blocks are of the whole, summed over time, so it
    # follows the assumed prompt spread. 20,000 requests keep seed noise under 0.2 points.
    for width, paper in PAPER_SHARING_SAVING[("alpaca", "parallel")].items():
        got = sharing_saving("alpaca", "parallel", width, num_requests=20_000, seed=0).saving
        assert got == pytest.approx(paper, abs=SHARE_TOL)
    low, high = PAPER_SHARING_SAVING_SHAREGPT["parallel"]
    assert sharing_saving("sharegpt", "parallel", 2, num_requests=20_000).saving == pytest.approx(
        low, abs=SHARE_TOL
    )
    assert sharing_saving("sharegpt", "parallel", 6, num_requests=20_000).saving == pytest.approx(
        high, abs=SHARE_TOL
    )


def test_figure15_beam_search_neutral_model_shares_more_than_real_beams():
    # Paper, Alpaca: 37.56, 53.13, 55.16% for widths 2, 4, 6. Beam width 2 reproduces;
    # at 4 and 6 our neutral genealogy (each beam continues a uniformly random beam)
    # merges histories faster than a language model's beams do, so it shares 6-10 points
    # more. Which beams survive depends on token probabilities a trace does not have.
    paper = PAPER_SHARING_SAVING[("alpaca", "beam")]
    got = {w: sharing_saving("alpaca", "beam", w, num_requests=500, seed=0).saving for w in paper}
    assert got[2] == pytest.approx(paper[2], abs=SHARE_TOL)
    for w in (4, 6):
        assert paper[w] + SHARE_TOL < got[w] < paper[w] + 0.12


def test_parallel_sampling_arithmetic():
    # prompt 40 = 2 full blocks + 8; each of 3 samples writes 10 tokens (lengths 41..50)
    s = sharing_saving([(40, 10)], "parallel", 3)
    per_sample = sum(math.ceil(L / 16) for L in range(41, 51))
    assert s.block_steps_unshared == 3 * per_sample
    assert s.block_steps_shared == 10 * 2 + 3 * (per_sample - 10 * 2)


def test_beam_search_shares_at_least_the_prompt_and_at_most_all_but_one_beam():
    for width in (2, 4, 6):
        beam = sharing_saving("alpaca", "beam", width, num_requests=300, seed=1)
        parallel = sharing_saving("alpaca", "parallel", width, num_requests=300, seed=1)
        assert parallel.saving < beam.saving < 1 - 1 / width
    one = sharing_saving([(33, 20)], "beam", 1)
    assert one.saving == 0  # a single beam shares nothing


def test_beam_search_first_step_shares_the_prompt_blocks():
    # A prompt of two full blocks and one output token: both beams point at the prompt's
    # blocks and each starts a block of its own.
    s = sharing_saving([(32, 1)], "beam", 2)
    assert s.block_steps_unshared == 2 * 3
    assert s.block_steps_shared == 2 + 2


# ---- a plain step-by-step simulation to hold the event-driven one to ---------------------


def _reference(reqs, slots, policy, block_size=16, watermark_blocks=0, max_len=2048):
    """Every step, every running request: the slow, obvious version (exact reservations, no buddy)."""
    B = block_size
    queue = list(range(len(reqs)))
    length = [p for p, _ in reqs]
    final = [p + o for p, o in reqs]
    held = {}  # request -> (slots or blocks held, tokens held)
    res = {
        "max": [max_len] * len(reqs),
        "pow2": [min(max_len, p + next_pow2(o)) for p, o in reqs],
        "oracle": final,
    }.get(policy)
    sums = [0, 0, 0, 0]  # tokens, reserved, internal, running, over saturated steps
    steps = 0
    t = 0
    while queue or held:
        while queue:
            i = queue[0]
            if policy == "paged":
                free = slots // B - sum(b for b, _ in held.values())
                if free - math.ceil(length[i] / B) < watermark_blocks:
                    break
                held[i] = (math.ceil(length[i] / B), length[i])
            else:
                if sum(res[j] for j in held) + res[i] > slots:
                    break
                held[i] = (res[i], length[i])
            queue.pop(0)
        if policy == "paged":
            needs = [i for i, (b, L) in held.items() if L + 1 > b * B]
            free = slots // B - sum(b for b, _ in held.values())
            while len(needs) > free:
                v = max(held)
                length[v] = held.pop(v)[1]
                queue.insert(0, v)
                if v in needs:
                    needs.remove(v)
                free = slots // B - sum(b for b, _ in held.values())
            for i in needs:
                held[i] = (held[i][0] + 1, held[i][1])
        for i in held:
            held[i] = (held[i][0], held[i][1] + 1)
        if queue:
            tok = sum(L for _, L in held.values())
            if policy == "paged":
                cap = {i: b * B for i, (b, _) in held.items()}
            else:
                cap = {i: res[i] for i in held}
            never = sum(max(0, cap[i] - final[i]) for i in held)
            sums[0] += tok
            sums[1] += sum(min(cap[i], final[i]) for i in held) - tok
            sums[2] += never
            sums[3] += len(held)
            steps += 1
        for i in [i for i, (_, L) in held.items() if L == final[i]]:
            del held[i]
        t += 1
    return [x / (steps * slots) for x in sums[:3]] + [sums[3] / steps], t


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_event_driven_runs_match_a_plain_simulation(seed):
    reqs = sample_requests("sharegpt", 40, seed=seed)
    slots = 3000
    trace = allocator_trace(reqs, kv_slots=slots, buddy=False, watermark=0.01)
    assert trace["paged"].preemptions > 0  # the preemption path is exercised
    for pol in ("max", "pow2", "oracle", "paged"):
        wm = trace.watermark_blocks if pol == "paged" else 0
        (tok, res, inn, running), total = _reference(list(reqs), slots, pol, watermark_blocks=wm)
        run = trace[pol]
        assert run.total_steps == total, pol
        assert run.mean_token_states == pytest.approx(tok, rel=1e-12), pol
        assert run.mean_reserved == pytest.approx(res, rel=1e-12, abs=1e-15), pol
        assert run.mean_internal == pytest.approx(inn, rel=1e-12, abs=1e-15), pol
        assert run.mean_running == pytest.approx(running, rel=1e-12), pol
