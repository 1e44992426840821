"""Prompt and output lengths for a request trace, drawn from a seeded fit to published means.

The PagedAttention paper (Kwon et al., SOSP 2023) gives the mean prompt and output
lengths of its ShareGPT and Alpaca traces (Figure 11) but not their spread. The fit here
is a lognormal per length with that mean; the spread (sigma) is an assumption recorded
beside the means in kvwidgets/data/request_lengths.json, with its source.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources

from .errors import InputError, check_int, unknown_name


@dataclass(frozen=True)
class LengthFit:
    """One dataset's length distribution: published means, assumed lognormal spread."""

    name: str
    label: str
    input_mean: float  # published
    output_mean: float  # published
    input_sigma: float  # assumed (log space)
    output_sigma: float  # assumed (log space)
    max_input: int  # prompts longer than this are redrawn
    max_len: int  # prompt + output never exceeds this (OPT's 2,048)
    source: str
    spread_assumption: str


@functools.lru_cache(maxsize=1)
def length_fits() -> dict[str, LengthFit]:
    raw = json.loads(resources.files("kvwidgets.data").joinpath("request_lengths.json").read_text())
    return {
        name: LengthFit(
            name=name,
            label=d["label"],
            input_mean=d["input_mean"],
            output_mean=d["output_mean"],
            input_sigma=d["input_sigma"],
            output_sigma=d["output_sigma"],
            max_input=raw["max_input"],
            max_len=raw["max_len"],
            source=raw["source"],
            spread_assumption=raw["spread_assumption"],
        )
        for name, d in raw["datasets"].items()
    }


def get_length_fit(dataset: str) -> LengthFit:
    fits = length_fits()
    key = str(dataset).lower()
    if key not in fits:
        raise unknown_name("dataset", dataset, fits)
    return fits[key]


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def _mean_capped(mu: float, sigma: float, cap: float) -> float:
    """E[min(X, cap)] for X lognormal(mu, sigma): what a draw cut at `cap` averages."""
    lc = math.log(cap)
    head = math.exp(mu + sigma * sigma / 2) * _phi((lc - mu - sigma * sigma) / sigma)
    return head + cap * (1.0 - _phi((lc - mu) / sigma))


def _mean_truncated(mu: float, sigma: float, cap: float) -> float:
    """E[X | X <= cap] for X lognormal(mu, sigma): what a draw redrawn above `cap` averages."""
    lc = math.log(cap)
    kept = _phi((lc - mu) / sigma)
    if kept == 0.0:  # every draw above the cap (mu far too high): the mean is at the cap
        return cap
    return math.exp(mu + sigma * sigma / 2) * _phi((lc - mu - sigma * sigma) / sigma) / kept


def _solve_mu(mean_of, target: float) -> float:
    """The mu whose (capped) mean is `target` (both means rise with mu; bisection)."""
    lo, hi = math.log(target) - 20.0, math.log(target) + 5.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if mean_of(mid) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@functools.lru_cache(maxsize=64)
def _mus(fit: LengthFit, max_len: int) -> tuple[float, float]:
    mu_in = _solve_mu(lambda m: _mean_truncated(m, fit.input_sigma, fit.max_input), fit.input_mean)
    # The output is cut at max_len - prompt; the mean prompt stands in for the prompt here.
    cap = max_len - fit.input_mean
    mu_out = _solve_mu(lambda m: _mean_capped(m, fit.output_sigma, cap), fit.output_mean)
    return mu_in, mu_out


def sample_requests(
    dataset: str = "sharegpt",
    num_requests: int = 300,
    *,
    seed: int = 0,
    max_len: int | None = None,
) -> tuple[tuple[int, int], ...]:
    """`num_requests` (prompt tokens, output tokens) pairs, the same for the same seed.

    Each length is at least 1; prompt + output <= max_len (the dataset's 2,048 unless given).
    """
    fit = get_length_fit(dataset)
    num_requests = check_int("num_requests", num_requests, minimum=1)
    max_len = fit.max_len if max_len is None else check_int("max_len", max_len, minimum=2)
    max_input = min(fit.max_input, max_len - 1)
    mu_in, mu_out = _mus(fit, max_len)
    rng = random.Random(seed)
    out = []
    for _ in range(num_requests):
        while True:
            p = max(1, round(rng.lognormvariate(mu_in, fit.input_sigma)))
            if p <= max_input:
                break
        o = max(1, round(rng.lognormvariate(mu_out, fit.output_sigma)))
        out.append((p, min(o, max_len - p)))
    return tuple(out)


def check_requests(requests: Iterable[Sequence[int]], max_len: int) -> tuple[tuple[int, int], ...]:
    """Lengths a user gives: (prompt, output) pairs of whole numbers >= 1, within max_len."""
    pairs = []
    for i, r in enumerate(requests):
        if isinstance(r, (str, bytes)) or not isinstance(r, Sequence) or len(r) != 2:
            raise InputError(f"requests[{i}] must be a (prompt tokens, output tokens) pair, got {r!r}")
        p = check_int(f"requests[{i}] prompt tokens", r[0], minimum=1)
        o = check_int(f"requests[{i}] output tokens", r[1], minimum=1)
        if p + o > max_len:
            raise InputError(
                f"requests[{i}] holds {p:,} + {o:,} = {p + o:,} tokens, more than max_len={max_len:,} "
                "(the longest sequence the model serves; raise max_len or shorten the request)"
            )
        pairs.append((p, o))
    if not pairs:
        raise InputError("requests is empty: give at least one (prompt tokens, output tokens) pair")
    return tuple(pairs)
