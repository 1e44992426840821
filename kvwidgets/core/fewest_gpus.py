"""The inverse question: the fewest GPUs of one type that hold N conversations of C tokens.

Deployments are tried in order of GPU count: tensor parallel groups of tp GPUs (a power
of two up to max_tp), times dp copies. For a dense model the copies are independent
replicas; for a mixture of experts they are data-parallel attention ranks sharing the
experts by expert parallelism (each rank its own requests and pool, how engines serve
MLA models, whose latent tensor parallelism would copy onto every GPU). Each deployment
is sized by kvwidgets.core.placement, and every one that falls short (those with fewer
GPUs than the answer, and the other arrangements of the answer's count) is kept with the
reason it fails: the weights do not load, the cache holds only k
conversations, or the GPUs' memory would add up to enough but one rank is full first.
Pipeline parallelism is not searched (it never holds more than tensor parallelism on
the same GPUs here, and it adds stage imbalance).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError, check_int
from .gpus import GPU, get_gpu
from .model import Model
from .placement import Deployment, Placement, placement


@dataclass(frozen=True)
class Attempt:
    deployment: Deployment
    conversations: int  # 0 when the deployment cannot be built or the weights do not load
    reason: str  # why it does not hold the target ("" for the answer)


@dataclass(frozen=True)
class FewestGPUs:
    conversations: int  # the target N
    context: int  # C
    gpu: str
    answer: Placement | None  # None: nothing up to max_gpus holds it
    tried: tuple[Attempt, ...]  # every deployment that falls short, in order (the answer's size too)

    def as_dict(self) -> dict:
        return {
            "conversations": self.conversations,
            "context": self.context,
            "gpu": self.gpu,
            "num_gpus": self.num_gpus,
            "answer": self.answer.as_dict() if self.answer else None,
            "tried": [
                {"deployment": a.deployment.describe(), "conversations": a.conversations, "reason": a.reason}
                for a in self.tried
            ],
            "message": self.message,
        }

    @property
    def num_gpus(self) -> int | None:
        return self.answer.deployment.num_gpus if self.answer else None

    @property
    def message(self) -> str:
        if self.answer is None:
            return (
                f"No deployment of up to {max((a.deployment.num_gpus for a in self.tried), default=0)} "
                f"{self.gpu} GPUs holds {self.conversations:,} conversations of {self.context:,} tokens."
            )
        a = self.answer
        return (
            f"{a.deployment.describe()} of {self.gpu} hold {a.conversations:,} "
            f"conversations of {self.context:,} tokens, at least the {self.conversations:,} asked for."
        )


def _candidates(model: Model, num_gpus: int, max_tp: int) -> list[Deployment]:
    """Every tp x dp = num_gpus with tp a power of two up to max_tp, smallest tp first."""
    out = []
    tp = 1
    while tp <= min(num_gpus, max_tp):
        if num_gpus % tp == 0:
            dp = num_gpus // tp
            ep = bool(model.num_experts) and tp * dp > 1 and dp > 1
            out.append(Deployment(tp=tp, dp=dp, ep=ep))
        tp *= 2
    return out


def _reason(p: Placement, target: int) -> str:
    if not p.weights_fit:
        worst = min(p.ranks, key=lambda r: r.cache_budget_bytes)
        return (
            f"weights do not load: {worst.weights_bytes / 1e9:,.1f} GB a GPU in "
            f"{worst.usable_bytes / 1e9:,.1f} GB usable"
        )
    if p.summed_conversations >= target:
        r = p.full_rank
        return (
            f"the GPUs' memory adds up to {p.summed_conversations:,} conversations, but rank {r.rank} is full "
            f"first at {r.conversations:,}, so it holds {p.conversations:,}"
        )
    return f"the cache holds only {p.conversations:,} conversations"


def fewest_gpus(
    model: Model,
    gpu: str | GPU,
    conversations: int,
    context: int,
    *,
    kv_dtype: str = "bf16",
    weight_dtype: str | None = None,
    utilization: float = 0.9,
    working_bytes: int = 0,
    memory: str = "marketed",
    max_gpus: int = 64,
    max_tp: int = 8,
) -> FewestGPUs:
    """The smallest deployment (fewest GPUs, then most conversations) holding the target."""
    target = check_int("conversations", conversations, minimum=1)
    context = check_int("context", context, minimum=1)
    max_gpus = check_int("max_gpus", max_gpus, minimum=1)
    max_tp = check_int("max_tp", max_tp, minimum=1)
    g = get_gpu(gpu)
    tried: list[Attempt] = []
    # A dense model's replicas are copies: a TP size whose one replica holds nothing never
    # will, however many copies, so it is tried once and then left out.
    hopeless: set[int] = set()
    for n in range(1, max_gpus + 1):
        fits: list[Placement] = []
        for d in _candidates(model, n, max_tp):
            if d.tp in hopeless:
                continue
            try:
                p = placement(
                    model,
                    g,
                    context,
                    deployment=d,
                    kv_dtype=kv_dtype,
                    weight_dtype=weight_dtype,
                    utilization=utilization,
                    working_bytes=working_bytes,
                    memory=memory,
                )
            except InputError as e:  # a TP size the KV heads do not divide, ...
                tried.append(Attempt(d, 0, f"cannot be built: {e}"))
                hopeless.add(d.tp)
                continue
            if not model.num_experts and p.conversations == 0:
                hopeless.add(d.tp)
            if p.conversations >= target:
                fits.append(p)
            else:
                tried.append(Attempt(d, p.conversations, _reason(p, target)))
        if fits:
            best = max(fits, key=lambda p: p.conversations)
            return FewestGPUs(target, context, g.name, best, tuple(tried))
    return FewestGPUs(target, context, g.name, None, tuple(tried))
