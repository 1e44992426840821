// Every shape Python sends the browser, declared once so that tsc checks the JavaScript
// that reads it. tests/js/test_shapes.py compares each interface's keys with what Python
// produces (Model.shape() for every preset, each widget's synced traits and compact data):
// a key renamed on either side fails that test, and a misspelt key in the JavaScript fails
// `bash scripts/js.sh check` (the strict project, jsconfig.strict.json).
//
// Format, kept simple for the test: one `export interface` per shape; `?` marks a key that
// Python leaves out when it holds the default; a kind's group names its kind as a literal.

// ---- Model.shape() (kvwidgets/core/model.py) plus browser_data.model_shape() ----------------

// Every group declares every group key, a key its kind never sends as `?: undefined`: the
// JavaScript tells kinds apart by which keys are there (calc/layers.js numbersPerToken), so
// each key must be readable on the union.

/** Full attention: every token's K and V, per KV head. */
export interface FullGroup {
  kind: "full";
  /** layers in the group */
  count: number;
  kv_heads: number;
  head_k: number;
  head_v: number;
  cap?: undefined;
  fixed_bytes?: undefined;
  fixed_tokens?: undefined;
  latent?: undefined;
  index_bytes?: undefined;
  window?: undefined;
  ratio?: undefined;
  entry_bytes?: undefined;
  state_window?: undefined;
  state_token_bytes?: undefined;
}

/** Sliding-window attention: the last `cap` tokens. */
export interface SlidingGroup {
  kind: "sliding";
  count: number;
  kv_heads: number;
  head_k: number;
  head_v: number;
  /** the window: tokens the layer keeps at most */
  cap: number;
  fixed_bytes?: undefined;
  fixed_tokens?: undefined;
  latent?: undefined;
  index_bytes?: undefined;
  window?: undefined;
  ratio?: undefined;
  entry_bytes?: undefined;
  state_window?: undefined;
  state_token_bytes?: undefined;
}

/** Chunked local attention: the tokens of the current chunk, at most `cap`. */
export interface ChunkedGroup {
  kind: "chunked";
  count: number;
  kv_heads: number;
  head_k: number;
  head_v: number;
  cap: number;
  fixed_bytes?: undefined;
  fixed_tokens?: undefined;
  latent?: undefined;
  index_bytes?: undefined;
  window?: undefined;
  ratio?: undefined;
  entry_bytes?: undefined;
  state_window?: undefined;
  state_token_bytes?: undefined;
}

/** Cross-attention to an encoder's tokens: a fixed count, whatever the context (cap 0). */
export interface CrossGroup {
  kind: "cross";
  count: number;
  kv_heads: number;
  head_k: number;
  head_v: number;
  cap: number;
  /** the encoder's tokens, held whatever the context */
  fixed_tokens: number;
  fixed_bytes?: undefined;
  latent?: undefined;
  index_bytes?: undefined;
  window?: undefined;
  ratio?: undefined;
  entry_bytes?: undefined;
  state_window?: undefined;
  state_token_bytes?: undefined;
}

/** Multi-head latent attention: one latent vector per token, shared by the heads. */
export interface MLAGroup {
  kind: "mla";
  count: number;
  /** kv_lora_rank + qk_rope_head_dim elements per token */
  latent: number;
  /** the sparse indexer's bytes per token (fixed FP8 format); left out when none */
  index_bytes?: number;
  cap?: undefined;
  fixed_bytes?: undefined;
  fixed_tokens?: undefined;
  kv_heads?: undefined;
  head_k?: undefined;
  head_v?: undefined;
  window?: undefined;
  ratio?: undefined;
  entry_bytes?: undefined;
  state_window?: undefined;
  state_token_bytes?: undefined;
}

/** Recurrent state (Mamba, linear attention, short convolutions): fixed bytes, cap 0. */
export interface RecurrentGroup {
  kind: "recurrent";
  count: number;
  cap: number;
  /** state per sequence, bytes; left out when 0 */
  fixed_bytes?: number;
  fixed_tokens?: undefined;
  kv_heads?: undefined;
  head_k?: undefined;
  head_v?: undefined;
  latent?: undefined;
  index_bytes?: undefined;
  window?: undefined;
  ratio?: undefined;
  entry_bytes?: undefined;
  state_window?: undefined;
  state_token_bytes?: undefined;
}

/** DeepSeek-V4's compressed attention: every part in its own packed format, in bytes
 *  (core.layers.CompressedMLASpec), whatever the KV dtype. */
export interface CompressedGroup {
  kind: "compressed";
  count: number;
  /** the sliding latents: the last `window` tokens, entry_bytes each */
  window: number;
  /** one compressed entry per `ratio` tokens (1: the window only) */
  ratio: number;
  entry_bytes: number;
  /** the indexer key per compressed entry; left out when none */
  index_bytes?: number;
  /** the compressor's state: the last state_window tokens, state_token_bytes each */
  state_window?: number;
  state_token_bytes?: number;
  cap?: undefined;
  fixed_bytes?: undefined;
  fixed_tokens?: undefined;
  kv_heads?: undefined;
  head_k?: undefined;
  head_v?: undefined;
  latent?: undefined;
}

/** One entry of ModelShape.groups, told apart by `kind`. */
export type LayerGroup = FullGroup | SlidingGroup | ChunkedGroup | CrossGroup | MLAGroup | RecurrentGroup | CompressedGroup;

export type LayerKind = LayerGroup["kind"];

export interface MoeShape {
  experts: number;
  per_token: number;
  routed_params: number;
}

export interface ModelShape {
  name: string;
  params: number;
  query_heads: number | null;
  max_context: number | null;
  groups: LayerGroup[];
  moe: MoeShape | null;
  /** the groups of the same model stored as if every query head had its own K and V */
  mha_groups: LayerGroup[] | null;
  params_estimated: boolean;
  /** serving engines that no longer run this architecture; left out when none */
  engine_notes?: string[];
}

// ---- the rest of browser_data (GPU rows, weight formats) -----------------------------------

export interface GpuRow {
  name: string;
  memory_bytes: number;
  /** what the device reports, when known */
  device_bytes: number | null;
  bandwidth_gbps: number;
  bf16_tflops: number;
  fp8: boolean;
  memory_type: string;
}

/** A mixed weight format: bits of the routed experts and of the rest, as [numerator, denominator]. */
export interface WeightFormat {
  routed: [number, number];
  other: [number, number];
}

// ---- the traitlets every widget syncs (kvwidgets/widgets/base.py KVWidget) -------------------

export interface KVWidgetState {
  kind: string;
  shapes: Record<string, ModelShape>;
  gpus: Record<string, GpuRow>;
  dtypes: Record<string, number>;
  weight_formats: Record<string, WeightFormat>;
  presets: string[];
  series_models: string[];
  more_models: string[];
  initial: Record<string, unknown>;
  scale: number;
  compact: boolean;
  error: string;
  /** why the config picked in the model menu was not loaded; empty when it loaded */
  model_refusal: string;
  /** the core's numbers, for a reader in the kernel; the browser computes its own */
  result: Record<string, unknown>;
  axes: Record<string, unknown[]>;
}

// ---- each widget's inputs and compact data (kvwidgets/widgets/<widget>.py) -------------------

export interface UsersThatFitState extends KVWidgetState {
  model: string;
  gpu: string;
  num_gpus: number;
  context: number;
  weight_dtype: string;
  kv_dtype: string;
  utilization: number;
  memory: string;
  working_bytes: number;
  params: number;
}

export interface ContextVsUsersState extends KVWidgetState {
  model: string;
  gpu: string;
  num_gpus: number;
  context: number;
  weight_dtype: string;
  kv_dtype: string;
  utilization: number;
  params: number;
  y_scale: string;
}

export interface PerTokenBytesState extends KVWidgetState {
  model: string;
  kv_dtype: string;
  context: number;
}

export interface AttentionDesignsState extends KVWidgetState {
  kv_dtype: string;
  context: number;
  window: number;
  short_context: number;
  x_scale: string;
  /** the presets drawn beside the textbook designs */
  real: string[];
}

/** A link the cache can cross (core/transfer.py LINKS). */
export interface LinkRow {
  label: string;
  gbps: number;
  source: string;
}

/** One measured prefill: seconds for `tokens` tokens. */
export interface PrefillRow {
  tokens: number;
  seconds: number;
  achieved_tflops: number;
}

export interface MeasuredPrefill {
  /** left out when the measurement names only the models it stands for */
  model?: string;
  models: string[];
  gpu: string;
  provenance: string;
  rows: PrefillRow[];
}

export interface CacheTransferState extends KVWidgetState {
  model: string;
  gpu: string;
  context: number;
  kv_dtype: string;
  weight_dtype: string;
  link: string;
  tp: number;
  params: number;
  links: Record<string, LinkRow>;
  measured: MeasuredPrefill;
}

export interface DecodeRow {
  batch: number;
  context: number;
  tokens_per_s_per_user: number;
  tokens_per_s_total: number;
}

export interface MeasuredDecode {
  model: string;
  models: string[];
  gpu: string;
  provenance: string;
  rows: DecodeRow[];
}

export interface DecodeSpeedState extends KVWidgetState {
  model: string;
  gpu: string;
  num_gpus: number;
  context: number;
  batch: number;
  weight_dtype: string;
  kv_dtype: string;
  params: number;
  measured: MeasuredDecode;
}

export interface DecodeStepState extends KVWidgetState {
  model: string;
  kv_dtype: string;
  prompt_tokens: number;
  generated: number;
  speed: number;
  attention_layer: string;
}

/** Where a storage tier's copy speed lies (core/offload.py). */
export interface StorageTier {
  name: string;
  label: string;
  low_gbps: number;
  typical_gbps: number;
  high_gbps: number;
  source: string;
}

export interface OffloadOrRecomputeState extends KVWidgetState {
  model: string;
  gpu: string;
  kv_dtype: string;
  context: number;
  speed: string;
  bands: boolean;
  params: number;
  measured: MeasuredPrefill;
  storage: Record<string, StorageTier>;
}

export interface PagedBlocksState extends KVWidgetState {
  model: string;
  gpu: string;
  weight_dtype: string;
  kv_dtype: string;
  context: number;
  used_tokens: number;
  users: number;
  prefix_tokens: number;
  block_size: number;
}

/** The request lengths' fitted distribution a dataset stands for. */
export interface LengthFit {
  label: string;
  input_mean: number;
  output_mean: number;
  input_sigma: number;
  output_sigma: number;
  max_input: number;
}

/** The vLLM paper's figures the trace is compared with. */
export interface TraceReference {
  paper_kv_slots: number;
  paper_max_len: number;
  paper_kv_use: Record<string, Record<string, number>>;
  paper_batch: Record<string, Record<string, number>>;
  labels: Record<string, string>;
  fits: Record<string, LengthFit>;
  source: string;
  spread_assumption: string;
}

export interface MemoryOverTraceState extends KVWidgetState {
  dataset: string;
  num_requests: number;
  kv_slots: number;
  model: string;
  gpu: string;
  num_gpus: number;
  weight_dtype: string;
  kv_dtype: string;
  block_size: number;
  view: string;
  seed: number;
  /** dataset -> request lengths */
  lengths: Record<string, number[]>;
  reference: TraceReference;
}

/** One GPU of a deployment: the layers and weights it holds. */
export interface DeploymentRank {
  rank: number;
  dp_rank: number;
  stage: number;
  tp_rank: number;
  first_layer: number;
  layers: number;
  holds_embedding: boolean;
  holds_lm_head: boolean;
  local_experts: number;
  embedding_bytes: number;
  lm_head_bytes: number;
  layer_weight_bytes: number;
  expert_bytes: number;
  weights_bytes: number;
  kv_bytes_per_token: number;
  cache_budget_bytes: number;
}

/** vLLM's own count for one data-parallel replica. */
export interface VllmReplicaCount {
  num_blocks: number;
  stage_blocks: number[];
  limiting_stage: number;
  blocks_per_request: number;
  block_size: number;
  starts: boolean;
  conversations: number;
}

/** What one deployment holds at one context length. */
export interface DeploymentAtContext {
  conversations: number;
  replica_conversations: number[];
  full_ranks: number[];
  summed_conversations: number;
  vllm_conversations: number;
  vllm: VllmReplicaCount[];
  rank_conversations: number[];
  kv_bytes_per_conversation: number[];
  message: string;
}

/** One deployment of DeploymentRanks: an error, or its ranks and what they hold per context. */
export interface DeploymentLayout {
  tp: number;
  pp: number;
  dp: number;
  ep: boolean;
  label: string;
  /** set when the deployment cannot be built; the keys below are then left out */
  error?: string;
  ranks?: DeploymentRank[];
  usable_bytes?: number;
  working_bytes?: number;
  weights_fit?: boolean;
  notes?: string[];
  /** String(context) -> what the deployment holds there */
  by_context?: Record<string, DeploymentAtContext>;
}

/** The inputs `layouts` was computed for. */
export interface LayoutsFor {
  model: string;
  gpu: string;
  kv_dtype: string;
  weight_dtype: string;
  utilization: number;
  num_gpus: number;
  contexts: number[];
  order: string[];
}

export interface DeploymentRanksState extends KVWidgetState {
  model: string;
  gpu: string;
  tp: number;
  pp: number;
  dp: number;
  ep: boolean;
  context: number;
  kv_dtype: string;
  weight_dtype: string;
  utilization: number;
  layouts: Record<string, DeploymentLayout>;
  layouts_for: LayoutsFor;
}
