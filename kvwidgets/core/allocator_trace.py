"""KV memory over a request trace: reserving per request (Orca) vs paged blocks (vLLM).

The PagedAttention paper (Kwon et al., SOSP 2023) compares four allocators on the same
stream of requests (its Figure 2, section 6.1):
  max     Orca (Max): reserve the model's maximum sequence length (2,048 for OPT)
  pow2    Orca (Pow2): reserve the prompt plus the output rounded up to a power of two
          ("if the true output length is 25, it reserves 32 positions for outputs")
  oracle  Orca (Oracle): reserve exactly prompt + output (knows the output length)
  paged   vLLM: blocks of `block_size` token slots handed out as the sequence grows
The paper assumes Orca places its contiguous reservations with a buddy allocator
(`buddy=True`): each takes a power-of-two block of an arena, and freed blocks can leave
free space split into pieces too small for the next request (external fragmentation).
`buddy=False` packs exact reservations with no fragmentation at all (an ideal bound).

The model of time: one decode step writes one token per running request. A request of
prompt P and output O admitted at step a holds P + 1 tokens after step a and P + O after
step a + O - 1, then frees its memory. Every request is waiting at step 0 and admission
is first come, first served: the head of the queue is admitted when its reservation
fits (it waits otherwise, and so does everyone behind it). That is the saturated
regime the paper measures (its Figure 13 batches are at request rates past the knee).

Each step's KV slots are split into
  token_states  slots holding a token's K and V
  reserved      slots held for tokens the request will still write
  internal      slots held that the request will never write (reserved past its end;
                for paged, the empty tail of its last block)
  rounding      the buddy allocator's rounding of a reservation to a power of two
  free          slots nobody holds (with the buddy arena, some of it split too finely
                for the request at the head of the queue)
rounding + free is what the paper's Figure 2 calls "external fragmentation & others".
which add up to the budget. Averages are over the saturated window: the steps at which a
request is still waiting, as in a long trace at a high request rate.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .budget import memory_budget
from .errors import InputError, check_int
from .gpus import GPU
from .model import Model
from .request_lengths import check_requests, get_length_fit, sample_requests

POLICIES: tuple[str, ...] = ("max", "pow2", "oracle", "paged")
POLICY_LABELS = {
    "max": "Orca (Max)",
    "pow2": "Orca (Pow2)",
    "oracle": "Orca (Oracle)",
    "paged": "vLLM (paged)",
}
SHARES: tuple[str, ...] = ("token_states", "reserved", "internal", "rounding", "free")


def next_pow2(n: int) -> int:
    return 1 << (n - 1).bit_length()


@dataclass(frozen=True)
class PolicyRun:
    """One policy over the trace. Shares are fractions of the KV slots (they sum to 1)."""

    policy: str
    label: str
    # sampled on AllocatorTrace.steps (the same grid for every policy; after the last
    # request finishes every slot is free and nothing runs)
    token_states: tuple[float, ...]
    reserved: tuple[float, ...]
    internal: tuple[float, ...]
    rounding: tuple[float, ...]
    free: tuple[float, ...]
    running: tuple[int, ...]
    # averages over the saturated window (a request waiting), or over the whole run when
    # the budget holds every request at once (saturated_steps == 0)
    mean_token_states: float
    mean_reserved: float
    mean_internal: float
    mean_rounding: float
    mean_free: float
    mean_running: float  # the batch the policy sustains
    saturated_steps: int  # steps at which a request was waiting
    total_steps: int  # steps until every request finished
    preemptions: int  # paged only: requests pushed back to the queue (vLLM recompute)

    @property
    def mean_shares(self) -> dict[str, float]:
        return {s: getattr(self, f"mean_{s}") for s in SHARES}


@dataclass(frozen=True)
class AllocatorTrace:
    """allocator_trace's answer: each policy over the same requests and KV budget."""

    kv_slots: int  # token slots of KV memory
    block_size: int
    max_len: int
    buddy: bool
    watermark_blocks: int  # paged admission keeps this many blocks free (vLLM's 1%)
    requests: tuple[tuple[int, int], ...]  # (prompt tokens, output tokens)
    dataset: str | None  # where the lengths came from (None: given by the caller)
    seed: int | None
    steps: tuple[int, ...]  # the decode steps the series are sampled at
    runs: dict[str, PolicyRun]
    notes: tuple[str, ...]  # what the model assumes, to show beside the numbers

    def __getitem__(self, policy: str) -> PolicyRun:
        return self.runs[policy]


# ---- reserving policies: memory changes only when a request starts or ends ---------------


def _reservation(policy: str, p: int, o: int, max_len: int) -> int:
    if policy == "max":
        return max_len
    if policy == "pow2":
        return min(max_len, p + next_pow2(o))
    return p + o  # oracle


class _Sums:
    """Slot-steps summed over the saturated window (a request waiting) and over the whole run."""

    def __init__(self, capacity: int):
        self.cap = capacity
        self.window = [0, 0, 0, 0, 0, 0]  # token_states, reserved, internal, rounding, running, steps
        self.whole = [0, 0, 0, 0, 0, 0]

    def add(self, tok: int, res: int, inn: int, rnd: int, running: int, steps: int, saturated: bool):
        for acc in (self.window, self.whole) if saturated else (self.whole,):
            acc[0] += tok
            acc[1] += res
            acc[2] += inn
            acc[3] += rnd
            acc[4] += running
            acc[5] += steps

    def run(self, policy: str, samples, total_steps: int, preemptions: int) -> PolicyRun:
        """samples: (tokens, reserved, internal, rounding, running) per grid step, in slots."""
        c = self.cap
        cols = {s: [] for s in SHARES}
        running = []
        for tok, res, inn, rnd, k in samples:
            cols["token_states"].append(tok / c)
            cols["reserved"].append(res / c)
            cols["internal"].append(inn / c)
            cols["rounding"].append(rnd / c)
            cols["free"].append((c - tok - res - inn - rnd) / c)
            running.append(k)
        # A budget that holds every request at once never saturates: then the whole run.
        acc = self.window if self.window[5] else self.whole
        n = max(1, acc[5])
        held = sum(acc[:4])
        return PolicyRun(
            policy=policy,
            label=POLICY_LABELS[policy],
            **{s: tuple(v) for s, v in cols.items()},
            running=tuple(running),
            mean_token_states=acc[0] / (n * c),
            mean_reserved=acc[1] / (n * c),
            mean_internal=acc[2] / (n * c),
            mean_rounding=acc[3] / (n * c),
            mean_free=1.0 - held / (n * c),
            mean_running=acc[4] / n,
            saturated_steps=self.window[5],
            total_steps=total_steps,
            preemptions=preemptions,
        )


class _Buddy:
    """A buddy allocator over `capacity` slots, as the paper assumes Orca uses.

    The arena is the powers of two in capacity's binary form, largest first, each at an
    address aligned to its size (15,728 = 8,192 + 4,096 + 2,048 + 1,024 + 256 + 64 + 32
    + 16); a request takes the lowest free block of its power-of-two size, splitting a
    larger one if it must, and a freed block merges with its free buddy. Free memory can
    then be split into blocks too small for the next request: external fragmentation.
    """

    def __init__(self, capacity: int):
        self.free: dict[int, set[int]] = {}
        self.largest = 0
        addr = 0
        for bit in reversed(range(capacity.bit_length())):
            size = 1 << bit
            if capacity & size:
                self.free[size] = {addr}
                self.largest = max(self.largest, size)
                addr += size

    def alloc(self, size: int) -> int | None:
        s = size
        while not self.free.get(s):
            s <<= 1
            if s > self.largest:
                return None
        addr = min(self.free[s])
        self.free[s].remove(addr)
        while s > size:  # keep the low half, free the high one
            s >>= 1
            self.free.setdefault(s, set()).add(addr + s)
        return addr

    def release(self, addr: int, size: int) -> None:
        while True:
            buddy = addr ^ size
            same = self.free.get(size)
            if same is None or buddy not in same:
                self.free.setdefault(size, set()).add(addr)
                return
            same.remove(buddy)
            addr = min(addr, buddy)
            size <<= 1


def _run_reserving(policy, reqs, capacity, max_len, buddy):
    """Event by event: between two starts or ends the running set is fixed and tokens grow linearly."""
    res = [_reservation(policy, p, o, max_len) for p, o in reqs]
    chunk = [next_pow2(r) for r in res] if buddy else res
    # With the buddy arena, the largest block is the highest power of two in capacity.
    room = 1 << (capacity.bit_length() - 1) if buddy else capacity
    for i, c in enumerate(chunk):
        if c > room:
            raise InputError(
                f"request {i} needs a {c:,}-slot reservation under {POLICY_LABELS[policy]}, more than the "
                f"{room:,} contiguous KV slots there are: it could never be admitted "
                "(give more memory or shorter requests)"
            )
    sums = _Sums(capacity)
    segments = []  # (first step, last step, base, k, final, reserved, held)
    queue = deque(range(len(reqs)))
    ends: list[tuple[int, int]] = []  # (last step, request)
    t = 0
    base = 0  # tokens at step s = base + k * s (sum over running of P + 1 - admission step)
    k = final = reserved = held = 0  # running; sums of P + O, reservations, chunks
    arena = _Buddy(capacity) if buddy else None
    where = {}
    while queue or ends:
        while queue:
            i = queue[0]
            if arena is None:
                if held + chunk[i] > capacity:
                    break
            else:
                addr = arena.alloc(chunk[i])
                if addr is None:
                    break
                where[i] = addr
            queue.popleft()
            p, o = reqs[i]
            heapq.heappush(ends, (t + o - 1, i))
            base += p + 1 - t
            k += 1
            final += p + o
            reserved += res[i]
            held += chunk[i]
        last = ends[0][0]  # steps t..last keep the same running set
        segments.append((t, last, base, k, final, reserved, held))
        n = last - t + 1
        tok = base * n + k * ((t + last) * n // 2)
        # bool(queue): a request waits throughout the range (admissions happen only at its start)
        sums.add(tok, final * n - tok, (reserved - final) * n, (held - reserved) * n, k * n, n, bool(queue))
        while ends and ends[0][0] == last:
            _, i = heapq.heappop(ends)
            p, o = reqs[i]
            base -= p + 1 - (last - o + 1)
            k -= 1
            final -= p + o
            reserved -= res[i]
            held -= chunk[i]
            if arena is not None:
                arena.release(where.pop(i), chunk[i])
        t = last + 1

    def sample(grid):
        j = 0
        for s in grid:
            while j < len(segments) and segments[j][1] < s:
                j += 1
            if j == len(segments):
                yield (0, 0, 0, 0, 0)
                continue
            _, _, b, kk, f, r, h = segments[j]
            tok = b + kk * s
            yield (tok, f - tok, r - f, h - r, kk)

    return sums, sample, t, 0


# ---- paged: blocks as the sequence grows, vLLM's admission and preemption ----------------


def _run_paged(reqs, capacity, block_size, watermark_blocks):
    """vLLM's block manager and FCFS scheduler, step by step.

    Rules from vLLM 0.2.0 (the release of the paper's time), vllm/core/:
      block_manager.py BlockSpaceManager.can_allocate: a waiting request is admitted when
        its prompt's blocks leave at least watermark_blocks = int(0.01 x blocks) free;
      scheduler.py Scheduler._schedule: when running requests need more blocks than are
        free, the lowest-priority running request (the latest to arrive) is preempted;
      scheduler.py Scheduler._preempt_by_recompute: its blocks are freed and it goes back
        to the front of the queue, to be prefilled again with the tokens it has so far.
    Simplified: a prefill shares its step with the others' decoding, and preemption
    happens only when a block is actually needed (vLLM's can_append_slot asks for one
    free block per running request every step).
    """
    _check_requests_fit(reqs, capacity // block_size - watermark_blocks, block_size)
    run = _PagedRun(reqs, capacity, block_size)
    t = 0
    while run.queue or run.k:
        run.admit_waiting(t, watermark_blocks)
        run.grow(t, run.preempt_for(t))
        run.record_step()
        run.finish_ending(t)
        t += 1
    per_step = run.per_step

    def sample(grid):
        for s in grid:
            if s >= len(per_step):
                yield (0, 0, 0, 0, 0)
            else:
                tok, slack, nev, kk = per_step[s]
                yield (tok, slack - nev, nev, 0, kk)

    return run.sums, sample, t, run.preemptions


def _check_requests_fit(reqs, most_blocks: int, B: int) -> None:
    """InputError for a request that needs more blocks than one request may take: it would
    wait forever."""
    for i, (p, o) in enumerate(reqs):
        need = -(-(p + o) // B)
        if need > most_blocks:
            raise InputError(
                f"request {i} needs {need:,} blocks of {B} tokens, more than the {most_blocks:,} "
                "a request may take: it could never finish (give more memory or shorter requests)"
            )


class _PagedRun:
    """The paged scheduler's state between steps: each request's blocks and length, the
    waiting queue, the running count k, and the slots held, written and never written.

    A request's future block needs and its end are booked by step when it is admitted
    (needs, ends), tagged with its admission epoch so a preempted admission's bookings are
    ignored."""

    def __init__(self, reqs, capacity: int, block_size: int):
        B = self.B = block_size
        n = len(reqs)
        self.total_blocks = capacity // B
        # tokens a waiting request brings (prompt, + output so far after a preemption)
        self.length = [p for p, _ in reqs]
        self.final = [p + o for p, o in reqs]
        self.tail = [(-(-f // B)) * B - f for f in self.final]  # never-written slots of the last block
        self.admitted_at = [0] * n
        self.start_len = [0] * n
        self.blocks = [0] * n
        self.epoch = [0] * n
        self.tail_counted = [False] * n
        self.needs: dict[int, list[tuple[int, int]]] = {}
        self.ends: dict[int, list[tuple[int, int]]] = {}
        self.victims: list[int] = []  # max-heap of running request ids (arrival order = id)
        self.running = [False] * n
        self.queue = deque(range(n))
        self.free = self.total_blocks
        self.tokens = self.used_blocks = self.never = self.k = 0
        self.preemptions = 0
        self.sums = _Sums(capacity)
        # (tokens, empty slots in held blocks, never written, running) per step
        self.per_step: list[tuple[int, int, int, int]] = []

    def admit_waiting(self, t: int, watermark_blocks: int) -> None:
        """Admit from the front of the queue while the prompt's blocks leave the watermark free."""
        B = self.B
        while self.queue:
            i = self.queue[0]
            b = -(-self.length[i] // B)
            if self.free - b < watermark_blocks:
                break
            self.queue.popleft()
            self.free -= b
            self.used_blocks += b
            self.blocks[i] = b
            L0 = self.start_len[i] = self.length[i]
            self.admitted_at[i] = t
            self.epoch[i] += 1
            self.running[i] = True
            self.k += 1
            self.tokens += L0
            heapq.heappush(self.victims, -i)
            rem = self.final[i] - L0
            for j in range((-L0) % B, rem, B):
                self.needs.setdefault(t + j, []).append((i, self.epoch[i]))
            self.ends.setdefault(t + rem - 1, []).append((i, self.epoch[i]))
            self.tail_counted[i] = b == -(-self.final[i] // B)
            if self.tail_counted[i]:
                self.never += self.tail[i]

    def preempt_for(self, t: int) -> list[int]:
        """The running requests that need a new block at step t, after preempting the latest
        arrivals until the free blocks cover them."""
        want = [i for i, e in self.needs.pop(t, ()) if self.running[i] and self.epoch[i] == e]
        while len(want) > self.free:
            while not self.running[-self.victims[0]]:
                heapq.heappop(self.victims)
            v = -heapq.heappop(self.victims)
            have = self.start_len[v] + (t - self.admitted_at[v])
            self.running[v] = False
            self.k -= 1
            self.tokens -= have
            self.free += self.blocks[v]
            self.used_blocks -= self.blocks[v]
            if self.tail_counted[v]:
                self.never -= self.tail[v]
            self.length[v] = have
            self.queue.appendleft(v)
            self.preemptions += 1
            if v in want:
                want.remove(v)
        return want

    def grow(self, t: int, want: list[int]) -> None:
        """One more block to each request in want; every running request writes one token."""
        for i in want:
            self.blocks[i] += 1
            if self.blocks[i] == -(-self.final[i] // self.B):
                self.tail_counted[i] = True
                self.never += self.tail[i]
        self.free -= len(want)
        self.used_blocks += len(want)
        self.tokens += self.k

    def record_step(self) -> None:
        slack = self.used_blocks * self.B - self.tokens  # empty slots inside held blocks
        self.sums.add(self.tokens, slack - self.never, self.never, 0, self.k, 1, bool(self.queue))
        self.per_step.append((self.tokens, slack, self.never, self.k))

    def finish_ending(self, t: int) -> None:
        """Free the blocks of the requests that wrote their last token at step t."""
        for i, e in self.ends.pop(t, ()):
            if self.running[i] and self.epoch[i] == e:
                self.running[i] = False
                self.k -= 1
                self.tokens -= self.final[i]
                self.free += self.blocks[i]
                self.used_blocks -= self.blocks[i]
                self.never -= self.tail[i]


def _grid(total_steps: int, points: int) -> tuple[int, ...]:
    if total_steps <= points:
        return tuple(range(total_steps))
    return tuple(sorted({round(j * (total_steps - 1) / (points - 1)) for j in range(points)}))


def kv_slots_for(model: Model, gpu: str | GPU, *, kv_dtype: str = "bf16", **budget_kwargs) -> int:
    """Token slots of KV memory a model leaves on `gpu` (core.budget.memory_budget's convention).

    A slot is one token in every layer, on all GPUs. Only models whose every layer keeps
    every token (full attention, MLA) have a fixed cost per slot; windows and recurrent
    state would make a slot's size depend on the length, so they are refused by name.
    """
    kinds = sorted({g.spec.kind for g in model.groups} - {"full", "mla"})
    if kinds:
        raise InputError(
            f"{model.name} has {', '.join(kinds)} layers: a trace counts token slots of one fixed size, "
            "which only full-attention and MLA layers have; give kv_slots instead"
        )
    b = memory_budget(model, gpu, **budget_kwargs)
    per_token = model.kv_bytes_per_token(kv_dtype, tp=b.num_gpus) * b.num_gpus
    if b.kv_budget_bytes <= 0:
        raise InputError(
            f"{model.name}'s weights ({b.weights_bytes / 1e9:,.1f} GB) leave no KV memory on "
            f"{b.num_gpus} x {b.gpu.name}: nothing to trace. More GPUs, smaller weights (FP8) or a GPU "
            "with more memory would leave some"
        )
    return b.kv_budget_bytes // per_token


def allocator_trace(
    requests: str | Iterable[Sequence[int]] = "sharegpt",
    *,
    kv_slots: int | None = None,
    model: Model | None = None,
    gpu: str | GPU | None = None,
    kv_dtype: str = "bf16",
    num_requests: int = 300,
    seed: int = 0,
    max_len: int | None = None,
    block_size: int = 16,
    policies: Sequence[str] = POLICIES,
    buddy: bool = True,
    watermark: float = 0.01,
    points: int = 200,
    **budget_kwargs,
) -> AllocatorTrace:
    """Run one request stream through each policy on `kv_slots` token slots of KV memory.

    requests: a dataset name ("sharegpt", "alpaca": `num_requests` lengths drawn with
    `seed` from kvwidgets/data/request_lengths.json) or (prompt, output) token pairs.
    The KV budget is `kv_slots` token slots, or what `model` leaves on `gpu` (kv_slots_for;
    budget_kwargs as memory_budget takes them: num_gpus, weight_dtype, utilization, ...).
    The series are sampled at `points` steps spread over the longest policy's run.
    """
    if kv_slots is None:
        if model is None or gpu is None:
            raise InputError(
                "give kv_slots (token slots of KV memory), or a model and a gpu to size them from"
            )
        kv_slots = kv_slots_for(model, gpu, kv_dtype=kv_dtype, **budget_kwargs)
    elif model is not None or gpu is not None or budget_kwargs:
        raise InputError("give either kv_slots or a model and gpu (with their budget options), not both")
    kv_slots = check_int("kv_slots", kv_slots, minimum=1)
    block_size = check_int("block_size", block_size, minimum=1)
    points = check_int("points", points, minimum=2)
    if isinstance(watermark, bool) or not isinstance(watermark, (int, float)) or not 0 <= watermark < 1:
        raise InputError(f"watermark must be a fraction in [0, 1) of the blocks kept free, got {watermark!r}")
    bad = [p for p in policies if p not in POLICIES]
    if bad or not policies:
        raise InputError(f"policies must be some of {', '.join(POLICIES)}; got {list(policies)!r}")
    if isinstance(requests, str):
        fit = get_length_fit(requests)
        dataset = fit.name
        max_len = fit.max_len if max_len is None else check_int("max_len", max_len, minimum=2)
        reqs = sample_requests(dataset, num_requests, seed=seed, max_len=max_len)
        used_seed: int | None = seed
    else:
        dataset, used_seed = None, None
        max_len = 2048 if max_len is None else check_int("max_len", max_len, minimum=2)
        reqs = check_requests(requests, max_len)
    total_blocks = kv_slots // block_size
    watermark_blocks = int(watermark * total_blocks)
    raw = {}
    for pol in policies:
        if pol == "paged":
            raw[pol] = _run_paged(reqs, kv_slots, block_size, watermark_blocks)
        else:
            raw[pol] = _run_reserving(pol, reqs, kv_slots, max_len, buddy)
    grid = _grid(max(total for _, _, total, _ in raw.values()), points)
    runs = {pol: sums.run(pol, sample(grid), total, pre) for pol, (sums, sample, total, pre) in raw.items()}
    notes = (
        "Every request waits at step 0 and is admitted first come, first served when its reservation fits; "
        "averages are over the steps at which a request is still waiting (a saturated server).",
        "One decode step writes one token per running request; prefill shares its step with decoding.",
    )
    if buddy:
        notes += (
            "Orca's reservations are placed by a buddy allocator (the paper's assumption): each is rounded up to a "
            "power of two, and free space can be split too finely for the next request; the paper counts both "
            "as external fragmentation & others.",
        )
    idle = [r.label for r in runs.values() if not r.saturated_steps]
    if idle:
        notes += (
            f"{', '.join(idle)}: no request ever waited (the memory holds the whole trace), so the averages are "
            "over the whole run, not a full server; give more requests or less memory to see one.",
        )
    return AllocatorTrace(
        kv_slots=kv_slots,
        block_size=block_size,
        max_len=max_len,
        buddy=buddy,
        watermark_blocks=watermark_blocks,
        requests=reqs,
        dataset=dataset,
        seed=used_seed,
        steps=grid,
        runs=runs,
        notes=notes,
    )
