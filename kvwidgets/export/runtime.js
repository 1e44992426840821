// The in-page stand-in for a Jupyter kernel + anywidget, for pages written by
// kvwidgets.export.to_html. It reads the JSON payload the page carries, gives each
// widget a small model with the part of anywidget's front-end model API widgets use
// (get, set, on, off, save_changes, send), and runs each widget's ESM the way
// anywidget 0.11 does (packages/anywidget/src/load.ts, binding.ts):
//   * a named `render` export wins; otherwise `default` is the widget, or a
//     function (maybe async) returning it;
//   * initialize({model, signal, experimental}) once per model, then
//     render({model, el, signal, host, experimental}) once per view;
//   * the ESM text is imported from a Blob URL, as anywidget does, so the module
//     sees the same import.meta and the text never has to be escaped as HTML.
// Nothing here touches the network: state changes stay in the page.

const payload = JSON.parse(document.getElementById("kvw-export-data").textContent);

// --- binary traits -----------------------------------------------------------------
// ipywidgets sends bytes as separate buffers that the front end sees as DataViews at
// the trait's path; the page carries them as base64 with the same paths.
function decodeBase64(text) {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return new DataView(bytes.buffer);
}

function putBuffers(state, buffers) {
  for (const { path, base64 } of buffers) {
    let target = state;
    for (const key of path.slice(0, -1)) target = target[key];
    target[path[path.length - 1]] = decodeBase64(base64);
  }
  return state;
}

// --- equality as Backbone's _.isEqual sees it, for the values traits hold ------------
function isEqual(a, b) {
  if (a === b) return a !== 0 || 1 / a === 1 / b;
  if (a !== a && b !== b) return true; // NaN
  if (a instanceof DataView && b instanceof DataView) {
    if (a.byteLength !== b.byteLength) return false;
    for (let i = 0; i < a.byteLength; i++) if (a.getUint8(i) !== b.getUint8(i)) return false;
    return true;
  }
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((k) => Object.prototype.hasOwnProperty.call(b, k) && isEqual(a[k], b[k]));
}

// --- the model -------------------------------------------------------------------------
// Event semantics follow Backbone.Model, which ipywidgets' WidgetModel extends:
// "change:<name>" handlers get (model, value, options) for each attribute whose value
// changed, then "change" handlers get (model, options) once; a set() made inside a
// handler joins the same round. Handlers are grouped by a context object so a view's
// handlers can all be removed at once with off(null, null, context).
class ExportedModel {
  constructor(id, attributes) {
    this.model_id = id;
    this.attributes = attributes;
    this.changed = {};
    this._previous = { ...attributes };
    this._handlers = [];
    this._changing = false;
    this._pending = false;
  }

  get(name) {
    return this.attributes[name];
  }

  previous(name) {
    return this._previous[name];
  }

  set(key, value, options) {
    if (key === null || key === undefined) return this;
    let attrs;
    if (typeof key === "object") {
      attrs = key;
      options = value;
    } else {
      attrs = { [key]: value };
    }
    options = options || {};
    const changing = this._changing;
    this._changing = true;
    if (!changing) {
      this._previous = { ...this.attributes };
      this.changed = {};
    }
    const changes = [];
    for (const [name, val] of Object.entries(attrs)) {
      if (!isEqual(this.attributes[name], val)) changes.push(name);
      if (!isEqual(this._previous[name], val)) this.changed[name] = val;
      else delete this.changed[name];
      this.attributes[name] = val;
    }
    if (!options.silent) {
      if (changes.length) this._pending = options;
      for (const name of changes) this.trigger(`change:${name}`, this, this.attributes[name], options);
    }
    if (changing) return this;
    if (!options.silent) {
      while (this._pending) {
        const pendingOptions = this._pending;
        this._pending = false;
        this.trigger("change", this, pendingOptions);
      }
    }
    this._pending = false;
    this._changing = false;
    return this;
  }

  on(events, callback, context) {
    if (typeof callback !== "function") return this;
    for (const event of String(events).split(/\s+/).filter(Boolean)) {
      this._handlers.push({ event, callback, context });
    }
    return this;
  }

  off(events, callback, context) {
    const names = events ? String(events).split(/\s+/).filter(Boolean) : null;
    this._handlers = this._handlers.filter(
      (h) =>
        !(
          (names === null || names.includes(h.event)) &&
          (!callback || h.callback === callback) &&
          (!context || h.context === context)
        ),
    );
    return this;
  }

  trigger(event, ...args) {
    // Copy first: a handler may add or remove handlers while we loop.
    for (const h of this._handlers.slice()) {
      if (h.event !== event && h.event !== "all") continue;
      try {
        if (h.event === "all") h.callback.call(h.context, event, ...args);
        else h.callback.apply(h.context, args);
      } catch (error) {
        // One widget's failing handler must not stop the others on the page.
        console.error(`[kvwidgets export] error in a "${event}" handler`, error);
      }
    }
    return this;
  }

  // There is no kernel to save to or message: the page's copy of the state is all there is.
  save_changes() {}
  send() {}
}

// What anywidget hands a widget instead of the model itself (model-proxy.ts): the
// same methods, with every handler registered under this view's context.
function modelProxy(model, context) {
  return {
    get: model.get.bind(model),
    set: model.set.bind(model),
    save_changes: model.save_changes.bind(model),
    send: model.send.bind(model),
    on(name, callback) {
      model.on(name, callback, context);
    },
    off(name, callback) {
      model.off(name, callback, context);
    },
    widget_manager: undefined,
  };
}

const noKernel = (what) => () => Promise.reject(new Error(`${what} needs a Jupyter kernel; this is an exported page`));
const experimental = { invoke: noKernel("experimental.invoke") };
const host = { getModel: noKernel("host.getModel"), getWidget: noKernel("host.getWidget") };

async function importEsm(text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function widgetDefinition(mod) {
  if (mod.render) return { render: mod.render };
  if (!mod.default) throw new Error("the widget's ESM must export a default function or object, or a named render");
  return typeof mod.default === "function" ? await mod.default() : mod.default;
}

// render and initialize may return a cleanup function; run it when the page goes away.
function onAbort(signal, cleanup) {
  if (typeof cleanup === "function") signal.addEventListener("abort", () => cleanup());
}

function showError(el, error) {
  const line = document.createElement("pre");
  line.className = "kvw-export-error";
  line.textContent = `This widget could not start: ${error && error.message ? error.message : error}`;
  el.appendChild(line);
}

// to_html(..., controls=[...]): hide every control not named (its value still applies).
// A control inside a <label> (kvwidgets' controls) is hidden with its label.
function applyPageOptions(el, options) {
  if (!options || !options.controls) return;
  const keep = new Set(options.controls);
  for (const control of el.querySelectorAll("[data-kv]")) {
    if (keep.has(control.dataset.kv)) continue;
    // the whole label, unless it also holds a control that stays (the context slider and box)
    const label = control.closest("label");
    const shared = label && [...label.querySelectorAll("[data-kv]")].some((c) => keep.has(c.dataset.kv));
    const box = label && !shared ? label : control;
    box.style.display = "none";
    control.dataset.kvPageHidden = "true";
  }
  // a kept control inside a closed "More" fold: open the fold (its summary stays hidden);
  // a fold or a row of controls with no kept control goes whole, so no blank row or gap
  // keeps its place
  const holdsKept = (box) => [...box.querySelectorAll("[data-kv]")].some((c) => keep.has(c.dataset.kv));
  for (const fold of el.querySelectorAll("details.kv-more")) {
    if (holdsKept(fold)) fold.open = true;
    else fold.style.display = "none";
  }
  for (const row of el.querySelectorAll(".kv-controls")) {
    if (!holdsKept(row)) row.style.display = "none";
  }
}

// Tell a parent page (iframe_snippet) how tall this page is, now and whenever it changes.
function postHeight() {
  if (window.parent === window) return;
  // framed: the page drops the blank below its last widget (page.py's CSS), so the height
  // posted is the content's and the course page shows no empty band under the iframe
  document.documentElement.dataset.kvwFramed = "true";
  let last = -1;
  const post = () => {
    const h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h === last) return;
    last = h;
    window.parent.postMessage({ kvwidgets: "height", height: h }, "*");
  };
  if (typeof ResizeObserver === "function") new ResizeObserver(post).observe(document.documentElement);
  post();
}

// Widgets one Scenario drove in the kernel stay tied on the page: a change of a shared
// input in one model is set in the others (an equal value fires nothing, so no loop).
function linkScenarios(models, links) {
  for (const { widgets, traits } of links) {
    const group = widgets.map((i) => models[i]).filter(Boolean);
    for (const name of traits) {
      const holders = group.filter((m) => m.get(name) !== undefined);
      for (const m of holders) {
        m.on(`change:${name}`, (_model, value) => {
          for (const other of holders) if (other !== m) other.set(name, value);
        }, linkScenarios);
      }
    }
  }
}

async function boot() {
  const styles = payload.css.map((text) => {
    const style = document.createElement("style");
    style.textContent = text;
    document.head.appendChild(style);
    return style;
  });
  // Load each distinct ESM once, however many widgets on the page share it.
  // (the page stores the start every ESM shares once: see shared_prefix in page.py)
  const modules = payload.esm.map((rest) => importEsm(payload.esm_prefix + rest));
  const controller = new AbortController();
  window.addEventListener("pagehide", () => controller.abort("page closed"));
  const models = [];
  const views = payload.widgets.map(async (entry, index) => {
    const el = document.getElementById(entry.el);
    const model = new ExportedModel(entry.model_id, putBuffers(entry.state, entry.buffers));
    models[index] = model;
    try {
      const definition = await widgetDefinition(await modules[entry.esm]);
      const initCleanup = await definition.initialize?.({
        model: modelProxy(model, definition),
        signal: controller.signal,
        experimental,
      });
      onAbort(controller.signal, initCleanup);
      if (!definition.render) return;
      const view = { el };
      const viewCleanup = await definition.render({
        model: modelProxy(model, view),
        el,
        signal: controller.signal,
        host,
        experimental,
      });
      onAbort(controller.signal, viewCleanup);
      applyPageOptions(el, entry.state._page_options);
    } catch (error) {
      console.error(`[kvwidgets export] widget ${index} (${entry.name}) failed`, error);
      showError(el, error);
      throw error;
    }
  });
  linkScenarios(models, payload.links || []);
  const results = await Promise.allSettled(views);
  // For scripts and tests that drive the page: the models, and a flag once all drew.
  window.kvwExport = { models, styles, readyMs: performance.now() };
  document.documentElement.dataset.kvwExport = results.every((r) => r.status === "fulfilled") ? "ready" : "failed";
  document.dispatchEvent(new CustomEvent("kvw-export-ready", { detail: { models } }));
  postHeight();
}

boot();
