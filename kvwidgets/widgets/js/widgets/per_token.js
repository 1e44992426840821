// PerTokenBytes: the per-token formula with live numbers, split by layer kind, the
// "query heads by mistake" figure, and the cache of one conversation at a few lengths.

import { checkInt } from "../calc/errors.js";
import { groupBytesPerToken } from "../calc/layers.js";
import { bytesByKind, kvBytes, kvBytesPerToken, limitLines, perTokenReadouts } from "../calc/model.js";
import { fmtBytes, fmtTokens } from "../calc/units.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { conceptColor } from "../ui/colours.js";
import { contextControl, dtypeSelect, modelSelect, resetButton } from "../ui/controls.js";
import { element } from "../ui/dom.js";
import { drawPlot } from "../ui/plot.js";
import { widgetModule } from "../loader/widget_module.js";

/**
 * @typedef {import("../ui/app.js").App} App
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 */

const KIND_NAMES = { full: "full attention", sliding: "sliding window", chunked: "chunked local", cross: "cross-attention", mla: "MLA latent", recurrent: "recurrent state" };

function formulaLine(g, bits) {
  const bytes = bits / 8;
  const per = groupBytesPerToken(g, bits);
  const n = (x) => Number(x).toLocaleString("en-US");
  if (g.latent !== undefined) {
    const index = g.index_bytes ? ` + ${g.count} x ${g.index_bytes} B indexer (FP8 keys + scale)` : "";
    return `${KIND_NAMES.mla}: ${g.count} layers x ${g.latent} (latent + rope) x ${bytes} B${index} = ${n(per)} B`;
  }
  if (g.kv_heads !== undefined) {
    const dims = g.head_k === g.head_v ? `2 x ${g.count} layers x ${g.kv_heads} KV heads x ${g.head_k} head dim`
      : `${g.count} layers x ${g.kv_heads} KV heads x (${g.head_k} + ${g.head_v})`;
    if (g.fixed_tokens !== undefined) {
      return `${KIND_NAMES.cross}: ${dims} x ${bytes} B = ${n(per)} B per image token, ${n(g.fixed_tokens)} image tokens per sequence (never the text)`;
    }
    const cap = g.cap === null || g.cap === undefined ? "" : `, held for the last ${n(g.cap)} tokens only`;
    return `${KIND_NAMES[g.kind] || g.kind}: ${dims} x ${bytes} B = ${n(per)} B${cap}`;
  }
  return `${KIND_NAMES[g.kind] || g.kind}: ${g.count} layers x ${n(g.fixed_bytes || 0)} B = ${n(g.count * (g.fixed_bytes || 0))} B per sequence, whatever its length`;
}

/**
 * The formula as the product it is, one row per layer group: each factor a chip with where
 * it comes from in the config (num_hidden_layers, num_key_value_heads, head_dim, the cache
 * dtype), the result at the end. Returns [factor name, value] pairs per row so a redraw can
 * mark the factors that changed.
 */
function formulaFactors(g, bits) {
  const per = groupBytesPerToken(g, bits);
  const bytes = bits / 8;
  const rows = [];
  if (g.latent !== undefined) {
    rows.push(["layers", g.count, "MLA layers"], ["latent", g.latent, "kv_lora_rank + qk_rope_head_dim"], ["bytes", bytes, "bytes per number"]);
  } else if (g.kv_heads !== undefined) {
    if (g.head_k === g.head_v) {
      rows.push(["kv", 2, "K and V"], ["layers", g.count, "layers"], ["heads", g.kv_heads, "num_key_value_heads"], ["dim", g.head_k, "head_dim"], ["bytes", bytes, "bytes per number"]);
    } else {
      rows.push(["layers", g.count, "layers"], ["heads", g.kv_heads, "num_key_value_heads"], ["dim", `(${g.head_k} + ${g.head_v})`, "K + V head dims"], ["bytes", bytes, "bytes per number"]);
    }
  } else {
    // A recurrent state does not grow with the context: layers x state per layer, per sequence.
    const state = Number(g.fixed_bytes || 0);
    rows.push(["layers", g.count, "layers"], ["state", state, "state bytes per layer"]);
    return { kind: g.kind, factors: rows, result: `${(g.count * state).toLocaleString("en-US")} B`, unit: "per sequence, fixed", per };
  }
  const unit = g.fixed_tokens !== undefined ? "per image token" : "per token";
  return { kind: g.kind, factors: rows, result: `${Number(per).toLocaleString("en-US")} B`, unit, per };
}

/**
 * @param {App} app
 */
function formulaBox(app, box, shape, bits) {
  const rows = shape.groups.map((g) => formulaFactors(g, bits));
  const before = app.formulaValues || {};
  /** @type {Record<string, string>} */
  const now = {};
  const lines = rows.map((r, i) => {
    const line = element("div", { class: "kv-formula-row", "data-kind": r.kind });
    line.append(element("span", { class: "kv-formula-kind", text: `${KIND_NAMES[r.kind] || r.kind}:` }));
    r.factors.forEach(([key, value, source], j) => {
      const id = `${i}.${key}`;
      now[id] = String(value);
      const changed = id in before && before[id] !== now[id];
      if (j > 0) line.append(element("span", { class: "kv-formula-op", text: "x" }));
      line.append(element("span", { class: changed ? "kv-factor kv-changed" : "kv-factor", "data-factor": key, title: source }, [
        element("span", { class: "kv-factor-value", text: typeof value === "number" ? value.toLocaleString("en-US") : value }),
        element("span", { class: "kv-factor-source", text: source }),
      ]));
    });
    if (r.factors.length) line.append(element("span", { class: "kv-formula-op", text: "=" }));
    line.append(element("span", { class: "kv-factor kv-result" }, [element("span", { class: "kv-factor-value", text: r.result }),
      element("span", { class: "kv-factor-source", text: r.unit })]));
    return line;
  });
  return () => {
    box.replaceChildren(...lines);
    app.formulaValues = now;
  };
}

/**
 * @param {RenderContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "KV-cache bytes per token");
  modelSelect(app);
  dtypeSelect(app, "kv_dtype", "KV cache");
  contextControl(app);
  resetButton(app);
  const outBpt = app.readout("bytes_per_token", "Per token:");
  const outMha = app.readout("mha_bytes_per_token", "With query heads by mistake:");
  const outSeq = app.readout("kv_bytes", "One conversation:");
  const formula = element("div", { class: "kv-formula", "aria-label": "bytes per token, factor by factor" });
  app.readouts.after(formula);

  app.draw = () => {
    const L = app.lookup();
    const shape = L.shape();
    const bits = L.bits("kv_dtype");
    const context = checkInt("context", model.get("context"), 1);
    const bpt = kvBytesPerToken(shape, bits);
    const showFormula = formulaBox(app, formula, shape, bits);
    const lines = shape.groups.map((g) => ({ text: formulaLine(g, bits) }));
    if (shape.groups.length > 1 || shape.groups.some((g) => g.cap !== null && g.cap !== undefined)) {
      lines.push({ text: `Past every window each token adds ${fmtBytes(bpt)} (${Number(bpt).toLocaleString("en-US")} B).`, cls: "kv-note" });
    }
    const texts = perTokenReadouts(shape, bits);
    const contexts = [...axisValues(app, "bar_contexts")];
    if (!contexts.includes(context)) contexts.push(context);
    contexts.sort((a, b) => a - b);
    const kinds = [...new Set(shape.groups.map((g) => g.kind))];
    const byCtx = contexts.map((t) => bytesByKind(shape, t, bits));
    const seq = kvBytes(shape, context, bits);
    const t = app.theme();
    const traces = kinds.map((k) => ({
      type: "bar",
      name: KIND_NAMES[k] || k,
      x: contexts.map((c) => (c === context ? `${fmtTokens(c)} (chosen)` : fmtTokens(c))),
      y: byCtx.map((b) => Number(b[k] || 0n) / 1e9),
      // the chosen context keeps its kind's colour and gets an outline
      marker: { color: conceptColor(k), line: { color: t.fg, width: contexts.map((c) => (c === context ? 2 : 0)) } },
      hovertemplate: "%{x}: %{y:.3f} GB<extra>" + (KIND_NAMES[k] || k) + "</extra>",
    }));
    lines.push(...limitLines(shape, { context }));
    // Everything is computed: now touch the page.
    showFormula();
    app.say(lines);
    outBpt.textContent = texts.bytes_per_token;
    outMha.textContent = texts.mha_bytes_per_token;
    outSeq.textContent = `${fmtBytes(seq)} at ${fmtTokens(context)} tokens`;
    drawPlot(app, traces, {
      barmode: "stack",
      showlegend: kinds.length > 1,
      xaxis: { title: { text: "conversation length (tokens)" }, type: "category" },
      yaxis: { title: { text: "KV cache per conversation (GB)" } },
    });
  };
  return startApp(app);
}

export default widgetModule(render);
