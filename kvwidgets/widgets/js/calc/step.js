// core/step.py: one decode step of one conversation.

import { checkInt } from "./errors.js";
import { ceilDiv } from "./exact.js";
import { fixedBytes, groupBits, numbersPerToken, tokensHeld } from "./layers.js";
import { kvBytes, kvBytesPerTokenWithinWindows } from "./model.js";

/** @import { ModelShape, LayerGroup } from "../shapes" */

/**
 * core.step.decode_step_bytes: the cache of one sequence after the prefill of `prompt`
 * tokens and `generated` decode steps; what this step reads and writes; per layer group
 * the rows each layer holds and has dropped. Any layer kind: rows come from
 * numbersPerToken and the cap, state from fixed_bytes, so an unknown kind counts as
 * what its shape says it stores.
 * @param {ModelShape} shape
 * @param {number} prompt
 * @param {number} generated
 * @param {number} bits
 */
export function decodeStepBytes(shape, prompt, generated, bits) {
  prompt = checkInt("prompt_tokens", prompt, 1);
  generated = checkInt("generated", generated, 0);
  const tokens = prompt + generated;
  const stored = kvBytes(shape, tokens, bits);
  const groups = shape.groups.map((/** @type {LayerGroup} */ g) => {
    const storesRows = numbersPerToken(g, 1) > 0;
    const held = storesRows ? tokensHeld(g, tokens) : 0; // a layer with no rows holds none
    return {
      kind: g.kind, count: g.count, cap: g.cap ?? null, held_tokens: held,
      dropped_tokens: storesRows ? tokens - held : 0,
      bytes: ceilDiv(groupBits(g, tokens, bits, 1) - BigInt(g.count) * BigInt(fixedBytes(g, 1)) * 8n, 8n)
        + BigInt(g.count) * BigInt(fixedBytes(g, 1)),
    };
  });
  let read = 0n;
  let written = stored;
  if (generated > 0) {
    let state = 0n;
    for (const g of shape.groups) state += BigInt(g.count) * BigInt(fixedBytes(g, 1));
    read = stored;
    written = kvBytesPerTokenWithinWindows(shape, bits) + state;
  }
  return { prompt_tokens: prompt, generated, tokens, phase: generated === 0 ? "prefill" : "decode",
    stored_bytes: stored, read_bytes: read, written_bytes: written, groups };
}
