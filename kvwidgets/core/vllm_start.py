"""Whether vLLM 0.33 starts: one request at --max-model-len must fit in the cache memory.

vLLM 0.33.0 v1/core/kv_cache_planning.py, on the engine's start-up path
(v1/engine/core.py EngineCore._initialize_kv_caches -> get_kv_cache_configs):
  get_kv_cache_configs  takes one block off each worker's memory first (the null block the
      BlockPool holds back: "Reserve the null block ..."), then checks every worker
  _check_enough_kv_cache_memory  refuses with "No available memory for the cache blocks"
      when nothing is left, else compares the memory one max-length request needs
      (_max_memory_usage_bytes_from_groups: blocks of every group x bytes a block) with it
      and raises the error reproduced by start_error()
  _estimate_max_model_len_from_groups  binary search over 1..max_model_len for the longest
      length whose request fits (0 when not even one token does; the sentence is then left out)
format_gib (0.33.0 utils/mem_utils.py) prints round(bytes / 2**30, 2).
This builds on VLLMReport.starts, which applies the same comparison.

The memory is the report's budget: memory x utilization - weights - working area, with
the marketed memory unless memory="device" is passed (vLLM multiplies the memory the
device reports: 0.33.0 v1/worker/utils.py, request_memory), so a --gpu-memory-utilization
found here is in that convention.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .errors import InputError
from .vllm import VLLMReport, vllm_kv_report

CONSERVING_MEMORY_URL = "https://docs.vllm.ai/en/latest/configuration/conserving_memory/"
TP_CANDIDATES = (2, 4, 8, 16, 32, 64)


def format_gib(n: int) -> str:
    """vLLM 0.33.0 utils/mem_utils.py, format_gib: f"{round(b / GiB_bytes, 2)}"."""
    return f"{round(n / 2**30, 2)}"


@dataclass(frozen=True)
class StartFix:
    """One flag that makes the server start, with the value that does it (None: none does)."""

    flag: str
    value: str | None
    why: str


@dataclass(frozen=True)
class StartCheck:
    starts: bool
    max_model_len: int
    needed_bytes: int  # one request at max_model_len, per GPU
    available_bytes: int  # cache memory, per GPU
    check_bytes: int  # what the check compares with: available less the null block
    estimated_max_model_len: int  # vLLM's binary search (0: not even one token)
    error: str | None  # vLLM's error text, None when it starts
    fixes: tuple[StartFix, ...]
    report: VLLMReport

    def as_dict(self) -> dict:
        """Plain numbers and strings (the report through its own as_dict)."""
        out = {k: v for k, v in asdict(self).items() if k != "report"}
        out["report"] = self.report.as_dict()
        return out


def start_error(needed: int, check_bytes: int, max_model_len: int, estimated: int) -> str | None:
    """The text vLLM 0.33.0 raises (v1/core/kv_cache_planning.py, _check_enough_kv_cache_memory)."""
    if check_bytes <= 0:
        return (
            "No available memory for the cache blocks. "
            "Try increasing `gpu_memory_utilization` when initializing the engine "
            "(this flag also controls CPU memory reservation on the CPU "
            "backend, despite its name). "
            f"See {CONSERVING_MEMORY_URL} for more details."
        )
    if needed <= check_bytes:
        return None
    estimated_msg = (
        f"Based on the available memory, the estimated maximum model length is {estimated}. "
        if estimated > 0
        else ""
    )
    return (
        f"To serve at least one request with the model's max seq len "
        f"({max_model_len}), ({format_gib(needed)} GiB KV "
        f"cache is needed, which is larger than the available KV cache "
        f"memory ({format_gib(check_bytes)} GiB). {estimated_msg}"
        f"Try increasing `gpu_memory_utilization` (which also controls "
        f"CPU memory on the CPU backend) or decreasing `max_model_len` "
        f"when initializing the engine. "
        f"See {CONSERVING_MEMORY_URL} for more details."
    )


def _check_bytes(report: VLLMReport) -> int:
    return report.available_bytes - report.bytes_per_block


def estimate_max_model_len(model, gpu, check_bytes: int, max_model_len: int, flags: dict) -> int:
    """vLLM 0.33.0 _estimate_max_model_len_from_groups: left, right = 1, max_model_len; 0 when
    length 1 does not fit, else the last length whose request fits, by binary search."""

    def fits(length: int) -> bool:
        rep = vllm_kv_report(model, gpu, **{**flags, "max_model_len": length})
        return rep.needed_bytes <= check_bytes

    if not fits(1):
        return 0
    left, right, result = 1, max_model_len, 1
    while left <= right:
        mid = (left + right) // 2
        if fits(mid):
            result, left = mid, mid + 1
        else:
            right = mid - 1
    return result


def vllm_start_check(model, gpu=None, **flags) -> StartCheck:
    """Does vLLM 0.33 start with these flags (those of vllm_kv_report), and if not, the error
    it prints and the value of each flag that would make it start."""
    if "settings" in flags:
        raise InputError("settings: give the flags as keywords to vllm_start_check (it varies them)")
    if str(flags.get("vllm_version", "0.33")).split(".")[:2] != ["0", "33"]:
        raise InputError(
            f"vllm_version={flags['vllm_version']!r}: the start-up check is reproduced from vLLM 0.33 only"
        )
    report = vllm_kv_report(model, gpu, **flags)
    length = report.max_model_len
    flags = {**flags, "max_model_len": length}
    check = _check_bytes(report)
    starts = report.starts
    estimated = 0
    if not starts and check > 0:
        estimated = estimate_max_model_len(model, gpu, check, length, flags)
    error = None if starts else start_error(report.needed_bytes, check, length, estimated)
    fixes = () if starts else _fixes(model, gpu, flags, report, estimated)
    return StartCheck(
        starts=starts,
        max_model_len=length,
        needed_bytes=report.needed_bytes,
        available_bytes=report.available_bytes,
        check_bytes=check,
        estimated_max_model_len=estimated,
        error=error,
        fixes=fixes,
        report=report,
    )


def _starts(model, gpu, flags: dict) -> bool:
    try:
        return vllm_kv_report(model, gpu, **flags).starts
    except InputError:  # e.g. a TP size that does not divide the KV heads
        return False


def _fixes(model, gpu, flags: dict, report: VLLMReport, estimated: int) -> tuple[StartFix, ...]:
    out = [
        StartFix(
            "--max-model-len",
            str(estimated) if estimated else None,
            "the longest length whose one request fits (vLLM's own estimate)"
            if estimated
            else "not even a one-token request fits",
        )
    ]
    if flags.get("kv_dtype", "bf16") != "fp8":
        ok = _starts(model, gpu, {**flags, "kv_dtype": "fp8"})
        out.append(
            StartFix(
                "--kv-cache-dtype",
                "fp8" if ok else None,
                "an FP8 cache halves the bytes a token takes" if ok else "an FP8 cache is not enough",
            )
        )
    fixed_memory = flags.get("kv_cache_memory_bytes") is not None
    if fixed_memory:
        why = "the cache memory is fixed by kv_cache_memory_bytes"
        out.append(StartFix("--tensor-parallel-size", None, why))
        out.append(StartFix("--gpu-memory-utilization", None, why))
        return tuple(out)
    tp = flags.get("num_gpus", 1)
    more = next((n for n in TP_CANDIDATES if n > tp and _starts(model, gpu, {**flags, "num_gpus": n})), None)
    out.append(
        StartFix(
            "--tensor-parallel-size",
            str(more) if more else None,
            "the weights and KV heads split over more GPUs"
            if more
            else f"no tensor-parallel size up to {TP_CANDIDATES[-1]} starts",
        )
    )
    out.append(_utilization_fix(model, gpu, flags))
    return tuple(out)


def _utilization_fix(model, gpu, flags: dict) -> StartFix:
    """The smallest --gpu-memory-utilization, in hundredths up to 1.0, that starts."""
    now = round(float(flags.get("utilization", 0.9)) * 100)
    lo, hi = now + 1, 100
    if lo > hi or not _starts(model, gpu, {**flags, "utilization": hi / 100}):
        return StartFix("--gpu-memory-utilization", None, "even all of the memory is not enough")
    while lo < hi:  # more memory never makes it fail
        mid = (lo + hi) // 2
        if _starts(model, gpu, {**flags, "utilization": mid / 100}):
            hi = mid
        else:
            lo = mid + 1
    return StartFix("--gpu-memory-utilization", f"{lo / 100:.2f}", "more of the GPU's memory for the cache")
