// The closed forms of kvwidgets.core in the browser, one module per core module.
//
// Evaluated from the compact "shape" JSON that Python sends (Model.shape()), so a control
// redraws with no kernel round trip and an exported page stays live. Python is the one
// source of truth; tests/widgets/js/kvcalc.test.mjs checks these modules against golden
// vectors written by kvwidgets.core. To reproduce it exactly:
//  * every byte count is a BigInt (the core uses exact Fractions; int4 is half a byte,
//    so sums are kept in bits and divided by 8 once, rounding up like core.model.Model._whole_bytes);
//  * users and budgets mirror core.budget's Fractions with BigInt numerators and
//    denominators (utilization 0.9 is parsed from its shortest decimal as 9/10);
//  * decode ceilings are doubles computed in the same operation order as
//    kvwidgets/core/decode.py, from integers that are checked to be below 2^53 (so the
//    int -> double conversions are exact and IEEE rounding gives the same bits).

export * from "./allocator_trace.js";
export * from "./budget.js";
export * from "./decode.js";
export * from "./dtypes.js";
export * from "./errors.js";
export * from "./exact.js";
export * from "./layers.js";
export * from "./model.js";
export * from "./offload.js";
export * from "./paging.js";
export * from "./step.js";
export * from "./transfer.js";
export * from "./units.js";
