"""A small anywidget to test the exporter with, independent of kvwidgets' own widgets.

A slider synced to ``value`` and a readout counting how many changes the page has
seen; its ESM deliberately holds ``</script>`` and ``<!--`` in strings, and a bytes
trait, so the page's escaping and buffer handling are exercised.
"""

from __future__ import annotations

import anywidget
import traitlets

# `export default { initialize, render }`, anywidget's current convention.
TOY_ESM = r"""
const CLOSE_TAG = "</script>";       // must survive being inlined in a page
const COMMENT_OPEN = "<!-- <script>"; // the HTML parser's double-escaped state trap

function initialize({ model }) {
  model.set("initialized", true);
}

function render({ model, el }) {
  const slider = document.createElement("input");
  slider.type = "range";
  slider.min = "0";
  slider.max = "100";
  slider.dataset.kv = "value";
  slider.value = String(model.get("value"));
  const value = document.createElement("span");
  value.dataset.kvOut = "value";
  const count = document.createElement("span");
  count.dataset.kvOut = "count";
  const blob = document.createElement("span");
  blob.dataset.kvOut = "blob";
  const marks = document.createElement("span");
  marks.dataset.kvOut = "marks";
  marks.textContent = CLOSE_TAG + COMMENT_OPEN;
  let changes = 0;
  const draw = () => {
    value.textContent = String(model.get("value"));
    count.textContent = String(changes);
    const b = model.get("blob");
    blob.textContent = b instanceof DataView ? `${b.byteLength}:${b.getUint8(0)}` : typeof b;
  };
  slider.addEventListener("input", () => {
    model.set("value", Number(slider.value));
    model.save_changes();
  });
  const onValue = () => { changes += 1; slider.value = String(model.get("value")); draw(); };
  model.on("change:value", onValue);
  el.classList.add("toy");
  el.append(slider, value, count, blob, marks);
  draw();
  return () => model.off("change:value", onValue);
}

export default { initialize, render };
"""

# The older convention anywidget still accepts: a named `render` export.
NAMED_RENDER_ESM = r"""
export function render({ model, el }) {
  el.innerHTML = `<b data-kv-out="label">${model.get("label")}</b>`;
}
"""

# `export default` of a (here async) function returning the widget.
FACTORY_ESM = r"""
export default async () => ({
  render({ model, el }) {
    const out = document.createElement("span");
    out.dataset.kvOut = "label";
    out.textContent = model.get("label");
    el.append(out);
  },
});
"""

TOY_CSS = ".toy { border: 1px solid #888; padding: 4px; } .toy [data-kv-out] { margin: 0 8px; }"


class Toy(anywidget.AnyWidget):
    _esm = TOY_ESM
    _css = TOY_CSS
    value = traitlets.Int(10).tag(sync=True)
    initialized = traitlets.Bool(False).tag(sync=True)
    blob = traitlets.Bytes(b"\x07kv").tag(sync=True)


class NamedRender(anywidget.AnyWidget):
    _esm = NAMED_RENDER_ESM
    label = traitlets.Unicode("named").tag(sync=True)


class Factory(anywidget.AnyWidget):
    _esm = FACTORY_ESM
    label = traitlets.Unicode("factory").tag(sync=True)
