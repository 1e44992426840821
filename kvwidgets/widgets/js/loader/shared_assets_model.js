// The SharedAssets model's own ESM: no view. As soon as the page creates the model it starts
// evaluating plotly.js and the shared library, so the first widget finds them (nearly) ready.

import { preload } from "./shared_assets.js";

export default {
  /** @param {{ model: import("@anywidget/types").AnyModel }} ctx */
  initialize({ model }) {
    preload(model);
  },
};
