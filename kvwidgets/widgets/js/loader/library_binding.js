// How a widget module reaches the shared library (../library.js).
//
// As written here the library is bundled into the module itself: that is the development
// build (KVW_DEV=1, scripts/build_js.mjs --dev) and any code that imports the sources
// directly. The production build replaces this module: in a widget module by a shim whose
// exports are every library name, bound by bindLibrary() to the page's one library
// instance (so the widget module holds only its own code); in the standalone prelude by
// this same text with LIBRARY_HASH filled in.

import * as library from "../library.js";

/** The hash of the library text this module was built against ("": bundled in, nothing to match). */
export const LIBRARY_HASH = "";

/** The library when it is bundled into this module; null when it comes from the page. */
export const inlinedLibrary = library;

/**
 * Bind the library names of this module to `lib` (the shim does; nothing to bind here).
 * @param {typeof library} _lib
 */
export function bindLibrary(_lib) {}
