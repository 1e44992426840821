// core/paging.py: memory in blocks (reserving vs paging, a shared prefix).

import { memoryBudget } from "./budget.js";
import { KVInputError, checkInt } from "./errors.js";
import { floorDiv } from "./exact.js";
import { kvBytesPerTokenWithinWindows } from "./model.js";

/** @import { ModelShape, GpuRow } from "../shapes" */
/** @import { BudgetOptions } from "./budget.js" */

/**
 * @param {number} tokens
 * @param {number} blockSize
 */
export function blocksFor(tokens, blockSize) {
  return Math.ceil(tokens / blockSize); // exact: both are whole numbers below 2^53
}

/**
 * core.paging.block_plan, field for field (integers as BigInt where they are bytes or users).
 * @param {ModelShape} shape
 * @param {GpuRow} gpu
 * @param {BudgetOptions & { usedTokens: number, reservedTokens: number, blockSize: number, users: number, prefixTokens: number }} o
 */
export function blockPlan(shape, gpu, o) {
  const used = checkInt("used_tokens", o.usedTokens, 1);
  const reserved = checkInt("reserved_tokens", o.reservedTokens, used);
  const bs = checkInt("block_size", o.blockSize, 1);
  const users = checkInt("users", o.users, 1);
  const prefix = checkInt("prefix_tokens", o.prefixTokens, 0);
  if (prefix >= used) {
    const n = (/** @type {number} */ x) => x.toLocaleString("en-US");
    throw new KVInputError(`prefix_tokens must be less than used_tokens (${n(used)}): each conversation adds tokens of its own after the shared prefix, got ${n(prefix)}`);
  }
  const b = memoryBudget(shape, gpu, o);
  const n = BigInt(b.num_gpus);
  const blockBytes = kvBytesPerTokenWithinWindows(shape, o.kvBits, b.num_gpus) * n * BigInt(bs);
  if (blockBytes <= 0n) throw new KVInputError(`${shape.name} stores nothing per token, so it has no blocks to page`);
  const reservedBlocks = blocksFor(reserved, bs);
  const paged = blocksFor(used, bs);
  const shared = Math.floor(prefix / bs);
  const own = blocksFor(used - shared * bs, bs);
  const budget = b.kv_budget_bytes;
  const fit = (/** @type {bigint} */ avail, /** @type {number} */ blocks) => (avail > 0n ? floorDiv(avail, BigInt(blocks) * blockBytes) : 0n);
  return {
    block_size: bs,
    block_bytes: blockBytes,
    kv_budget_bytes: budget,
    total_blocks: budget > 0n ? floorDiv(budget, blockBytes) : 0n,
    used_tokens: used,
    reserved_tokens: reserved,
    reserved_blocks: reservedBlocks,
    paged_blocks: paged,
    last_block_tokens: used - (paged - 1) * bs,
    reserved_waste: (reservedBlocks * bs - used) / (reservedBlocks * bs),
    paged_waste: (paged * bs - used) / (paged * bs),
    users_reserved: fit(budget, reservedBlocks),
    users_paged: fit(budget, paged),
    users,
    prefix_tokens: prefix,
    shared_blocks: shared,
    own_blocks: own,
    blocks_unshared: users * paged,
    blocks_shared: shared + users * own,
    users_sharing: fit(budget - BigInt(shared) * blockBytes, own),
  };
}
