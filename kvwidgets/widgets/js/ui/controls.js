// Controls bound to the model's traits: menus, number boxes, the context slider, the
// "More" fold and the reset button.

import { checkInt } from "../calc/errors.js";
import { fmtTokens } from "../calc/units.js";
import { element } from "./dom.js";
import { isFocused, tryModelCall } from "./host.js";

export const CONTEXT_STEPS = 16; // slider stops per doubling, 1K..1M

// The context slider: 16 evenly spaced stops per doubling from 1K to 1M, so every stop is
// a round number of tokens (1K, 1,088, ... 8K, 8,704 ...) and 8K/32K/128K are stops.
/**
 * @param {number} c
 */
export function contextToPosition(c) {
  c = Math.min(2 ** 20, Math.max(1024, Number(c)));
  const k = Math.floor(Math.log2(c));
  const j = Math.round((c - 2 ** k) / 2 ** (k - 4));
  return Math.min(10 * CONTEXT_STEPS, (k - 10) * CONTEXT_STEPS + j);
}

/**
 * @param {number | string} pos the slider's position (its value, a string, as it comes)
 */
export function positionToContext(pos) {
  const p = Number(pos);
  const k = 10 + Math.floor(p / CONTEXT_STEPS);
  return 2 ** k + (p % CONTEXT_STEPS) * 2 ** (k - 4);
}

/**
 * @param {import("./app.js").App} app
 * @template {HTMLElement} E
 * @param {string} labelText
 * @param {E} control
 * @returns {E}
 */
export function labelled(app, labelText, control) {
  const label = element("label", { class: "kv-control" }, [element("span", { text: labelText }), control]);
  app.controls.append(label);
  return control;
}

/**
 * @typedef {string | number | [string | number, string]} SelectValue a value, or [value, text]
 * @typedef {{ group: string, options: SelectValue[] }} SelectGroup
 * @typedef {SelectValue | SelectGroup} SelectOption
 */

/**
 * @param {SelectOption} o
 * @returns {o is SelectGroup}
 */
function isGroup(o) {
  return typeof o === "object" && o !== null && !Array.isArray(o);
}

/**
 * A <select> bound to a trait; options() is re-read whenever the traits it depends on change.
 * An option is a value, a [value, text] pair, or { group, options } for an <optgroup>.
 * The trait's current value is always one of the options (added at the end if missing).
 * @param {import("./app.js").App} app
 * @param {string} name
 * @param {string} labelText
 * @param {() => SelectOption[]} options
 * @param {string[]} dependsOn
 */
export function selectControl(app, name, labelText, options, dependsOn = []) {
  const sel = element("select", { "data-kv": name });
  const option = (/** @type {SelectValue} */ o) => {
    const [v, t] = Array.isArray(o) ? o : [o, String(o)];
    return element("option", { value: String(v), text: t });
  };
  const fill = () => {
    const want = app.model.get(name);
    const opts = options();
    const values = opts.flatMap((o) => (isGroup(o) ? o.options : [o])).map((o) => (Array.isArray(o) ? o[0] : o));
    if (!values.some((v) => String(v) === String(want))) opts.push([want, String(want)]);
    sel.replaceChildren(...opts.map((o) => {
      if (!isGroup(o)) return option(o);
      return element("optgroup", { label: o.group }, o.options.map(option));
    }));
    sel.value = String(want);
  };
  fill();
  sel.addEventListener("change", () => {
    const raw = sel.value;
    const cur = app.model.get(name);
    app.set(name, typeof cur === "number" ? Number(raw) : raw);
  });
  for (const dep of dependsOn) app.on(`change:${dep}`, fill);
  app.syncers.push(() => {
    if (String(sel.value) !== String(app.model.get(name))) fill();
  });
  return labelled(app, labelText, sel);
}

/**
 * A whole-number box; bad typed input shows a message and is not sent.
 * @param {import("./app.js").App} app
 * @param {string} name
 * @param {string} labelText
 * @param {{ min?: number, max?: number, field?: string }} [bounds]
 */
export function intBox(app, name, labelText, { min = 1, max = 2 ** 40, field = name } = {}) {
  const box = element("input", { type: "number", min: String(min), max: String(max), step: "1", "data-kv": name });
  box.value = String(app.model.get(name));
  box.addEventListener("change", () => {
    const v = Number(box.value);
    if (box.value.trim() === "" || !Number.isInteger(v) || v < min) {
      app.fail(`${field} must be a whole number >= ${min}, got ${box.value.trim() || "nothing"}`);
      return;
    }
    if (v > max) {
      app.fail(`${field} must be at most ${max.toLocaleString("en-US")}, got ${v.toLocaleString("en-US")}`);
      return;
    }
    app.set(name, v);
  });
  app.syncers.push(() => {
    if (!isFocused(box)) box.value = String(app.model.get(name));
  });
  return labelled(app, labelText, box);
}

/**
 * Context: a log-scale slider 1K..1M (arrow keys step 1/16 of a doubling) plus a typed box.
 * @param {import("./app.js").App} app
 */
export function contextControl(app, labelText = "Context (tokens)") {
  const slider = element("input", {
    type: "range", min: "0", max: String(10 * CONTEXT_STEPS), step: "1",
    "data-kv": "context", "aria-label": "context, log scale from 1K to 1M tokens",
  });
  const box = element("input", { type: "number", min: "1", max: String(2 ** 40), step: "1", "data-kv": "context-box", "aria-label": "context in tokens" });
  const shown = element("span", { class: "kv-value", "data-kv-out": "context" });
  const sync = () => {
    const c = app.model.get("context");
    slider.value = String(contextToPosition(c));
    slider.setAttribute("aria-valuetext", `${Number(c).toLocaleString("en-US")} tokens`);
    if (!isFocused(box)) box.value = String(c);
    // a draw shows the model's own context again: the box no longer holds a refused value
    box.removeAttribute("aria-invalid");
    shown.textContent = fmtTokens(c);
  };
  // a typed value the trait cannot take: marked at the box (widget.css outlines it), the
  // reason on the error line, until a value is accepted
  const refuse = (/** @type {string} */ message) => {
    box.setAttribute("aria-invalid", "true");
    app.fail(message);
  };
  slider.addEventListener("input", () => app.set("context", positionToContext(slider.value), { continuous: true }));
  box.addEventListener("change", () => {
    const raw = box.value.trim();
    const v = Number(raw);
    if (raw === "" || !Number.isInteger(v) || v < 1) {
      refuse(`context must be a whole number >= 1, got ${raw || "nothing"}`);
      return;
    }
    if (v > 2 ** 40) {
      refuse(`context must be at most ${(2 ** 40).toLocaleString("en-US")} tokens, got ${v.toLocaleString("en-US")}`);
      return;
    }
    app.set("context", v);
  });
  app.syncers.push(sync);
  sync();
  const wrap = element("span", { class: "kv-context" }, [slider, box, shown]);
  return labelled(app, labelText, wrap);
}

/**
 * A range slider for a float trait (utilization).
 * @param {import("./app.js").App} app
 * @param {string} name
 * @param {string} labelText
 * @param {{ min: number, max: number, step: number, fmt?: (v: number) => string }} range
 */
export function floatSlider(app, name, labelText, { min, max, step, fmt = (v) => String(v) }) {
  // aria-label: the wrapping label also holds the shown value, which would otherwise
  // become part of the slider's name ("Utilization 90%"); aria-valuetext carries it.
  const slider = element("input", { type: "range", min: String(min), max: String(max), step: String(step), "data-kv": name, "aria-label": labelText });
  const shown = element("span", { class: "kv-value", "data-kv-out": name });
  const sync = () => {
    const v = app.model.get(name);
    slider.value = String(v);
    slider.setAttribute("aria-valuetext", fmt(v));
    shown.textContent = fmt(v);
  };
  slider.addEventListener("input", () => app.set(name, Number(slider.value), { continuous: true }));
  app.syncers.push(sync);
  sync();
  return labelled(app, labelText, element("span", { class: "kv-context" }, [slider, shown]));
}

// The usual controls, with the menus read from the synced tables.
/**
 * @param {import("./app.js").App} app
 */
export function modelSelect(app) {
  // The series' models first (the list is Python's, browser_data.SERIES_MODELS), then models
  // loaded from a config, then the curated "more models" group (browser_data.MORE_MODELS).
  // Any other preset is listed only while it is the chosen model (selectControl adds it).
  const sel = selectControl(app, "model", "Model", () => {
    const shapes = app.model.get("shapes") || {};
    const presets = (app.model.get("presets") || []).filter((/** @type {string} */ p) => p in shapes);
    const series = (app.model.get("series_models") || []).filter((/** @type {string} */ p) => presets.includes(p));
    const extra = Object.keys(shapes).filter((n) => !presets.includes(n)).sort();
    const more = (app.model.get("more_models") || []).filter((/** @type {string} */ p) => presets.includes(p) && !series.includes(p));
    const first = [...series, ...extra];
    if (!first.length) return more;
    return more.length ? [...first, { group: "more models", options: more }] : first;
  }, ["shapes", "presets", "series_models", "more_models"]);
  modelRefusal(app);
  return sel;
}

/**
 * Under the model menu: why the last config given as the model was refused (the loader's
 * sentence, true cause first), until a model is accepted. Empty, it takes no room.
 * @param {import("./app.js").App} app
 */
function modelRefusal(app) {
  const note = element("div", { class: "kv-model-refusal", role: "alert", "data-kv-note": "model_refusal" });
  const show = () => {
    note.textContent = app.model.get("model_refusal") || "";
  };
  app.on("change:model_refusal", show);
  show();
  app.controls.append(note);
}

/**
 * @param {import("./app.js").App} app
 */
export function gpuSelect(app) {
  return selectControl(app, "gpu", "GPU", () => Object.keys(app.model.get("gpus") || {}), ["gpus"]);
}

/**
 * @param {import("./app.js").App} app
 */
export function gpuCount(app) {
  const counts = () => (app.model.get("axes") || {}).gpu_counts || [1, 2, 4, 8];
  return selectControl(app, "num_gpus", "GPUs", () => counts().map((/** @type {number} */ n) => [n, String(n)]), ["axes"]);
}

/**
 * @param {import("./app.js").App} app
 * @param {string} name
 * @param {string} labelText
 */
export function dtypeSelect(app, name, labelText) {
  /** @type {Record<string, string>} */
  const names = { bf16: "BF16", fp16: "FP16", fp8: "FP8", fp32: "FP32", int8: "INT8", int4: "INT4", mxfp4: "MXFP4 experts" };
  // weights also take the mixed formats (mxfp4: 4.25-bit experts, the rest 16-bit)
  const options = () => [
    ...Object.keys(app.model.get("dtypes") || names),
    ...(name === "weight_dtype" ? Object.keys(app.model.get("weight_formats") || {}) : []),
  ];
  return selectControl(app, name, labelText, () => options().map((d) => [d, names[d] || d]), ["dtypes", "weight_formats"]);
}

/**
 * @param {import("./app.js").App} app
 */
export function utilizationSlider(app) {
  return floatSlider(app, "utilization", "Utilization", { min: 0.5, max: 1, step: 0.01, fmt: (v) => `${Math.round(v * 100)}%` });
}

/**
 * The `params` input for the closed forms: undefined (the model's own count) when 0.
 * @param {import("./app.js").App} app
 */
export function paramsOverride(app) {
  const p = checkInt("params", app.model.get("params") ?? 0, 0);
  return p > 0 ? p : undefined;
}

/** A number typed in billions and stored as a whole count (params in billions of
 * @param {import("./app.js").App} app
 * @param {string} name
 * @param {string} labelText
 * @param {{ step?: string, ariaLabel: string, mustBe: string }} how
 */
export function billionsBox(app, name, labelText, { step = "any", ariaLabel, mustBe }) {
  const box = element("input", { type: "number", min: "0", step, "data-kv": name, "aria-label": ariaLabel });
  const sync = () => {
    if (!isFocused(box)) box.value = String(Number(app.model.get(name) || 0) / 1e9);
  };
  box.addEventListener("change", () => {
    const v = Number(box.value);
    if (box.value.trim() === "" || !Number.isFinite(v) || v < 0) {
      app.fail(`${mustBe}, got ${box.value.trim() || "nothing"}`);
      return;
    }
    app.set(name, Math.round(v * 1e9));
  });
  app.syncers.push(sync);
  sync();
  return labelled(app, labelText, box);
}

/**
 * Parameter count typed in billions (0 = the model's own).
 * @param {import("./app.js").App} app
 */
export function paramsBox(app) {
  return billionsBox(app, "params", "Params (B, 0 = model's)", {
    ariaLabel: "parameters in billions, 0 = the model's own count",
    mustBe: "params must be a number of billions >= 0 (0 = the model's own)",
  });
}

/**
 * @param {import("./app.js").App} app
 */
export function resetButton(app) {
  const btn = element("button", { type: "button", class: "kv-reset", "data-kv": "reset", text: "Reset" });
  btn.addEventListener("click", () => {
    const initial = app.model.get("initial") || {};
    app.holding = true;
    try {
      for (const n of Object.keys(initial)) app.model.set(n, initial[n]);
    } finally {
      app.holding = false;
    }
    tryModelCall(app.model, "save_changes");  // a host without a kernel may not have it (MyST)
    app.localError = "";
    app.redraw();  // here, not only from the change events: a model need not echo them
  });
  app.controls.append(btn);
  return btn;
}

/**
 * Progressive disclosure: the controls build() adds go into a "More" fold (<details>), closed
 * at first, after the controls in view. Its summary is a control like the others (data-kv
 * "more"): Tab reaches it, Enter or Space opens it, and Tab then reaches what it holds.
 * @param {import("./app.js").App} app
 * @param {() => void} build
 */
export function moreFold(app, build) {
  const summary = element("summary", { class: "kv-more-toggle", "data-kv": "more", text: "More" });
  const body = element("div", { class: "kv-more-body" });
  const fold = element("details", { class: "kv-more" }, [summary, body]);
  app.controls.append(fold);
  const outer = app.controls;
  app.controls = body;
  try {
    build();
  } finally {
    app.controls = outer;
  }
  return fold;
}
