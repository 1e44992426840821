// DecodeStep: one conversation's cache filling token by token, drawn as a mechanism.
// Each drawn layer is a strip of rows, one per token it holds (a key strip above a value
// strip for attention layers, one latent strip for MLA, a fixed box for a recurrent
// state). The prompt's rows arrive together (prefill); each decode step appends one row
// per strip, outlines everything the step reads, and shows the query, which is used once
// and not kept. Sliding and chunked layers keep only their last `cap` rows: the older
// ones are drawn as dropped. Up to two layers per layer group are drawn; the counters
// and the per-group lines count every layer (calc/step.js decodeStepBytes).

import { KVInputError, checkInt } from "../calc/errors.js";
import { groupBytesPerToken } from "../calc/layers.js";
import { decodeStepBytes } from "../calc/step.js";
import { fmtBytes, fmtTokens } from "../calc/units.js";
import { axisValues, createApp, startApp } from "../ui/app.js";
import { accentColor, conceptColor } from "../ui/colours.js";
import { dtypeSelect, intBox, modelSelect, resetButton, selectControl } from "../ui/controls.js";
import { diagramBox, diagramWidth } from "../ui/diagram.js";
import { element, svgElement } from "../ui/dom.js";
import { widgetModule } from "../loader/widget_module.js";

/**
 * @typedef {import("../ui/app.js").RenderContext} RenderContext
 */

const KIND_NAMES = { full: "full attention", sliding: "sliding window", chunked: "chunked local", mla: "MLA latent", recurrent: "recurrent state" };
const MAX_CELLS = 160;    // up to this many tokens each row is its own cell
const MAX_TOKENS = 2 ** 20;
const TICK_MS = 50;       // at most 20 advances a second; faster speeds take several steps a tick

function kindName(kind) {
  return KIND_NAMES[kind] || `${kind} layer`;
}

/** What a drawn row of a group stores per token, from its shape (any kind). */
function stripsOf(g) {
  if (g.kv_heads !== undefined) {
    return [{ name: "K", numbers: g.kv_heads * g.head_k }, { name: "V", numbers: g.kv_heads * g.head_v }];
  }
  if (g.latent !== undefined) return [{ name: "latent", numbers: g.latent }];
  return [];
}

/** The second label line of a drawn layer: what one of its rows holds. */
function rowLabel(g) {
  if (g.kv_heads !== undefined) {
    const heads = `${g.kv_heads} KV head${g.kv_heads === 1 ? "" : "s"}`;
    return g.head_k === g.head_v ? `K and V rows: ${heads} x ${g.head_k}` : `K: ${heads} x ${g.head_k}, V: x ${g.head_v}`;
  }
  if (g.latent !== undefined) return `one latent row of ${g.latent} numbers`;
  if (Number(g.fixed_bytes || 0) > 0) return "no rows per token";
  return "";
}

function stripHeight(numbers, s) {
  // 2,048 numbers per token (Gemma 3's 16 heads x 128) draws 28 px: heights compare across models
  return Math.max(4, Math.min(36, (28 * numbers) / 2048)) * s;
}

function groupLine(g, step, bits, T) {
  const n = (x) => Number(x).toLocaleString("en-US");
  const name = kindName(g.kind);
  const layers = `${n(g.count)} layer${g.count === 1 ? "" : "s"}`;
  if (g.kv_heads === undefined && g.latent === undefined) {
    const fixed = Number(g.fixed_bytes || 0);
    return fixed ? `${name} x ${layers}: a fixed state of ${fmtBytes(fixed)} each, whatever the length; ${fmtBytes(step.bytes)} in all`
      : `${name} x ${layers}: nothing stored per token`;
  }
  const held = step.cap === null ? `every one of the ${n(T)} tokens` : `${n(step.held_tokens)} of ${n(T)} tokens (window ${n(step.cap)})`;
  const dropped = step.dropped_tokens ? `, ${n(step.dropped_tokens)} dropped` : "";
  return `${name} x ${layers}: each holds ${held}${dropped}; ${fmtBytes(step.bytes)} in all (${fmtBytes(groupBytesPerToken(g, bits))} per token)`;
}

/**
 * @param {RenderContext} ctx
 */
function render({ model, el }) {
  const app = createApp({ model, el }, "One decode step at a time: the cache of one conversation");
  modelSelect(app);
  dtypeSelect(app, "kv_dtype", "KV cache");
  intBox(app, "prompt_tokens", "Prompt (tokens)", { min: 1, max: MAX_TOKENS });
  selectControl(app, "speed", "Speed", () => axisValues(app, "speeds").map((v) => [v, `${v} steps/s`]), ["axes"]);
  const play = element("button", { type: "button", class: "kv-play", "data-kv": "play", "aria-pressed": "false", text: "Play" });
  const stepBtn = element("button", { type: "button", class: "kv-step", "data-kv": "step", text: "Step" });
  app.controls.append(play, stepBtn);
  const reset = resetButton(app);
  const outTokens = app.readout("tokens", "Tokens so far:");
  const outStored = app.readout("stored_bytes", "Stored:");
  const outRead = app.readout("read_bytes", "Read by this step:");
  const outWritten = app.readout("written_bytes", "Written by this step:");
  const stopWatch = diagramBox(app);

  // ---- playing: a timer that takes steps; the `generated` trait is the position ------
  let timer = null;
  const advance = (by) => {
    const g = checkInt("generated", model.get("generated"), 0);
    const p = checkInt("prompt_tokens", model.get("prompt_tokens"), 1);
    const next = Math.min(g + by, MAX_TOKENS - p);
    if (next <= g) {
      pause();
      app.fail(`the conversation has reached ${fmtTokens(MAX_TOKENS)} tokens, as far as this widget plays`);
      return;
    }
    app.set("generated", next);
  };
  const pause = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.textContent = "Play";
    play.setAttribute("aria-pressed", "false");
    app.root.dataset.playing = "false";
  };
  const start = () => {
    pause();
    const speed = Number(model.get("speed")) || 1;
    const period = Math.max(TICK_MS, 1000 / speed);
    const per = Math.max(1, Math.round((speed * period) / 1000));
    timer = setInterval(() => {
      try {
        advance(per);
      } catch (e) {
        pause();
        app.fail(e.message || String(e));
      }
    }, period);
    play.textContent = "Pause";
    play.setAttribute("aria-pressed", "true");
    app.root.dataset.playing = "true";
  };
  play.addEventListener("click", () => (timer === null ? start() : pause()));
  stepBtn.addEventListener("click", () => {
    pause();
    advance(1);
  });
  reset.addEventListener("click", pause);
  app.on("change:speed", () => { if (timer !== null) start(); });
  app.root.dataset.playing = "false";

  app.draw = () => {
    const L = app.lookup();
    const shape = L.shape();
    const bits = L.bits("kv_dtype");
    const P = checkInt("prompt_tokens", model.get("prompt_tokens"), 1);
    const G = checkInt("generated", model.get("generated"), 0);
    if (P > MAX_TOKENS) throw new KVInputError(`prompt_tokens must be at most ${MAX_TOKENS.toLocaleString("en-US")}, got ${P.toLocaleString("en-US")}`);
    const st = decodeStepBytes(shape, P, G, bits);
    const T = st.tokens;
    const decoding = st.phase === "decode";
    const perGroup = Number(axisValues(app, "layers_per_group")[0]) || 2;
    const t = app.theme();
    const s = app.scale();
    const W = diagramWidth(app);
    const fs = 12 * s;
    // labels beside the strips when there is room, above them when narrow (scale 1.5, a phone)
    const stacked = W < 760 * s;
    const labelW = stacked ? 0 : 230 * s;
    const qW = 64 * s;
    const x0 = labelW;
    const x1 = W - qW - 14 * s;
    const stripW = Math.max(40, x1 - x0);
    const cellW = stripW / T;
    const xOf = (i) => x0 + i * cellW;
    const accent = accentColor(app);

    // -- rows: every group, up to perGroup layers of it ----------------------------------
    const parts = [];
    let y = 0;
    const header = svgElement("g", { class: "kv-dst-header" });
    // token axis: where the prompt ends and the generated tokens begin
    // token axis: token 1 .. T above a bar, where the prompt ends and the generated tokens begin below it
    const axisY = 14 * s;
    const barY = axisY + 6 * s;
    header.append(
      svgElement("text", { x: x0, y: axisY, "font-size": fs, fill: t.fg2, text: "token 1" }),
      svgElement("text", { x: x1, y: axisY, "font-size": fs, fill: t.fg2, "text-anchor": "end", text: `token ${T.toLocaleString("en-US")}` }),
      svgElement("line", { x1: x0, x2: xOf(P), y1: barY, y2: barY, stroke: t.fg2, "stroke-width": 3 * s }),
      svgElement("text", { x: x0, y: barY + fs * 1.2, "font-size": fs, fill: t.fg, text: `prompt: ${P.toLocaleString("en-US")} (prefill)` }),
    );
    if (G > 0) {
      header.append(
        svgElement("line", { x1: xOf(P), x2: x1, y1: barY, y2: barY, stroke: accent, "stroke-width": 3 * s }),
        svgElement("text", { x: x1, y: barY + fs * 1.2, "font-size": fs, fill: t.fg, "text-anchor": "end", text: `+ ${G.toLocaleString("en-US")} generated` }),
      );
    }
    header.append(svgElement("text", { x: x1 + 8 * s, y: axisY, "font-size": fs, fill: t.fg2, text: "query" }));
    parts.push(header);
    y = barY + fs * 2;

    shape.groups.forEach((g, gi) => {
      const gs = st.groups[gi];
      const color = conceptColor(g.kind);
      const strips = stripsOf(g);
      const drawn = Math.min(g.count, perGroup);
      for (let li = 0; li < drawn; li++) {
        const row = svgElement("g", { class: "kv-dst-layer", "data-kind": g.kind, "data-held": gs.held_tokens, "data-dropped": gs.dropped_tokens });
        const rowTop = y;
        row.append(
          svgElement("text", { x: 0, y: y + fs, "font-size": fs, fill: t.fg, "font-weight": 600, text: `${kindName(g.kind)} ${li + 1} of ${g.count.toLocaleString("en-US")}` }),
          svgElement("text", { x: 0, y: y + 2.15 * fs, "font-size": fs * 0.85, fill: t.fg2, text: rowLabel(g) }),
        );
        const labelH = 2.5 * fs;
        if (stacked) y += labelH;
        if (strips.length) {
          const stripsH = strips.reduce((a, st2) => a + stripHeight(st2.numbers, s) + 3 * s, 0);
          if (!stacked) y += Math.max(0, (labelH - stripsH) / 2);
          const first = T - gs.held_tokens; // index of the oldest row still held
          for (const strip of strips) {
            const h = stripHeight(strip.numbers, s);
            if (first > 0) {
              // the rows the window let go: an empty dashed outline
              row.append(svgElement("rect", { class: "kv-dst-dropped", x: xOf(0), y, width: Math.max(1, xOf(first) - xOf(0)), height: h,
                fill: "none", stroke: t.fg2, "stroke-dasharray": `${3 * s} ${3 * s}`, "stroke-width": 1 }));
            }
            if (T <= MAX_CELLS) {
              for (let i = first; i < T; i++) {
                row.append(svgElement("rect", { class: i === T - 1 && decoding ? "kv-dst-new" : "kv-dst-row", x: xOf(i), y, width: Math.max(1, cellW), height: h,
                  fill: color, "fill-opacity": i < P ? 0.55 : 0.95, stroke: t.bg, "stroke-width": cellW > 4 ? 1 : 0 }));
              }
            } else {
              const promptEnd = Math.max(first, Math.min(P, T));
              if (promptEnd > first) {
                row.append(svgElement("rect", { class: "kv-dst-row", x: xOf(first), y, width: xOf(promptEnd) - xOf(first), height: h, fill: color, "fill-opacity": 0.55 }));
              }
              if (T > promptEnd) {
                row.append(svgElement("rect", { class: "kv-dst-row", x: xOf(promptEnd), y, width: xOf(T) - xOf(promptEnd), height: h, fill: color, "fill-opacity": 0.95 }));
              }
              if (decoding) {
                const w = Math.max(3 * s, cellW);
                row.append(svgElement("rect", { class: "kv-dst-new", x: xOf(T) - w, y, width: w, height: h, fill: color, stroke: t.fg, "stroke-width": 1.5 * s }));
              }
            }
            if (decoding && T <= MAX_CELLS) {
              row.append(svgElement("rect", { x: xOf(T - 1), y, width: Math.max(3 * s, cellW), height: h, fill: "none", stroke: t.fg, "stroke-width": 1.5 * s }));
            }
            y += h + 3 * s;
          }
          const stripsTop = stacked ? rowTop + labelH : rowTop + Math.max(0, (labelH - stripsH) / 2);
          const rowH = y - stripsTop;
          if (decoding) {
            // everything this step reads: the rows still held
            row.append(svgElement("rect", { class: "kv-dst-read", x: xOf(first) - 2, y: stripsTop - 2, width: xOf(T) - xOf(first) + 4, height: rowH - 3 * s + 4,
              fill: "none", stroke: accent, "stroke-width": 1.5 * s, rx: 2 }));
          }
          // the query of this step: computed, used against every row held, not stored
          row.append(svgElement("rect", { class: "kv-dst-query", x: x1 + 8 * s, y: stripsTop, width: 22 * s, height: Math.max(8 * s, rowH - 3 * s),
            fill: "none", stroke: color, "stroke-dasharray": `${3 * s} ${2 * s}`, "stroke-width": 1.5 * s }));
          row.append(svgElement("text", { x: x1 + 34 * s, y: stripsTop + Math.max(8 * s, rowH - 3 * s) / 2 + fs * 0.35, "font-size": fs * 0.85, fill: t.fg2, text: "q" }));
          if (first > 0 && xOf(first) - xOf(0) > 70 * s) {
            row.append(svgElement("text", { x: (xOf(0) + xOf(first)) / 2, y: stripsTop + (rowH - 3 * s) / 2 + fs * 0.35, "font-size": fs * 0.85, fill: t.fg2, "text-anchor": "middle", text: "dropped" }));
          }
          if (!stacked) y = Math.max(y, rowTop + labelH);
        } else if (Number(g.fixed_bytes || 0) > 0) {
          const h = 22 * s;
          row.append(svgElement("rect", { class: "kv-dst-state", x: x0, y, width: Math.min(stripW, 90 * s), height: h, fill: color, "fill-opacity": decoding ? 0.95 : 0.55,
            stroke: decoding ? accent : "none", "stroke-width": 1.5 * s }));
          row.append(svgElement("text", { x: x0 + Math.min(stripW, 90 * s) + 8 * s, y: y + h / 2 + fs * 0.35, "font-size": fs * 0.85, fill: t.fg2,
            text: `fixed state, ${fmtBytes(Number(g.fixed_bytes))}: ${decoding ? "read and rewritten" : "written"} every step, never grows` }));
          y += (stacked ? h : Math.max(h, labelH)) + 3 * s;
        } else {
          row.append(svgElement("text", { x: x0, y: y + fs, "font-size": fs * 0.85, fill: t.fg2, text: "stores nothing per token" }));
          y += stacked ? fs * 1.4 : labelH;
        }
        parts.push(row);
        y += 8 * s;
      }
      if (g.count > drawn) {
        parts.push(svgElement("text", { class: "kv-dst-more", x: 0, y: y + fs * 0.2, "font-size": fs * 0.85, fill: t.fg2,
          text: `+ ${(g.count - drawn).toLocaleString("en-US")} more ${kindName(g.kind)} layers like these (counted in every total)` }));
        y += fs * 1.4;
      }
      y += 6 * s;
    });
    // legend: what the marks mean
    let legendY = y + 6 * s;
    const legend = svgElement("g", { class: "kv-dst-legend" });
    let lx = 0;
    const item = (mark, text) => {
      const w = 18 * s + text.length * fs * 0.5;
      if (lx > 0 && lx + w > W) {  // wrap onto the next line
        lx = 0;
        legendY += 20 * s;
      }
      legend.append(mark(lx), svgElement("text", { x: lx + 18 * s, y: legendY + 10 * s, "font-size": fs * 0.85, fill: t.fg2, text }));
      lx += w + 16 * s;
    };
    const sw = 12 * s;
    item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: t.fg2, "fill-opacity": 0.55 }), "prompt rows (prefill)");
    item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: t.fg2, "fill-opacity": 0.95 }), "generated rows");
    item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: "none", stroke: accent, "stroke-width": 1.5 * s }), "read by this step");
    item((x) => svgElement("rect", { x, y: legendY, width: sw, height: sw, fill: "none", stroke: t.fg2, "stroke-dasharray": `${3 * s} ${2 * s}` }), "not kept (query, dropped rows)");
    const H = legendY + 22 * s;
    const svg = svgElement("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": t.font,
      "aria-label": `${shape.name}: ${T.toLocaleString("en-US")} tokens, ${fmtBytes(st.stored_bytes)} stored` }, [...parts, legend]);

    // -- text lines: every group exactly, and the limits -----------------------------------
    const lines = shape.groups.map((g, gi) => ({ text: groupLine(g, st.groups[gi], bits, T) }));
    lines.push({ text: decoding
      ? "This step: every layer computes the new token's query, key and value (MLA: one latent); the new rows are kept, the query is used against every row held, then dropped."
      : `Prefill: the keys and values of all ${P.toLocaleString("en-US")} prompt tokens are computed and stored at once. Play or Step to decode.`, cls: "kv-note" });
    if (shape.max_context && T > shape.max_context) {
      lines.push({ text: `${T.toLocaleString("en-US")} tokens is longer than ${shape.name} was trained for (max_position_embeddings ${shape.max_context.toLocaleString("en-US")}).`, cls: "kv-warn" });
    }
    // Everything is computed: now touch the page.
    app.say(lines);
    outTokens.textContent = `${T.toLocaleString("en-US")} (${P.toLocaleString("en-US")} prompt + ${G.toLocaleString("en-US")} generated)`;
    outStored.textContent = fmtBytes(st.stored_bytes);
    outRead.textContent = decoding ? fmtBytes(st.read_bytes) : "none yet (prefill)";
    outWritten.textContent = fmtBytes(st.written_bytes);
    app.diagram.replaceChildren(svg);
    app.drawnWidth = W;
  };
  const stop = startApp(app);
  return () => {
    pause();
    stopWatch();
    stop();
  };
}

export default widgetModule(render);
