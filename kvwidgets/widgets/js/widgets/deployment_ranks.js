// DeploymentRanks: every GPU of a deployment as a bar (weights, its conversations' cache,
// what is left, the reserve), the GPU that fills first marked, TP / PP / DP attention
// switched by buttons. The numbers are kvwidgets.core.placement's, precomputed by the
// kernel for every offered layout at every offered context (the `layouts` trait): the
// layout buttons and the context slider redraw from that table, nothing is re-derived here.

import { KVInputError } from "../calc/errors.js";
import { fmtBytes, fmtConversations as conversations, fmtTokens } from "../calc/units.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { svgPaint } from "../ui/colours.js";
import { dtypeSelect, gpuSelect, labelled, modelSelect, moreFold, resetButton, utilizationSlider } from "../ui/controls.js";
import { diagramBox, diagramWidth } from "../ui/diagram.js";
import { element, markHolds, svgElement } from "../ui/dom.js";
import { drawSwatchLegend } from "../ui/legend.js";
import { tryModelCall } from "../ui/host.js";
import { widgetModule } from "../loader/widget_module.js";

/**
 * @typedef {import('../shapes').DeploymentAtContext} DeploymentAtContext
 * @typedef {import('../shapes').DeploymentRank} DeploymentRank
 * @typedef {import('../shapes').DeploymentLayout} DeploymentLayout
 * @typedef {DeploymentLayout & Required<Pick<DeploymentLayout, "ranks" | "usable_bytes" | "working_bytes" | "weights_fit" | "notes" | "by_context">>} BuiltLayout
 *   a deployment that could be built (no `error`): its ranks and what they hold
 * @typedef {import("@anywidget/types").AnyModel} AnyModel
 */

/**
 * @typedef {import("../ui/app.js").App} App
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 */

const COUNTABLE = 48;  // up to this many conversations a bar draws each as its own segment
/** @type {["tp", "pp", "dp", "ep"]} the traits a layout is keyed by, in layoutKey's order */
const LAYOUT_TRAITS = ["tp", "pp", "dp", "ep"];

/**
 * The table's key for one arrangement (deployment_ranks.py layout_key).
 * @param {number} tp
 * @param {number} pp
 * @param {number} dp
 * @param {boolean} ep
 */
function layoutKey(tp, pp, dp, ep) {
  return `tp${tp}-pp${pp}-dp${dp}-ep${ep ? 1 : 0}`;
}

/**
 * A layout's button text: what kind of parallelism spreads it over the GPUs.
 * @param {BuiltLayout} entry
 */
function layoutName(entry) {
  const n = entry.tp * entry.pp * entry.dp;
  if (n === 1) return "1 GPU";
  const parts = [];
  if (entry.tp > 1) parts.push(`TP ${entry.tp}`);
  if (entry.pp > 1) parts.push(`PP ${entry.pp}`);
  // data-parallel attention is the name where the experts are spread (EP); a dense model's
  // data-parallel GPUs are plain replicas
  if (entry.dp > 1) parts.push(entry.ep ? `DP ${entry.dp} attention` : `DP ${entry.dp}`);
  if (entry.ep) parts.push(`EP ${entry.tp * entry.dp}`);
  return parts.join(" x ");
}

/**
 * Set several traits as one change (a layout is tp, pp, dp and ep together): one save, one draw.
 * @param {App} app
 * @param {Record<string, any>} values
 */
function setMany(app, values) {
  app.holding = true;
  try {
    for (const [k, v] of Object.entries(values)) app.model.set(k, v);
  } finally {
    app.holding = false;
  }
  tryModelCall(app.model, "save_changes");
  app.localError = "";
  app.redraw();
}

/**
 * The inputs the kernel's table was computed for, against those on screen: what differs.
 * @param {AnyModel} model
 */
function staleFields(model) {
  const made = model.get("layouts_for") || {};
  const n = model.get("tp") * model.get("pp") * model.get("dp");
  const differ = ["model", "gpu", "kv_dtype", "weight_dtype", "utilization"].filter((f) => made[f] !== model.get(f));
  if (made.num_gpus !== n) differ.push("number of GPUs");
  return differ;
}

/**
 * The layout buttons: one radio per arrangement the kernel computed, in its order.
 * @param {App} app
 */
function layoutRadios(app) {
  const group = element("span", { class: "kv-radios", role: "radiogroup", "aria-label": "Layout: how the GPUs share the model" });
  const name = `kv-layout-${Math.random().toString(36).slice(2)}`;  // one group per view
  let shown = "";  // the layouts the radios were built for
  const fill = () => {
    const table = app.model.get("layouts") || {};
    const order = (app.model.get("layouts_for") || {}).order || Object.keys(table);
    const want = layoutKey(.../** @type {[number, number, number, boolean]} */ (LAYOUT_TRAITS.map((t) => app.model.get(t))));
    const keys = order.filter((/** @type {string} */ k) => k in table);
    const titles = keys.map((/** @type {string} */ k) => `${k}:${table[k].error || ""}`).join("|");
    if (titles === shown) {
      // the same layouts: only which is chosen changes, so the focused radio keeps its focus
      for (const input of group.querySelectorAll("input")) input.checked = input.value === want;
      return;
    }
    shown = titles;
    group.replaceChildren(...keys.map((/** @type {string} */ key) => {
      const entry = table[key];
      const input = element("input", { type: "radio", name, value: key, "data-kv": "layout" });
      input.checked = key === want;
      input.addEventListener("change", () => {
        if (input.checked) setMany(app, { tp: entry.tp, pp: entry.pp, dp: entry.dp, ep: entry.ep });
      });
      // a layout the core refuses stays offered: choosing it says why, under the widget
      const title = entry.error ? `not possible: ${entry.error}` : entry.label;
      return element("label", { class: "kv-radio", title }, [input, element("span", { text: layoutName(entry) })]);
    }));
  };
  fill();
  app.syncers.push(fill);
  // a <span>, not labelled()'s <label>: the radios carry their own labels, and labels do not nest
  app.controls.append(element("span", { class: "kv-control" }, [element("span", { text: "Layout", "aria-hidden": "true" }), group]));
  return group;
}

/**
 * GPU count: the same kind of layout over another number of GPUs (the kernel places them).
 * @param {App} app
 */
function gpuCountSelect(app) {
  const sel = element("select", { "data-kv": "num_gpus", "aria-label": "number of GPUs" });
  const fill = () => {
    const n = app.model.get("tp") * app.model.get("pp") * app.model.get("dp");
    const counts = [...new Set([...axisValues(app, "gpu_counts"), n])].sort((a, b) => a - b);
    sel.replaceChildren(...counts.map((c) => element("option", { value: String(c), text: String(c) })));
    sel.value = String(n);
  };
  sel.addEventListener("change", () => {
    const n = Number(sel.value);
    const m = app.model;
    // keep the kind of layout: pipeline stays pipeline, data-parallel stays data-parallel
    if (m.get("pp") > 1 && m.get("tp") === 1 && m.get("dp") === 1) setMany(app, { tp: 1, pp: n, dp: 1, ep: false });
    else if (m.get("dp") > 1 && m.get("tp") === 1 && m.get("pp") === 1) setMany(app, { tp: 1, pp: 1, dp: n, ep: n > 1 && m.get("ep") });
    else setMany(app, { tp: n, pp: 1, dp: 1, ep: false });
  });
  fill();
  app.syncers.push(fill);
  return labelled(app, "GPUs", sel);
}

/**
 * Context: one stop per context the kernel computed (a doubling each from 1K to 1M).
 * @param {App} app
 */
function contextStops(app) {
  const slider = element("input", { type: "range", min: "0", step: "1", "data-kv": "context", "aria-label": "context, one doubling per step" });
  const shown = element("span", { class: "kv-value", "data-kv-out": "context" });
  const stops = () => (app.model.get("layouts_for") || {}).contexts || axisValues(app, "contexts");
  const sync = () => {
    const c = app.model.get("context");
    const s = stops();
    let i = s.indexOf(c);
    if (i < 0) i = s.findIndex((/** @type {number} */ x) => x > c);
    slider.max = String(s.length - 1);
    slider.value = String(i < 0 ? s.length - 1 : i);
    slider.setAttribute("aria-valuetext", `${Number(c).toLocaleString("en-US")} tokens`);
    shown.textContent = fmtTokens(c);
  };
  slider.addEventListener("input", () => app.set("context", stops()[Number(slider.value)], { continuous: true }));
  app.syncers.push(sync);
  sync();
  return labelled(app, "Context (tokens)", element("span", { class: "kv-context" }, [slider, shown]));
}

/**
 * The rank that fills first, said with why: what it holds that the others do not.
 * @param {BuiltLayout} entry
 * @param {DeploymentAtContext} row
 */
function whyFirst(entry, row) {
  const full = new Set(row.full_ranks);
  const first = entry.ranks[row.full_ranks[0]];
  const others = entry.ranks.filter((/** @type {DeploymentRank} */ r) => !full.has(r.rank));
  const where = entry.pp > 1 ? `GPU ${first.rank} (stage ${first.stage})` : `GPU ${first.rank}`;
  if (!others.length) {
    if (entry.ranks.length === 1) return "";
    const same = entry.ranks.every((/** @type {DeploymentRank} */ r) => r.weights_bytes === first.weights_bytes
      && row.kv_bytes_per_conversation[r.rank] === row.kv_bytes_per_conversation[first.rank]);
    return same ? `every GPU holds the same share, so all ${entry.ranks.length} fill at once`
      : `all ${entry.ranks.length} GPUs reach their limit at the same count`;
  }
  const reasons = [];
  if (first.holds_embedding && others.some((/** @type {DeploymentRank} */ o) => !o.holds_embedding)) reasons.push("it also holds the embedding");
  if (first.holds_lm_head && others.some((/** @type {DeploymentRank} */ o) => !o.holds_lm_head)) reasons.push("it also holds the LM head");
  const fewestLayers = Math.min(...others.map((/** @type {DeploymentRank} */ o) => o.layers));
  if (first.layers > fewestLayers) reasons.push(`it holds ${first.layers} layers where another holds ${fewestLayers}`);
  const fewestExperts = Math.min(...others.map((/** @type {DeploymentRank} */ o) => o.local_experts));
  if (first.local_experts > fewestExperts) reasons.push(`it holds ${first.local_experts} experts where another holds ${fewestExperts}`);
  const because = reasons.length ? ` because ${reasons.join(" and ")}` : " because it has the least room per conversation";
  const more = full.size > 1 ? ` (with ${full.size - 1} other${full.size > 2 ? "s" : ""})` : "";
  return `${where}${more} fills first${because}`;
}

/**
 * The sentence under the figure: what the deployment holds and which GPU limits it.
 * @param {BuiltLayout} entry
 * @param {DeploymentAtContext} row
 * @param {number} context
 */
function headline(entry, row, context) {
  if (!entry.weights_fit) return "";  // the failure panel says why, once
  const ctx = `${Number(context).toLocaleString("en-US")} tokens`;
  const counts = row.replica_conversations;
  const hold = entry.dp > 1
    ? (counts.every((/** @type {number} */ c) => c === counts[0])
      ? `Each of ${entry.dp} replicas holds ${conversations(counts[0])} of ${ctx}, ${counts[0] * entry.dp} in all`
      : `The ${entry.dp} replicas hold ${counts.join(", ")} conversations of ${ctx}, ${row.conversations} in all`)
    : `The deployment holds ${conversations(row.conversations)} of ${ctx}`;
  const why = whyFirst(entry, row);
  return why ? `${hold}; ${why}.` : `${hold}.`;
}

/**
 * The legend's concepts and names: the cache only where a conversation is held, what is
 * left only where the weights load, the overflow only where weights overflow, the reserve
 * only where some of it shows (weights past the GPU's end cover it).
 * @param {BuiltLayout} entry
 * @param {DeploymentAtContext} row
 * @param {number} memory
 * @param {boolean} allFull
 * @returns {Array<[string, string]>}
 */
function legendLabels(entry, row, memory, allFull) {
  const usable = entry.usable_bytes;
  const over = entry.ranks.some((/** @type {DeploymentRank} */ r) => r.weights_bytes > usable);
  const maxHeld = Math.max(0, ...row.replica_conversations);
  return [
    ["weights", "weights"],
    ...(maxHeld > 0 ? [/** @type {[string, string]} */ (["kv", "cache: one segment per conversation"])] : []),
    ...(entry.weights_fit ? [/** @type {[string, string]} */ (["free", allFull ? "left (less than one more conversation)" : "left (unused while another GPU is full)"])] : []),
    ...(over ? [/** @type {[string, string]} */ (["warning", `weights past the usable ${fmtBytes(usable)}`])] : []),
    ...(memory > usable && entry.ranks.some((/** @type {DeploymentRank} */ r) => r.weights_bytes < memory) ? [/** @type {[string, string]} */ (["reserve", "reserve (1 - utilization)"])] : []),
  ];
}

/**
 * One bar per GPU: weights, the cache of the conversations its replica holds (one segment
 * each when they can be counted), what is left, the reserve. Weights that do not load run
 * past the usable end in the warning colour, past the GPU's end if need be, marked.
 * @param {App} app
 * @param {BuiltLayout} entry
 * @param {DeploymentAtContext} row
 * @param {number} memory
 * @param {string} gpuName
 * @param {number} W
 */
function rankBars(app, entry, row, memory, gpuName, W) {
  const t = app.theme();
  const s = app.scale();
  const fs = 12 * s;
  const labelW = 118 * s;
  const countW = 150 * s;
  const barW = Math.max(120 * s, W - labelW - countW);
  const usable = entry.usable_bytes;
  const span = Math.max(memory, ...entry.ranks.map((/** @type {DeploymentRank} */ r) => r.weights_bytes + entry.working_bytes));
  const x = (/** @type {number} */ b) => labelW + (Number(b) / span) * barW;
  const rowH = 34 * s;
  const barH = 22 * s;
  const top = fs * 2;
  const full = new Set(row.full_ranks);
  const allFull = full.size === entry.ranks.length;
  const paint = svgPaint(app, s);  // free memory hatched: apart from the cache without colour
  /** @type {Element[]} */
  const parts = [];
  parts.push(svgElement("text", { x: 0, y: fs * 1.1, "font-size": fs, fill: t.fg, "font-weight": 600,
    text: `${layoutName(entry)}: ${entry.ranks.length} x ${gpuName}, ${fmtBytes(memory)} each` }));
  entry.ranks.forEach((/** @type {DeploymentRank} */ r, /** @type {number} */ i) => {
    const y = top + i * rowH;
    const isFull = full.has(r.rank) && entry.weights_fit;
    const g = [];
    const held = entry.weights_fit ? row.replica_conversations[r.dp_rank] : 0;
    const perConv = row.kv_bytes_per_conversation[r.rank];
    // the reserve under everything: weights that overflow are drawn over it
    if (memory > usable) g.push(svgElement("rect", { class: "kv-rk-reserve", x: x(usable), y, width: x(memory) - x(usable), height: barH, fill: paint.fill("reserve") }));
    const inside = Math.min(r.weights_bytes, usable);
    g.push(svgElement("rect", { class: "kv-rk-weights", x: x(0), y, width: x(inside) - x(0), height: barH, fill: paint.fill("weights") }));
    if (r.weights_bytes > usable) {
      g.push(svgElement("rect", { class: "kv-rk-weights kv-rk-over", x: x(usable), y, width: x(r.weights_bytes) - x(usable), height: barH, fill: paint.fill("warning") }));
    }
    let at = r.weights_bytes + entry.working_bytes;
    if (held > 0) {
      const group = held <= COUNTABLE ? 1 : Math.ceil(held / 24);
      for (let k = 0; k < held; k += group) {
        const n = Math.min(group, held - k);
        g.push(svgElement("rect", { class: "kv-rk-conv", x: x(at), y, width: x(at + perConv * n) - x(at), height: barH,
          fill: paint.fill("kv"), stroke: t.bg, "stroke-width": 1, "data-conversations": n }));
        at += perConv * n;
      }
    }
    if (r.weights_bytes <= usable && usable > at) {
      g.push(svgElement("rect", { class: "kv-rk-free", x: x(at), y, width: x(usable) - x(at), height: barH, fill: paint.fill("free") }));
    }
    if (isFull) {
      // the full rank: an outline in the text colour and the words, not a colour alone
      g.push(svgElement("rect", { class: "kv-rk-mark", x: x(0) - 2 * s, y: y - 2 * s, width: x(memory) - x(0) + 4 * s, height: barH + 4 * s,
        fill: "none", stroke: t.fg, "stroke-width": 2 * s }));
    }
    const stageText = entry.pp > 1 ? `stage ${r.stage}, layers ${r.first_layer}-${r.first_layer + r.layers - 1}`
      : entry.dp > 1 ? `replica ${r.dp_rank}` : `TP rank ${r.tp_rank}`;
    g.push(svgElement("text", { x: 0, y: y + barH * 0.45, "font-size": fs, fill: t.fg, "font-weight": isFull ? 700 : 400, text: `${isFull ? "\u25B6 " : ""}GPU ${r.rank}` }),
      svgElement("text", { x: 0, y: y + barH * 0.45 + fs, "font-size": fs * 0.8, fill: t.fg2, text: stageText }));
    const alone = row.rank_conversations[r.rank];
    const countText = !entry.weights_fit ? (r.weights_bytes > usable ? "weights do not fit" : "")
      : isFull ? (allFull ? `full at ${alone}` : `fills first: ${alone}`) : alone > held ? `holds ${held}; room for ${alone}` : `holds ${held}`;
    g.push(svgElement("text", { class: "kv-rk-count", x: x(Math.max(memory, r.weights_bytes)) + 8 * s, y: y + barH * 0.7, "font-size": fs, fill: t.fg,
      "font-weight": isFull ? 700 : 400, text: countText }));
    parts.push(svgElement("g", { class: isFull ? "kv-rk-rank kv-rk-full" : "kv-rk-rank", "data-rank": r.rank, "data-stage": r.stage,
      "data-conversations": alone, "data-held": held, "data-weights": r.weights_bytes }, g));
  });
  let ly = top + entry.ranks.length * rowH + 4 * s;
  if (span > memory) {
    // the GPU's end, marked across every bar, named under them
    const gx = x(memory);
    parts.push(svgElement("line", { class: "kv-rk-end", x1: gx, x2: gx, y1: top - 4 * s, y2: ly - 6 * s, stroke: t.fg, "stroke-width": 2 * s }));
    parts.push(svgElement("text", { x: gx - 4 * s, y: ly + fs * 0.6, "font-size": fs * 0.9, fill: t.fg, "text-anchor": "end", text: `the GPU ends: ${fmtBytes(memory)}` }));
    ly += fs * 1.4;
  }
  const legend = drawSwatchLegend(app, legendLabels(entry, row, memory, allFull), paint, parts, ly, W, 0.52);
  ly = legend.ly;
  const legendRows = legend.rows;
  // a narrow page wraps the legend onto a second row for some inputs only: the row is kept
  // for all, so the widget holds its height while the context slider moves
  const keptRows = app.keepsHeight() && W < 760 * s ? 2 : 1;
  const H = ly + 20 * s + Math.max(0, keptRows - legendRows) * 18 * s;
  const summary = entry.weights_fit ? `${conversations(row.conversations)}; GPU ${row.full_ranks[0]} fills first` : "the weights do not fit";
  return svgElement("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": t.font,
    "aria-label": `memory of each of ${entry.ranks.length} ${gpuName} GPUs under ${layoutName(entry)}: ${summary}` }, [paint.defs(), ...parts]);
}

/**
 * The derivation, for the fold: each distinct rank's sum, then vLLM's pool.
 * @param {BuiltLayout} entry
 * @param {DeploymentAtContext} row
 * @param {number} context
 */
function derivation(entry, row, context) {
  const lines = [];
  const seen = new Set();
  lines.push(`Usable memory per GPU: ${fmtBytes(entry.usable_bytes)} (the GPU's memory x utilization).`);
  for (const r of entry.ranks) {
    const key = [r.stage, r.weights_bytes, row.kv_bytes_per_conversation[r.rank]].join("/");
    if (seen.has(key)) continue;
    seen.add(key);
    const w = [
      r.embedding_bytes ? `embedding ${fmtBytes(r.embedding_bytes)}` : "",
      r.lm_head_bytes ? `LM head ${fmtBytes(r.lm_head_bytes)}` : "",
      `${r.layers} layers ${fmtBytes(r.layer_weight_bytes)}`,
      r.expert_bytes ? `${r.local_experts ? `${r.local_experts} experts` : "its share of the experts"} ${fmtBytes(r.expert_bytes)}` : "",
    ].filter(Boolean).join(" + ");
    const per = row.kv_bytes_per_conversation[r.rank];
    const budget = r.cache_budget_bytes;
    lines.push(`GPU ${r.rank}: weights ${w} = ${fmtBytes(r.weights_bytes)}; left ${fmtBytes(budget)}; `
      + `one conversation of ${fmtTokens(context)} tokens here ${fmtBytes(per)} (${Number(r.kv_bytes_per_token).toLocaleString("en-US")} B a token); `
      + (budget >= 0 ? `floor(${fmtBytes(budget)} / ${fmtBytes(per)}) = ${row.rank_conversations[r.rank]}.` : "the weights do not fit."));
  }
  lines.push("A request passes every GPU of its replica, so a replica holds the fewest of its GPUs' counts; data-parallel replicas each keep their own pool, so their counts add.");
  if (row.vllm.length) {
    const p = row.vllm[0];
    lines.push(`vLLM 0.33 sizes each stage's blocks of ${p.block_size} tokens from its own memory (${p.stage_blocks.map((/** @type {number} */ b) => b.toLocaleString("en-US")).join(", ")}) and cuts every worker to the smallest, `
      + `${p.num_blocks.toLocaleString("en-US")}; one request of ${fmtTokens(context)} takes ${p.blocks_per_request.toLocaleString("en-US")} blocks, so ${p.conversations} per replica`
      + (row.vllm.length > 1 ? `, ${row.vllm_conversations} over ${row.vllm.length} replicas.` : "."));
  }
  lines.push(...entry.notes);
  return lines.map((text) => ({ text, cls: "kv-note" }));
}

/**
 * @param {RenderContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "Where does each GPU's memory go, and which GPU fills first?");
  modelSelect(app);
  gpuSelect(app);
  gpuCountSelect(app);
  layoutRadios(app);
  contextStops(app);
  dtypeSelect(app, "weight_dtype", "Weights");
  dtypeSelect(app, "kv_dtype", "KV cache");
  moreFold(app, () => utilizationSlider(app));
  resetButton(app);
  diagramBox(app);
  const box = /** @type {HTMLElement} */ (app.diagram);
  box.classList.add("kv-figure-keeps");  // the overflowing weights are the picture of a failure
  const sentence = element("div", { class: "kv-headline", "data-kv-out": "headline" });
  app.readouts.before(sentence);
  const outTotal = app.readout("conversations", "The deployment serves:");
  const outFull = app.readout("full_rank", "Fills first:");
  const outVllm = app.readout("vllm", "vLLM's pooled count:");
  const outSummed = app.readout("summed", "Adding up every GPU's free memory would claim:");

  app.draw = () => {
    const L = app.lookup();
    markHolds([outTotal, outFull, outVllm, outSummed], false);
    L.shape();  // an unknown model is named, as in every widget
    const gpu = L.gpu();
    const table = model.get("layouts") || {};
    const key = layoutKey(.../** @type {[number, number, number, boolean]} */ (LAYOUT_TRAITS.map((t) => model.get(t))));
    const context = model.get("context");
    const stale = staleFields(model);
    const entry = table[key];
    const row = entry && entry.by_context ? entry.by_context[String(context)] : undefined;
    // the kernel refused these inputs: its message, not a wait for a table that will not come
    if (stale.length && model.get("error")) throw new KVInputError(model.get("error"));
    if (stale.length || !entry || (!entry.error && !row)) {
      // nothing true to draw until the kernel has placed these inputs
      box.replaceChildren();
      app.drawnWidth = diagramWidth(app);
      const what = stale.length ? `the ${stale.join(", ")} chosen here` : `this layout at ${fmtTokens(context)} tokens`;
      app.failure(`The kernel places every GPU for ${what}; waiting for it. With no kernel running (an exported page), only the layout buttons and the context slider redraw.`);
      return;
    }
    if (entry.error) throw new KVInputError(entry.error);
    const W = diagramWidth(app);
    const svg = rankBars(app, entry, row, gpu.memory_bytes, gpu.name, W);
    const first = entry.ranks[row.full_ranks[0]];
    // Everything is computed: now touch the page.
    box.replaceChildren(svg);
    app.drawnWidth = W;
    sentence.textContent = headline(entry, row, context);
    app.say(derivation(entry, row, context));
    outTotal.textContent = entry.weights_fit ? conversations(row.conversations) : "none (the weights do not fit)";
    const fullAt = conversations(row.rank_conversations[first.rank]);
    outFull.textContent = !entry.weights_fit ? "none"
      : row.full_ranks.length === entry.ranks.length && entry.ranks.length > 1 ? `all ${entry.ranks.length} GPUs at once, at ${fullAt} each`
        : `GPU ${first.rank}${entry.pp > 1 ? `, stage ${first.stage}` : ""}, at ${fullAt}`;
    outVllm.textContent = row.vllm_conversations === null ? "not reproduced for this model under PP (see How this is computed)"
      : !entry.weights_fit ? "none (vLLM does not start)"
        : `${conversations(row.vllm_conversations)}${row.vllm_conversations === row.conversations ? ", the same" : ""}`;
    // more than fit: the sum counts memory no single conversation can use
    outSummed.textContent = `${conversations(row.summed_conversations)}${row.summed_conversations > row.conversations ? ", more than the deployment holds" : ""}`;
    if (!entry.weights_fit) {
      // every readout still holds: "none" is this deployment's answer, not a number drawn
      // for other inputs, so none is struck or hidden from a screen reader
      markHolds([outTotal, outFull, outVllm, outSummed], true);
      app.failure(row.message);
    }
  };
  // the kernel's table arriving (after a model, GPU or GPU-count change) redraws too
  for (const t of ["layouts", "layouts_for"]) app.on(`change:${t}`, () => app.redraw());
  return startApp(app);
}

export default widgetModule(render);
