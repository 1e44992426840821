// The widget model of MyST / Jupyter Book 2's {anywidget} directive, reproduced for the
// browser tests. Behaviour copied from @myst-theme/anywidget 1.4.1 (npm, MIT;
// dist/models.js, class MystAnyModel, itself forked from manzt/anymyst d0b2c10):
//   * state is the directive's JSON body, kept in the page;
//   * set(key, value) stores the value and dispatches `change:<key>` then `change`
//     (CustomEvents with the value as detail) on an EventTarget, even when the value
//     is unchanged;
//   * on(name, cb) is addEventListener, so callbacks get the CustomEvent;
//   * off(), save_changes() and send() throw "... not implemented yet.", and
//     widget_manager throws "... does not exist.".
export class MystAnyModel {
  #state;
  #target = new EventTarget();
  constructor(state) {
    this.#state = state;
  }
  get(name) {
    return this.#state[name];
  }
  set(key, value) {
    this.#state[key] = value;
    this.#target.dispatchEvent(new CustomEvent(`change:${key}`, { detail: value }));
    this.#target.dispatchEvent(new CustomEvent("change", { detail: value }));
  }
  on(name, cb) {
    this.#target.addEventListener(name, cb);
  }
  off(_name, _cb) {
    throw new Error("MystAnyModel.off not implemented yet.");
  }
  save_changes() {
    throw new Error("MystAnyModel.save_changes not implemented yet.");
  }
  send(_msg, _callbacks, _buffers) {
    throw new Error("MystAnyModel.send not implemented yet.");
  }
  get widget_manager() {
    throw new Error("MystAnyModel.widget_manager does not exist.");
  }
}

// A model with the whole of anywidget's front-end contract (get, set, on, off,
// save_changes, send), as Jupyter, VS Code, Colab and marimo give one: for the theme
// tests, where the host's model is not what is being tested. Callbacks get
// (model, value) like Backbone's change:<key> events; save_changes counts its calls.
export class FullModel {
  #state;
  #handlers = [];
  saved = 0;
  constructor(state) {
    this.#state = state;
  }
  get(name) {
    return this.#state[name];
  }
  set(key, value) {
    if (JSON.stringify(this.#state[key]) === JSON.stringify(value)) return;
    this.#state[key] = value;
    for (const [event, cb] of this.#handlers.slice()) {
      if (event === `change:${key}`) cb(this, value);
    }
    for (const [event, cb] of this.#handlers.slice()) {
      if (event === "change") cb(this);
    }
  }
  on(event, cb) {
    this.#handlers.push([event, cb]);
  }
  off(event, cb) {
    this.#handlers = this.#handlers.filter(([e, c]) => !((!event || e === event) && (!cb || c === cb)));
  }
  save_changes() {
    this.saved += 1;
  }
  send() {}
}
