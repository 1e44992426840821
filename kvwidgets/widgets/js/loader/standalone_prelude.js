// What a standalone ESM (kvwidgets.export pages, MyST's {anywidget}) runs between the vendored
// plotly.js and the widget module: it puts the plotly.js that ran and the library it holds
// into the page's slots (page_slots.js), where the widget module looks before fetching
// anything. Built as a classic script (an IIFE): it is text placed inside the ESM.

import { inlinedLibrary, LIBRARY_HASH } from "./library_binding.js";
import { libraryOnce, plotlyOnce } from "./page_slots.js";

const page = /** @type {any} */ (globalThis);
if (page.Plotly) plotlyOnce(() => Promise.resolve(page.Plotly));
libraryOnce(LIBRARY_HASH, () => Promise.resolve(inlinedLibrary));
