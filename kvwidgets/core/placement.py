"""One deployment over several GPUs turned into each GPU's memory: weights, cache, conversations.

A deployment is tensor parallel (tp GPUs share each layer), pipeline parallel (pp stages
each hold a run of layers), data-parallel attention (dp replicas of attention, each with
its own requests and cache pool) and optionally expert parallel (routed experts spread
over the tp x dp GPUs of a stage). Each GPU ("rank") gets:

  weights      its share: the embedding on the first stage, the LM head on the last,
               its stage's layers split by tp, its routed experts
  cache        bytes per token of its stage's layers at tp: KV heads max(1, heads // tp)
               (copies when GPUs outnumber heads), an MLA latent whole on every rank
  budget       usable memory - weights - working area
  conversations  floor(budget / one conversation's cache on this rank)

and the deployment serves what its fullest rank allows: a request passes every stage and
every tensor-parallel rank of its replica, so a replica holds the smallest of its ranks'
counts; data-parallel replicas each run their own pool, so the deployment serves the sum
(0.33.0 v1/engine/core.py: every data-parallel rank is its own DPEngineCoreProc, an
EngineCore that sizes its own cache in _initialize_kv_caches).
vLLM's own rule is reproduced beside it (VLLMPool): every worker of a replica is checked
for one max-length request and its block count is cut to the smallest (0.33.0
v1/core/kv_cache_planning.py, get_kv_cache_configs: "Check if the available memory is
enough per worker" and "Change the num_blocks of each rank to the smallest among all ranks").
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from fractions import Fraction

from .budget import utilization_fraction
from .errors import InputError, check_int
from .gpus import GPU, get_gpu
from .layers import LayerGroup, MLASpec
from .model import Model


def vllm_pp_split(num_layers: int, pp: int) -> tuple[int, ...]:
    """Layers per stage as vLLM splits them by default.

    0.33.0 vllm/distributed/utils.py, get_pp_indices: num_layers // pp each, and the
    remainder added one layer at a time to the stages before the last (partitions[-2],
    partitions[-3], ...), since the last stage also holds the final norm and LM head.
    80 layers over 3 stages: 26 each, remainder 2 -> [27, 27, 26].
    """
    num_layers = check_int("num_hidden_layers", num_layers, minimum=1)
    pp = check_int("pp", pp, minimum=1)
    if pp > num_layers:
        raise InputError(f"pp={pp}: more pipeline stages than the model's {num_layers} layers")
    parts = [num_layers // pp] * pp
    for i in range(2, num_layers % pp + 2):
        parts[-i] += 1
    return tuple(parts)


@dataclass(frozen=True)
class Deployment:
    """How the GPUs are arranged.

    tp           tensor-parallel size (--tensor-parallel-size): GPUs sharing each layer
    pp           pipeline stages (--pipeline-parallel-size)
    dp           data-parallel attention replicas (--data-parallel-size): each its own
                 requests and cache pool
    ep           expert parallel (--enable-expert-parallel): routed experts spread whole
                 over the tp x dp GPUs of a stage instead of each expert split across them
    layer_split  layers per stage (VLLM_PP_LAYER_PARTITION); None: vLLM's default split
    """

    tp: int = 1
    pp: int = 1
    dp: int = 1
    ep: bool = False
    layer_split: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        check_int("tp", self.tp, minimum=1)
        check_int("pp", self.pp, minimum=1)
        check_int("dp", self.dp, minimum=1)
        if not isinstance(self.ep, bool):
            raise InputError(f"ep must be True or False, got {self.ep!r}")
        if self.layer_split is not None:
            split = tuple(check_int("layer_split", n, minimum=1) for n in self.layer_split)
            if len(split) != self.pp:
                raise InputError(
                    f"layer_split has {len(split)} stages; pp={self.pp} needs one count per stage"
                )
            object.__setattr__(self, "layer_split", split)

    @property
    def num_gpus(self) -> int:
        return self.tp * self.pp * self.dp

    def describe(self) -> str:
        parts = [f"TP {self.tp}"]
        if self.pp > 1:
            parts.append(f"PP {self.pp}")
        if self.dp > 1:
            parts.append(f"DP {self.dp}")
        if self.ep:
            parts.append(f"EP {self.tp * self.dp}")
        return " x ".join(parts) + f" ({self.num_gpus} GPU{'s' if self.num_gpus != 1 else ''})"


@dataclass(frozen=True)
class RankMemory:
    """One GPU of the deployment (bytes are this GPU's)."""

    rank: int
    dp_rank: int
    stage: int
    tp_rank: int
    first_layer: int
    layers: int
    holds_embedding: bool
    holds_lm_head: bool
    local_experts: int  # routed experts whose weights this rank holds whole (EP), else 0
    embedding_bytes: int
    lm_head_bytes: int
    layer_weight_bytes: int  # attention and dense / shared weights of its layers, split by TP
    expert_bytes: int  # its routed-expert weights
    weights_bytes: int
    usable_bytes: int
    working_bytes: int
    cache_budget_bytes: int  # usable - weights - working (negative: the weights do not load)
    kv_bytes_per_token: int  # of a long conversation, on this rank
    kv_bytes_per_conversation: int  # one conversation of the placement's context, on this rank
    conversations: int  # that fit in this rank's budget (0 when the weights do not load)

    @property
    def weights_fit(self) -> bool:
        return self.cache_budget_bytes >= 0


@dataclass(frozen=True)
class VLLMPool:
    """vLLM's pooled count for one replica: every worker's blocks cut to the smallest.

    stage_blocks   blocks each stage's workers could make from their own memory
    num_blocks     the smallest, what every worker allocates
    blocks_per_request  blocks one request of the context takes (all groups)
    """

    stage_blocks: tuple[int, ...]
    stage_starts: tuple[bool, ...]  # each stage's workers pass the start-up check
    num_blocks: int
    limiting_stage: int
    blocks_per_request: int
    block_size: int
    max_concurrency: float
    # "GPU KV cache size: N tokens" as 0.33 logs it from the shared block count:
    # int(max_concurrency x max_model_len) (0.33.0 v1/core/kv_cache_utils.py, get_kv_cache_capacity)
    gpu_kv_cache_tokens: int

    @property
    def starts(self) -> bool:
        """vLLM starts only when every worker holds one request at the context."""
        return all(self.stage_starts)

    @property
    def conversations(self) -> int:
        return self.num_blocks // self.blocks_per_request if self.starts else 0


@dataclass(frozen=True)
class Placement:
    model_name: str
    gpu: str
    deployment: Deployment
    context: int
    kv_dtype: str
    weight_dtype: str
    ranks: tuple[RankMemory, ...]
    replica_conversations: tuple[int, ...]  # per data-parallel replica: its fullest rank's count
    conversations: int  # the deployment: sum over replicas
    full_ranks: tuple[int, ...]  # the ranks holding fewest conversations: full first
    vllm: tuple[VLLMPool, ...]  # per replica; empty where vLLM's pool is not reproduced (notes say why)
    notes: tuple[str, ...] = ()

    @property
    def weights_fit(self) -> bool:
        return all(r.weights_fit for r in self.ranks)

    @property
    def vllm_conversations(self) -> int | None:
        """What vLLM's pools hold in all; None where they are not reproduced."""
        return sum(p.conversations for p in self.vllm) if self.vllm else None

    @property
    def full_rank(self) -> RankMemory:
        return self.ranks[self.full_ranks[0]]

    @property
    def summed_conversations(self) -> int:
        """What adding every rank's budget and dividing by the pooled per-token bytes would
        claim: the figure a sum across GPUs gives, which can hide one full rank."""
        per_replica = len(self.ranks) // self.deployment.dp
        budget = sum(max(0, r.cache_budget_bytes) for r in self.ranks)
        one = sum(r.kv_bytes_per_conversation for r in self.ranks[:per_replica])
        return budget // one if one else 0

    def as_dict(self) -> dict:
        """Plain numbers and strings (ranks and pools as dicts) for a widget's JSON or the CLI."""
        out = asdict(self)
        out["deployment"]["num_gpus"] = self.deployment.num_gpus
        out["deployment"]["label"] = self.deployment.describe()
        for rank, row in zip(self.ranks, out["ranks"]):
            row["weights_fit"] = rank.weights_fit
        for pool, row in zip(self.vllm, out["vllm"]):
            row["starts"] = pool.starts
            row["conversations"] = pool.conversations
        out.update(
            weights_fit=self.weights_fit,
            vllm_conversations=self.vllm_conversations,
            summed_conversations=self.summed_conversations,
            message=self.message,
        )
        return out

    @property
    def message(self) -> str:
        d = self.deployment
        if not self.weights_fit:
            worst = min(self.ranks, key=lambda r: r.cache_budget_bytes)
            return (
                f"The weights do not load: rank {worst.rank} (stage {worst.stage}) needs "
                f"{worst.weights_bytes / 1e9:,.1f} GB of weights in {worst.usable_bytes / 1e9:,.1f} GB usable."
            )
        r = self.full_rank
        where = f"rank {r.rank} (stage {r.stage}, {r.layers} layers"
        where += ", embedding" if r.holds_embedding else ""
        where += ", LM head" if r.holds_lm_head else ""
        where += ")"
        replicas = f" over {d.dp} data-parallel replicas" if d.dp > 1 else ""
        hidden = self.summed_conversations
        return (
            f"{d.describe()}: {self.conversations:,} conversations of {self.context:,} tokens{replicas}; "
            f"{where} is full first at {r.conversations:,}."
            + (
                f" Adding every GPU's free memory would claim {hidden:,}: the sum hides the full rank."
                if hidden > self.conversations
                else ""
            )
        )


# Where vLLM 0.33.0 builds the embedding and LM head under pipeline parallelism, by the
# model's vLLM implementation (vllm/model_executor/models/):
#   "ends"   embed_tokens on the first stage only ("or (config.tie_word_embeddings and
#            ... is_last_rank)"), lm_head on the last only, PPMissingLayer elsewhere:
#            llama.py (LlamaModel, LlamaForCausalLM), qwen2.py (Qwen2Model, which qwen3.py's
#            Qwen3Model extends; Qwen3ForCausalLM's lm_head on the last rank),
#            deepseek_v2.py (DeepseekV2Model, DeepseekV2ForCausalLM; V3 and V3.2 run on it),
#            vllm/models/deepseek_v32/nvidia/model.py (DeepseekV32Model, also GLM-5's
#            GlmMoeDsaForCausalLM), longcat_flash.py (FlashModel, LongcatFlashForCausalLM)
#   "every"  embed_tokens and lm_head built on every stage, whatever its rank:
#            gemma3.py (Gemma3Model, Gemma3ForCausalLM), gpt_oss.py (GptOssModel,
#            GptOssForCausalLM), qwen3_next.py (Qwen3NextModel, Qwen3NextForCausalLM)
EMBEDDING_STAGES = {
    "llama": "ends",
    "qwen2": "ends",
    "qwen3": "ends",
    "deepseek_v3": "ends",
    "deepseek_v32": "ends",
    "glm_moe_dsa": "ends",
    "longcat_flash": "ends",
    "longcat_flash_ngram": "ends",
    "gemma3": "every",
    "gemma3_text": "every",
    "gpt_oss": "every",
    "qwen3_next": "every",
}


# model_type -> why vLLM 0.33.0 refuses pipeline parallelism for it: the architecture does not
# implement SupportsPP, and config/model.py (ModelConfig.verify_with_parallel_config) raises
# "Pipeline parallelism is not supported for this model"
NO_PIPELINE_PARALLEL = {
    "iquestloopcoder": "vllm/model_executor/models/iquest_loopcoder.py, IQuestLoopCoderForCausalLM does not "
    "implement SupportsPP (each loop runs over the stage's own layers only)",
}


def _embedding_stages(model: Model, given: str | None, pp: int) -> str:
    if given is not None:
        if given not in ("ends", "every"):
            raise InputError(f"embedding_stages must be 'ends' or 'every', got {given!r}")
        return given
    if pp == 1:
        return "ends"
    found = EMBEDDING_STAGES.get(str(model.extra.get("model_type", "")))
    if found is None:
        raise InputError(
            f"embedding_stages: where vLLM puts {model.name}'s embedding and LM head under pipeline "
            f"parallelism (model_type {model.extra.get('model_type')!r}) is not recorded in kvwidgets; pass "
            "embedding_stages='ends' (first and last stage) or 'every' (every stage builds both)"
        )
    return found


def _experts_on_rank(model: Model, ep_size: int, ep_rank: int) -> int:
    """Routed experts one EP rank holds: 0.33.0 model_executor/layers/fused_moe/
    expert_map_manager.py, determine_expert_map: global // ep_size, one more on the first
    global % ep_size ranks."""
    base, remainder = divmod(model.num_experts, ep_size)
    return base + (1 if ep_rank < remainder else 0)


def _embedding_params(model: Model, embedding_params: int | None, tied: bool | None) -> tuple[int, bool]:
    """(parameters of the embedding table = of an untied LM head, whether they are tied)."""
    if tied is None:
        tied = model.extra.get("tie_word_embeddings")
    if not isinstance(tied, bool):
        raise InputError(
            f"tie_word_embeddings: {model.name} does not record whether its LM head shares the embedding "
            "table (Model.extra), which decides the last stage's weights; pass tie_word_embeddings=True or False"
        )
    if embedding_params is not None:
        return check_int("embedding_params", embedding_params), tied
    vocab, hidden = model.extra.get("vocab_size"), model.extra.get("hidden_size")
    if not vocab or not hidden:
        raise InputError(
            f"embedding_params: {model.name} does not record vocab_size and hidden_size "
            "(Model.extra), so the embedding's share of the weights is unknown; pass embedding_params="
        )
    return int(vocab) * int(hidden), tied


# The layer plan's tag (kvwidgets.configs.layer_plan) for each kind of layer spec.
PLAN_TAG = {
    "full": "full",
    "mla": "full",
    "sliding": "sliding",
    "chunked": "chunked",
    "cross": "cross",
    "recurrent": "recurrent",
}


def _spec_counts(layers) -> dict:
    counts: dict = {}
    for layer in layers:
        for spec in layer:
            counts[spec] = counts.get(spec, 0) + 1
    return counts


def _layer_specs(model: Model) -> list:
    """Each decoder layer's spec in order (None: a layer that stores nothing).

    One spec: every layer has it. Several: the config's layer plan (Model.extra
    ["layer_plan"]) says which kind each layer is, and each kind must be one group whose
    count matches the plan; otherwise which stage holds which layer is not known."""
    caches = model.extra.get("layer_caches")
    if caches and _spec_counts(caches) == _spec_counts((g.spec,) * g.count for g in model.groups):
        # the reader listed each decoder layer's specs (two caches in a layer, or layers of one
        # kind that differ): a stage holds the specs of its layers. A model whose groups were
        # changed since (as_mha, with_kv_heads) no longer matches the list and is not placed by it
        return list(caches)
    plan = model.extra.get("layer_plan")
    if len(model.groups) == 1 and (not plan or len(plan) == model.num_layers):
        return [model.groups[0].spec] * model.num_layers
    why = None
    by_tag: dict = {}
    for g in model.groups:
        tag = PLAN_TAG.get(g.spec.kind)
        if tag is None or tag in by_tag:
            why = f"two groups of {tag or g.spec.kind!r} layers"
        by_tag[tag] = g
    if not plan:
        why = "no layer plan (Model.extra['layer_plan'])"
    elif why is None:
        for tag, g in by_tag.items():
            if plan.count(tag) != g.count:
                why = f"the plan has {plan.count(tag)} {tag!r} layers, the model {g.count}"
        if set(plan) - set(by_tag) - {"none"}:
            why = f"plan tags {sorted(set(plan) - set(by_tag) - {'none'})} match no layer group"
    if why:
        raise InputError(
            f"pp: {model.name} has several kinds of layer and kvwidgets cannot tell which stage holds "
            f"which ({why}); pipeline placement needs the order of its layers"
        )
    return [by_tag[t].spec if t != "none" else None for t in plan]


def _stage_model(model: Model, specs: list, first: int, layers: int) -> Model:
    """The model's cache layout for layers [first, first + layers)."""
    counts: dict = {}
    for entry in specs[first : first + layers]:
        # an entry is one spec, None (a layer that stores nothing) or a layer's tuple of specs
        for spec in entry if isinstance(entry, tuple) else (entry,):
            if spec is not None:
                counts[spec] = counts.get(spec, 0) + 1
    if not counts:
        raise InputError(
            f"layer_split: the stage of layers {first}-{first + layers - 1} holds no cache layer"
        )
    groups = tuple(LayerGroup(spec, n) for spec, n in counts.items())
    return replace(model, name=f"{model.name} (layers {first}-{first + layers - 1})", groups=groups)


def _check(model: Model, d: Deployment, num_layers: int) -> tuple[int, ...]:
    if d.ep and not model.num_experts:
        raise InputError(f"ep=True: {model.name} has no routed experts to spread")
    if d.ep and d.tp * d.dp == 1:
        raise InputError("ep=True needs tp x dp > 1: expert parallelism spreads experts over several GPUs")
    if d.layer_split is not None:
        if sum(d.layer_split) != num_layers:
            raise InputError(
                f"layer_split {list(d.layer_split)} adds up to {sum(d.layer_split)}; "
                f"{model.name} has {num_layers} layers"
            )
        return d.layer_split
    return vllm_pp_split(num_layers, d.pp)


def _default_block_size(model: Model) -> int:
    # FlashMLA runs MLA with 64-token blocks on NVIDIA GPUs (0.33.0 FlashMLA backend,
    # get_supported_kernel_block_sizes); other attention keeps --block-size 16.
    return 64 if any(isinstance(g.spec, MLASpec) for g in model.groups) else 16


def placement(
    model: Model,
    gpu: str | GPU,
    context: int = 8192,
    *,
    tp: int = 1,
    pp: int = 1,
    dp: int = 1,
    ep: bool = False,
    layer_split: tuple[int, ...] | None = None,
    deployment: Deployment | None = None,
    kv_dtype: str = "bf16",
    weight_dtype: str | None = None,
    utilization: float = 0.9,
    working_bytes: int = 0,
    memory: str = "marketed",
    embedding_params: int | None = None,
    tie_word_embeddings: bool | None = None,
    embedding_stages: str | None = None,
    block_size: int | None = None,
) -> Placement:
    """Each GPU's weights, cache budget and conversations of `context` tokens.

    Give the arrangement as tp / pp / dp / ep / layer_split or as one Deployment.
    Weights: the embedding table (vocab x hidden, Model.extra) on the first stage and the
    LM head on the last (a tied head is a second copy of the table there when pp > 1:
    0.33.0 model_executor/models/llama.py, LlamaModel builds embed_tokens on the first rank
    "or (config.tie_word_embeddings and ... is_last_rank)"), both split by tp (0.33.0
    model_executor/layers/vocab_parallel_embedding.py, VocabParallelEmbedding and
    ParallelLMHead shard the vocabulary over the TP group); the other non-expert weights
    spread evenly over the layers and split by tp (column / row parallel linears); a
    data-parallel rank holds all of them for its own attention; routed
    experts split over the tp x dp GPUs of their stage (0.33.0 model_executor/layers/
    fused_moe/config.py, FusedMoEParallelConfig.make: flatten_tp_size = dp x tp, the EP
    size when expert parallel is on). block_size is for vLLM's pool (default 64 for MLA,
    16 otherwise). embedding_params / tie_word_embeddings: for a Model that does not
    record its vocabulary (one not loaded from a config). Some vLLM model classes build the
    embedding and LM head on every stage instead (EMBEDDING_STAGES, by model_type);
    embedding_stages="ends" or "every" says which for a model kvwidgets has not read.
    """
    from .vllm import vllm_kv_report  # the engine accounting per stage

    d = deployment if deployment is not None else Deployment(tp, pp, dp, ep, layer_split)
    if not isinstance(d, Deployment):
        raise InputError(f"deployment: expected a Deployment, got {type(d).__name__}")
    g = get_gpu(gpu)
    context = check_int("context", context, minimum=1)
    working = check_int("working_bytes", working_bytes)
    u = utilization_fraction(utilization)
    _refuse_pipeline(model, d)
    # every decoder layer counts for the split, those that store no cache too
    specs = _layer_specs(model) if d.pp > 1 else []
    L = len(specs) if specs else model.num_layers
    split = _check(model, d, L)
    fmt = model.weight_format(weight_dtype)
    w = _weight_shares(model, embedding_params, tie_word_embeddings, embedding_stages, d.pp)
    usable = g.memory(memory) * u.numerator // u.denominator
    starts = [sum(split[:i]) for i in range(d.pp)]
    stage_models = [
        _stage_model(model, specs, starts[i], n) if d.pp > 1 else model for i, n in enumerate(split)
    ]
    # vLLM groups a hybrid model's layers over the whole model and projects the groups onto
    # each stage (0.33.0 v1/core/kv_cache_planning.py, get_global_kv_cache_groups and
    # _project_kv_cache_groups_to_worker); sizing each stage's own groups would differ, so
    # its pool is not given rather than given wrong.
    pool_modelled = d.pp == 1 or len(model.groups) == 1
    ranks: list[RankMemory] = []
    for dp_rank in range(d.dp):
        for stage in range(d.pp):
            cache = _StageCache(stage_models[stage], context, kv_dtype, d.tp, usable, working)
            where = _StagePlace(dp_rank, stage, starts[stage], split[stage], L)
            ranks.extend(_stage_ranks(model, d, where, w, fmt, cache, first_rank=len(ranks)))
    bs = block_size if block_size is not None else _default_block_size(model)
    replica_counts, pools = _replicas(
        ranks,
        d,
        pool_modelled,
        lambda mine: _vllm_pool(vllm_kv_report, stage_models, mine, d, context, kv_dtype, bs),
    )
    # with requests spread evenly over the replicas, the rank holding fewest is full first
    fewest_anywhere = min(r.conversations for r in ranks)
    full = [r.rank for r in ranks if r.conversations == fewest_anywhere]
    return Placement(
        model_name=model.name,
        gpu=g.name,
        deployment=d,
        context=context,
        kv_dtype=kv_dtype,
        weight_dtype=fmt.name,
        ranks=tuple(ranks),
        replica_conversations=tuple(replica_counts),
        conversations=sum(replica_counts),
        full_ranks=tuple(full),
        vllm=tuple(pools),
        notes=_placement_notes(model, d, specs, pool_modelled),
    )


def _refuse_pipeline(model: Model, d: Deployment) -> None:
    """InputError when vLLM refuses pipeline parallelism for this model_type."""
    refused = NO_PIPELINE_PARALLEL.get(str(model.extra.get("model_type", "")))
    if d.pp > 1 and refused:
        raise InputError(f"pp={d.pp}: vLLM 0.33.0 refuses pipeline parallelism for {model.name}: {refused}")


@dataclass(frozen=True)
class _WeightShares:
    """The model's parameters by where they live: embedding table (first stage), LM head
    (last stage; none of its own when tied), routed experts, and the rest spread over layers."""

    emb: int
    tied: bool
    every_stage: bool
    routed: int
    head_params: int
    layer_params: int


def _weight_shares(
    model: Model,
    embedding_params: int | None,
    tie_word_embeddings: bool | None,
    embedding_stages: str | None,
    pp: int,
) -> _WeightShares:
    emb, tied = _embedding_params(model, embedding_params, tie_word_embeddings)
    every_stage = _embedding_stages(model, embedding_stages, pp) == "every"
    routed = model.routed_expert_params if model.num_experts else 0
    head_params = 0 if tied else emb
    layer_params = model.params - emb - head_params - routed
    if layer_params < 0:
        raise InputError(
            f"{model.name}: params {model.params:,} is less than its embedding, LM head and routed experts "
            f"({emb + head_params + routed:,}); check params or embedding_params"
        )
    return _WeightShares(emb, tied, every_stage, routed, head_params, layer_params)


@dataclass(frozen=True)
class _StagePlace:
    """Which replica and stage a group of tensor-parallel ranks sits in, and its layers."""

    dp_rank: int
    stage: int
    first_layer: int
    layers: int
    num_layers: int  # of the whole model, as the split counts them


class _StageCache:
    """One stage's cache sizes at tp, and the memory its ranks have for weights and cache."""

    def __init__(self, stage_model: Model, context: int, kv_dtype: str, tp: int, usable: int, working: int):
        self.kv_token = stage_model.kv_bytes_per_token(kv_dtype, tp=tp)
        self.kv_conv = stage_model.kv_bytes(context, kv_dtype, tp=tp)
        self.usable = usable
        self.working = working


def _stage_ranks(
    model: Model,
    d: Deployment,
    where: _StagePlace,
    w: _WeightShares,
    fmt,
    cache: _StageCache,
    first_rank: int,
) -> list[RankMemory]:
    """The tp ranks of one stage of one replica: each one's weights, budget and conversations."""
    first, last = where.stage == 0, where.stage == d.pp - 1
    has_emb = first or w.every_stage or (w.tied and last and d.pp > 1)
    has_head = last or w.every_stage
    ep_size = d.tp * d.dp
    n, L = where.layers, where.num_layers
    out = []
    for tp_rank in range(d.tp):
        ep_rank = where.dp_rank * d.tp + tp_rank
        local = _experts_on_rank(model, ep_size, ep_rank) if d.ep else 0
        share = Fraction(local, model.num_experts) if d.ep else Fraction(1, ep_size)
        emb_p = Fraction(w.emb, d.tp) if has_emb else 0
        head_p = Fraction(w.head_params, d.tp) if has_head else 0
        layer_p = Fraction(w.layer_params * n, L * d.tp)
        expert_p = Fraction(w.routed * n, L) * share if w.routed else Fraction(0)
        # bytes of each part in the format's bits (experts may differ: mxfp4); the total is
        # rounded once, so it can be a few bytes under the sum of the rounded parts
        weights = math.ceil(((emb_p + head_p + layer_p) * fmt.other_bits + expert_p * fmt.routed_bits) / 8)
        budget = cache.usable - weights - cache.working
        out.append(
            RankMemory(
                rank=first_rank + tp_rank,
                dp_rank=where.dp_rank,
                stage=where.stage,
                tp_rank=tp_rank,
                first_layer=where.first_layer,
                layers=n,
                holds_embedding=has_emb,
                holds_lm_head=has_head,
                local_experts=local,
                embedding_bytes=math.ceil(emb_p * fmt.other_bits / 8),
                lm_head_bytes=math.ceil(head_p * fmt.other_bits / 8),
                layer_weight_bytes=math.ceil(layer_p * fmt.other_bits / 8),
                expert_bytes=math.ceil(expert_p * fmt.routed_bits / 8),
                weights_bytes=weights,
                usable_bytes=cache.usable,
                working_bytes=cache.working,
                cache_budget_bytes=budget,
                kv_bytes_per_token=cache.kv_token,
                kv_bytes_per_conversation=cache.kv_conv,
                conversations=max(0, budget // cache.kv_conv) if cache.kv_conv else 0,
            )
        )
    return out


def _replicas(ranks: list[RankMemory], d: Deployment, pool_modelled: bool, pool) -> tuple[list[int], list]:
    """Conversations each data-parallel replica holds (its fewest rank's, 0 when any rank's
    weights do not fit) and, where modelled, vLLM's pool of each replica."""
    per_replica = d.tp * d.pp
    counts, pools = [], []
    for dp_rank in range(d.dp):
        mine = ranks[dp_rank * per_replica : (dp_rank + 1) * per_replica]
        fewest = min(r.conversations for r in mine)
        counts.append(fewest if all(r.weights_fit for r in mine) else 0)
        if pool_modelled:
            pools.append(pool(mine))
    return counts, pools


def _placement_notes(model: Model, d: Deployment, specs: list, pool_modelled: bool) -> tuple[str, ...]:
    """Where the placement is approximate or not given, and why."""
    notes: list[str] = []
    if not pool_modelled:
        notes.append(
            "vLLM's pooled count is not reproduced for a model with several kinds of layer under "
            "pipeline parallelism (vLLM groups the whole model's layers, then projects them onto each stage)."
        )
    if d.pp > 1 and (len(model.groups) > 1 or None in specs):
        notes.append(
            "Weights are spread evenly over the decoder layers; this model's layers are of several kinds "
            "(attention-free, linear-attention or sliding layers may differ in size), so stage weights are "
            "approximate."
        )
    if model.num_experts and d.pp > 1:
        notes.append(
            "Routed experts and dense weights are spread evenly over the layers, so stage weights are "
            "approximate: a model whose first layers are dense (DeepSeek-V3's first 3) holds fewer experts "
            "on its first stage than shown."
        )
    if any(isinstance(gr.spec, MLASpec) for gr in model.groups) and d.tp > 1:
        notes.append(
            f"MLA keeps one latent per token, whole on every tensor-parallel rank: TP {d.tp} stores each "
            f"conversation's cache {d.tp} times; data-parallel attention stores it once."
        )
    return tuple(notes)


def _vllm_pool(report, stage_models, mine, d: Deployment, context, kv_dtype, block_size) -> VLLMPool:
    """Each stage sized by vLLM's own accounting from that stage's budget, then the
    smallest block count kept (get_kv_cache_configs, 0.33.0 v1/core/kv_cache_planning.py)."""
    blocks, starts, per_request = [], [], 0
    for stage in range(d.pp):
        r = mine[stage * d.tp]
        rep = report(
            stage_models[stage],
            kv_cache_memory_bytes=max(0, r.cache_budget_bytes),
            max_model_len=context,
            kv_dtype=kv_dtype,
            block_size=block_size,
            num_gpus=d.tp,
            vllm_version="0.33",
        )
        blocks.append(rep.num_blocks)
        starts.append(rep.starts)
        per_request = rep.blocks_per_request
    least = min(blocks)
    return VLLMPool(
        stage_blocks=tuple(blocks),
        stage_starts=tuple(starts),
        num_blocks=least,
        limiting_stage=blocks.index(least),
        blocks_per_request=per_request,
        block_size=block_size,
        max_concurrency=least / per_request,
        gpu_kv_cache_tokens=int(least / per_request * context),
    )
