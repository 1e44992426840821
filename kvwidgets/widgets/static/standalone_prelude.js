// Built by scripts/build_js.mjs from kvwidgets/widgets/js: edit those files, not this one (DEVELOP.md).
(() => {
  var __defProp = Object.defineProperty;
  var __export = (target, all) => {
    for (var name in all)
      __defProp(target, name, { get: all[name], enumerable: true });
  };

  // kvwidgets/widgets/js/library.js
  var library_exports = {};
  __export(library_exports, {
    Buddy: () => Buddy,
    CONCEPT_COLORS: () => CONCEPT_COLORS,
    CONTEXT_STEPS: () => CONTEXT_STEPS,
    HATCHED: () => HATCHED,
    KEYED_TAGS: () => KEYED_TAGS,
    KIND_NAMES: () => KIND_NAMES,
    KVInputError: () => KVInputError,
    PAGE_DARK: () => PAGE_DARK,
    PAGE_LIGHT: () => PAGE_LIGHT,
    POLICIES: () => POLICIES,
    POLICY_LABELS: () => POLICY_LABELS,
    RAMP: () => RAMP,
    SCALE: () => SCALE,
    SVG_NS: () => SVG_NS,
    accentColor: () => accentColor,
    activeParams: () => activeParams,
    allocatorTrace: () => allocatorTrace,
    axisValues: () => axisValues,
    barMarker: () => barMarker,
    big: () => big,
    billionsBox: () => billionsBox,
    blockPlan: () => blockPlan,
    blocksFor: () => blocksFor,
    boxesPath: () => boxesPath,
    bytesByKind: () => bytesByKind,
    cacheTransfer: () => cacheTransfer,
    ceilDiv: () => ceilDiv,
    checkInt: () => checkInt,
    conceptColor: () => conceptColor,
    contextControl: () => contextControl,
    contextGrid: () => contextGrid,
    contextToPosition: () => contextToPosition,
    createApp: () => createApp,
    decimalFraction: () => decimalFraction,
    decodeCeiling: () => decodeCeiling,
    decodeFits: () => decodeFits,
    decodeStepBytes: () => decodeStepBytes,
    decodeWeightBytes: () => decodeWeightBytes,
    decodeWeightParams: () => decodeWeightParams,
    diagramBox: () => diagramBox,
    diagramWidth: () => diagramWidth,
    drawPlot: () => drawPlot,
    drawSwatchLegend: () => drawSwatchLegend,
    dtypeBits: () => dtypeBits,
    dtypeColor: () => dtypeColor,
    dtypeDash: () => dtypeDash,
    dtypeSelect: () => dtypeSelect,
    element: () => element,
    endLabels: () => endLabels,
    exactDouble: () => exactDouble,
    fitMessage: () => fitMessage,
    fixed: () => fixed,
    fixedBytes: () => fixedBytes,
    floatSlider: () => floatSlider,
    floorDiv: () => floorDiv,
    fmtBytes: () => fmtBytes,
    fmtConversations: () => fmtConversations,
    fmtGB: () => fmtGB,
    fmtTokens: () => fmtTokens,
    getLink: () => getLink,
    gpuCount: () => gpuCount,
    gpuMemory: () => gpuMemory,
    gpuSelect: () => gpuSelect,
    groupBits: () => groupBits,
    groupBytesPerToken: () => groupBytesPerToken,
    groupsBytesPerToken: () => groupsBytesPerToken,
    grows: () => grows,
    inkOn: () => inkOn,
    inputNames: () => inputNames,
    intBox: () => intBox,
    interpolateLog: () => interpolateLog,
    isFocused: () => isFocused,
    kvBytes: () => kvBytes,
    kvBytesPerToken: () => kvBytesPerToken,
    kvBytesPerTokenWithinWindows: () => kvBytesPerTokenWithinWindows,
    kvHeadsPerGpu: () => kvHeadsPerGpu,
    kvSlotsFor: () => kvSlotsFor,
    labelled: () => labelled,
    limitLines: () => limitLines,
    luminance: () => luminance,
    makeLookup: () => makeLookup,
    markHolds: () => markHolds,
    maxContext: () => maxContext,
    memoryBudget: () => memoryBudget,
    modelSelect: () => modelSelect,
    modelWeightBytes: () => modelWeightBytes,
    moreFold: () => moreFold,
    nextPow2: () => nextPow2,
    notePlotlyProblem: () => notePlotlyProblem,
    noteWidth: () => noteWidth,
    numbersPerToken: () => numbersPerToken,
    pageScheme: () => pageScheme,
    paramsBox: () => paramsBox,
    paramsOverride: () => paramsOverride,
    perTokenReadouts: () => perTokenReadouts,
    plotLayout: () => plotLayout,
    positionToContext: () => positionToContext,
    prefillSeconds: () => prefillSeconds,
    rampColor: () => rampColor,
    readTheme: () => readTheme,
    recomputeCrossover: () => recomputeCrossover,
    reloadSeconds: () => reloadSeconds,
    resetButton: () => resetButton,
    selectControl: () => selectControl,
    setTextLines: () => setTextLines,
    sharePlotlyStyles: () => sharePlotlyStyles,
    startApp: () => startApp,
    svgElement: () => svgElement,
    svgPaint: () => svgPaint,
    themeKey: () => themeKey,
    themeSource: () => themeSource,
    tierGbps: () => tierGbps,
    tokenBits: () => tokenBits,
    tokenBitsFraction: () => tokenBitsFraction,
    tokensHeld: () => tokensHeld,
    traceGrid: () => traceGrid,
    tryModelCall: () => tryModelCall,
    usersStaircase: () => usersStaircase,
    usersThatFit: () => usersThatFit,
    utilizationFraction: () => utilizationFraction,
    utilizationSlider: () => utilizationSlider,
    weightBytes: () => weightBytes
  });

  // kvwidgets/widgets/js/calc/errors.js
  var KVInputError = class extends Error {
    /**
     * @param {string} message
     */
    constructor(message) {
      super(message);
      this.name = "KVInputError";
    }
  };
  function checkInt(field, value, minimum = 0) {
    if (typeof value === "bigint") value = Number(value);
    if (typeof value !== "number" || !Number.isFinite(value) || !Number.isInteger(value) || value < minimum) {
      throw new KVInputError(`${field} must be a whole number >= ${minimum}, got ${value}`);
    }
    return value;
  }

  // kvwidgets/widgets/js/calc/exact.js
  function big(x) {
    return typeof x === "bigint" ? x : BigInt(x);
  }
  function floorDiv(a, b) {
    const q = a / b;
    return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
  }
  function ceilDiv(a, b) {
    return -floorDiv(-a, b);
  }
  function exactDouble(what, x) {
    if (x > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new KVInputError(`${what} = ${x} bytes is too large to evaluate exactly in the browser`);
    }
    return Number(x);
  }

  // kvwidgets/widgets/js/calc/layers.js
  function kvHeadsPerGpu(kvHeads, tp) {
    tp = checkInt("num_gpus", tp, 1);
    if (tp <= kvHeads) {
      if (kvHeads % tp) {
        throw new KVInputError(
          `num_gpus=${tp} does not divide num_key_value_heads=${kvHeads}; tensor parallelism needs the KV heads split evenly (try a divisor of the KV heads)`
        );
      }
      return kvHeads / tp;
    }
    if (tp % kvHeads) {
      throw new KVInputError(
        `num_gpus=${tp} is not a multiple of num_key_value_heads=${kvHeads}; with more GPUs than KV heads each head must be copied to a whole number of GPUs`
      );
    }
    return 1;
  }
  function numbersPerToken(group, tp) {
    if (group.kv_heads !== void 0) {
      return kvHeadsPerGpu(group.kv_heads, tp) * (group.head_k + group.head_v);
    }
    checkInt("num_gpus", tp, 1);
    if (group.latent !== void 0) return group.latent;
    return 0;
  }
  function tokenBits(group, bits, tp) {
    const [num, den] = tokenBitsFraction(group, bits, tp);
    if (den !== 1n) throw new KVInputError(`a ${group.kind} layer adds a fraction of a bit per token: use tokenBitsFraction`);
    return num;
  }
  function isCompressed(group) {
    return group.ratio !== void 0;
  }
  function tokenBitsFraction(group, bits, tp) {
    if (isCompressed(group)) {
      checkInt("num_gpus", tp, 1);
      if (group.ratio === 1) return [0n, 1n];
      return [BigInt(group.entry_bytes + (group.index_bytes || 0)) * 8n, BigInt(group.ratio)];
    }
    return [BigInt(numbersPerToken(group, tp)) * BigInt(bits) + BigInt(group.index_bytes || 0) * 8n, 1n];
  }
  function groupsBytesPerToken(groups, bits, tp, pick = (g) => g !== void 0) {
    let num = 0n;
    let den = 1n;
    for (const g of groups) {
      if (!pick(g)) continue;
      const [n2, d] = tokenBitsFraction(g, bits, tp);
      num = num * d + BigInt(g.count) * n2 * den;
      den *= d;
    }
    return ceilDiv(num, 8n * den);
  }
  function grows(group) {
    return group.cap !== 0;
  }
  function tokensHeld(group, tokens) {
    if (group.fixed_tokens !== void 0 && group.fixed_tokens !== null) return group.fixed_tokens;
    return group.cap === null || group.cap === void 0 ? tokens : Math.min(tokens, group.cap);
  }
  function fixedBytes(group, tp) {
    const f = group.fixed_bytes || 0;
    return f ? Math.ceil(f / tp) : 0;
  }
  function compressedBits(group, tokens, tp) {
    checkInt("num_gpus", tp, 1);
    const entry = BigInt(group.entry_bytes);
    const window2 = BigInt(Math.min(tokens, group.window)) * entry;
    const entries = group.ratio > 1 ? BigInt(Math.floor(tokens / group.ratio)) : 0n;
    const compressed = entries * (entry + BigInt(group.index_bytes || 0));
    const state = BigInt(Math.min(tokens, group.state_window || 0)) * BigInt(group.state_token_bytes || 0);
    return (window2 + compressed + state) * 8n;
  }
  function groupBits(group, tokens, bits, tp) {
    if (isCompressed(group)) return BigInt(group.count) * compressedBits(group, tokens, tp);
    const held = BigInt(tokensHeld(group, tokens));
    const perToken = tokenBits(group, bits, tp);
    return BigInt(group.count) * (held * perToken + BigInt(fixedBytes(group, tp)) * 8n);
  }
  function groupBytesPerToken(group, bits, tp = 1) {
    return groupsBytesPerToken([group], bits, tp);
  }

  // kvwidgets/widgets/js/calc/units.js
  var SCALE = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 };
  function fixed(x, digits) {
    if (!Number.isFinite(x)) throw new RangeError(`cannot format ${x}`);
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, x);
    const high = view.getUint32(0);
    const biased = high >>> 20 & 2047;
    let mantissa = BigInt(high & 1048575) << 32n | BigInt(view.getUint32(4));
    if (biased !== 0) mantissa |= 1n << 52n;
    const exponent = (biased === 0 ? 1 : biased) - 1075;
    let num = mantissa * 10n ** BigInt(digits);
    let den = 1n;
    if (exponent >= 0) num <<= BigInt(exponent);
    else den <<= BigInt(-exponent);
    let q = num / den;
    const twice = 2n * (num % den);
    if (twice > den || twice === den && q % 2n === 1n) q += 1n;
    const text = q.toString().padStart(digits + 1, "0");
    const whole = text.slice(0, text.length - digits).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    const sign = high >>> 31 ? "-" : "";
    return digits > 0 ? `${sign}${whole}.${text.slice(text.length - digits)}` : `${sign}${whole}`;
  }
  function fmtBytes(n2, unit = null, digits = 2) {
    const x = Number(n2);
    const a = Math.abs(x);
    if (unit === null) unit = a < 1024 ? "B" : a < 1024 ** 2 ? "KiB" : a < 1e9 ? "MB" : a < 1e12 ? "GB" : "TB";
    const v = x / SCALE[unit];
    return `${fixed(v, unit === "B" || Number.isInteger(v) ? 0 : digits)} ${unit}`;
  }
  function fmtTokens(n2) {
    n2 = Number(n2);
    if (n2 >= 1048576 && n2 % 1048576 === 0) return `${n2 / 1048576}M`;
    if (n2 >= 1024 && n2 % 1024 === 0) return `${n2 / 1024}K`;
    return n2.toLocaleString("en-US");
  }
  function fmtConversations(n2) {
    n2 = Number(n2);
    return `${n2.toLocaleString("en-US")} conversation${n2 === 1 ? "" : "s"}`;
  }
  function fmtGB(n2, digits) {
    return fixed(Number(n2) / 1e9, digits);
  }

  // kvwidgets/widgets/js/calc/model.js
  function kvBytes(shape, tokens, bits, tp = 1) {
    tokens = checkInt("context", tokens, 0);
    let total = 0n;
    for (const g of shape.groups) total += groupBits(g, tokens, bits, tp);
    return ceilDiv(total, 8n);
  }
  function kvBytesPerToken(shape, bits, tp = 1) {
    return groupsBytesPerToken(shape.groups, bits, tp, (g) => g.cap === null || g.cap === void 0);
  }
  function kvBytesPerTokenWithinWindows(shape, bits, tp = 1) {
    return groupsBytesPerToken(shape.groups, bits, tp, grows);
  }
  function bytesByKind(shape, tokens, bits, tp = 1) {
    tokens = checkInt("context", tokens, 0);
    const out = {};
    for (const g of shape.groups) out[g.kind] = (out[g.kind] || 0n) + groupBits(g, tokens, bits, tp);
    for (const k of Object.keys(out)) out[k] = ceilDiv(out[k], 8n);
    return out;
  }
  function weightBytes(params, bits) {
    return ceilDiv(big(params) * BigInt(bits), 8n);
  }
  function routedParams(shape, p, wb) {
    const routed = shape.moe ? BigInt(Math.min(shape.moe.routed_params, Number(p))) : 0n;
    if (!routed) {
      const [rp, rq] = wb.routed;
      const [op, oq] = wb.other;
      throw new KVInputError(`weight_dtype '${wb.name}' stores the routed experts of a mixture of experts in ${rp / rq} bits and every other weight in ${op / oq}; ${shape.name} has no routed experts, so pick one format for all weights (for example 'int4' or 'fp8')`);
    }
    return routed;
  }
  function modelWeightBytes(shape, params, wb) {
    const p = big(params ?? shape.params);
    if (typeof wb === "number") return weightBytes(p, wb);
    const routed = routedParams(shape, p, wb);
    const [rp, rq] = wb.routed.map(BigInt);
    const [op, oq] = wb.other.map(BigInt);
    return ceilDiv(routed * rp * oq + (p - routed) * op * rq, rq * oq * 8n);
  }
  function decodeWeightBytes(shape, batch, params, wb) {
    const read = decodeWeightParams(shape, batch, params);
    if (typeof wb === "number") return read * wb / 8;
    const p = exactDouble("params", big(params ?? shape.params));
    const shared = p - Number(routedParams(shape, p, wb));
    return shared * (wb.other[0] / wb.other[1]) / 8 + (read - shared) * (wb.routed[0] / wb.routed[1]) / 8;
  }
  function decodeWeightParams(shape, batch, params) {
    const p = exactDouble("params", big(params ?? shape.params));
    if (!shape.moe) return p;
    const routed = Math.min(shape.moe.routed_params, p);
    const miss = 1 - shape.moe.per_token / shape.moe.experts;
    let untouched = 1;
    for (let i = 0; i < batch; i++) untouched *= miss;
    return p - routed * untouched;
  }
  function activeParams(shape, params) {
    const p = big(params ?? shape.params);
    if (!shape.moe || !shape.moe.experts) return p;
    let routed = big(shape.moe.routed_params);
    if (routed > p) routed = p;
    if (routed === 0n) return p;
    const E = BigInt(shape.moe.experts);
    return p - floorDiv(routed * (E - BigInt(shape.moe.per_token)), E);
  }
  function perTokenReadouts(shape, bits) {
    const n2 = (x) => Number(x).toLocaleString("en-US");
    const both = (x) => x < 1024n ? fmtBytes(x) : `${fmtBytes(x)} (${n2(x)} B)`;
    const past = kvBytesPerToken(shape, bits);
    const within = kvBytesPerTokenWithinWindows(shape, bits);
    const capped = shape.groups.some((g) => g.cap !== null && g.cap !== void 0 && grows(g));
    const bytesPerToken = capped && within !== past ? `while the window fills: ${both(within)}; past every window: ${both(past)}` : both(past);
    let mha = "n/a (query heads not known)";
    if (shape.mha_groups) {
      const wrong = kvBytesPerTokenWithinWindows({ groups: shape.mha_groups }, bits);
      const ratio = within > 0n ? `${(Number(wrong) / Number(within)).toLocaleString("en-US", { maximumFractionDigits: 1 })}x too much` : "no per-token cost to compare";
      mha = `${fmtBytes(wrong)} (${ratio})`;
    }
    return { bytes_per_token: bytesPerToken, mha_bytes_per_token: mha, past, within };
  }
  function limitLines(shape, { context = null, weights = false, params = void 0 } = {}) {
    const n2 = (x) => Number(x).toLocaleString("en-US");
    const out = [];
    const max = shape.max_context;
    if (max && context !== null && context > max) {
      out.push({ text: `${n2(context)} tokens is longer than ${shape.name} was trained for (max_position_embeddings ${n2(max)}): the numbers hold for the memory, not for the model's quality.`, cls: "kv-warn", kind: "past_max_context" });
    }
    if (max) {
      const never = shape.groups.filter((g) => g.cap !== null && g.cap !== void 0 && g.cap > 0 && g.kv_heads !== void 0 && g.cap >= max);
      if (never.length) {
        out.push({ text: `A window of ${n2(never[0].cap)} tokens is at least ${shape.name}'s maximum context (${n2(max)}): nothing ever slides out, so every token costs its full bytes in those layers.`, cls: "kv-warn", kind: "window_never_slides" });
      }
    }
    for (const note of shape.engine_notes || []) out.push({ text: note, cls: "kv-warn", kind: "engine_note" });
    if (weights && shape.params_estimated && !params) {
      out.push({ text: `${shape.name}'s parameter count (${(Number(shape.params) / 1e9).toLocaleString("en-US", { maximumFractionDigits: 2 })} B) is an estimate from its config; set Params to a published count if you have one.`, cls: "kv-warn", kind: "params_estimated" });
    }
    return out;
  }

  // kvwidgets/widgets/js/calc/budget.js
  function decimalFraction(x) {
    const m = /^(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(String(x));
    if (!m) throw new KVInputError(`utilization must be a number in (0, 1], got ${x}`);
    const frac = m[2] || "";
    let p = BigInt((m[1] || "0") + frac);
    let q = 10n ** BigInt(frac.length);
    const e = Number(m[3] || 0);
    if (e > 0) p *= 10n ** BigInt(e);
    if (e < 0) q *= 10n ** BigInt(-e);
    return { p, q };
  }
  function utilizationFraction(u) {
    if (typeof u !== "number" || !Number.isFinite(u) || !(u > 0 && u <= 1)) {
      throw new KVInputError(`utilization must be in (0, 1] (0.9 keeps 10% free), got ${u}`);
    }
    return decimalFraction(u);
  }
  function gpuMemory(gpu, which = "marketed") {
    if (which === "marketed") return big(gpu.memory_bytes);
    if (which === "device") {
      if (gpu.device_bytes === null || gpu.device_bytes === void 0) {
        throw new KVInputError(`memory='device': no device-reported memory is recorded for ${gpu.name}; use memory='marketed'`);
      }
      return big(gpu.device_bytes);
    }
    throw new KVInputError(`memory must be 'marketed' or 'device', got '${which}'`);
  }
  function memoryBudget(shape, gpu, o) {
    const n2 = checkInt("num_gpus", o.numGpus, 1);
    const { p, q } = utilizationFraction(o.utilization);
    const working = BigInt(checkInt("working_bytes", o.workingBytes || 0, 0));
    const mem = gpuMemory(gpu, o.memory || "marketed");
    const weights = modelWeightBytes(shape, o.params, o.weightBits);
    const N = BigInt(n2);
    const num = mem * p * N - weights * q - working * q * N;
    const usable = floorDiv(mem * p * N, q);
    return {
      num_gpus: n2,
      p,
      q,
      num,
      den: q * N,
      memory_bytes: mem * N,
      usable_bytes: usable,
      reserve_bytes: mem * N - usable,
      weights_bytes: weights,
      working_bytes: working * N,
      kv_budget_bytes: floorDiv(num, q)
    };
  }
  function usersThatFit(shape, gpu, context, o) {
    context = checkInt("context", context, 1);
    const b = memoryBudget(shape, gpu, o);
    const perGpuUser = kvBytes(shape, context, o.kvBits, b.num_gpus);
    if (perGpuUser <= 0n) {
      throw new KVInputError(`context=${context} holds no KV bytes for ${shape.name}; users would be unbounded`);
    }
    let users = floorDiv(b.num, b.den * perGpuUser);
    if (users < 0n) users = 0n;
    const kvUser = perGpuUser * BigInt(b.num_gpus);
    const leftOver = b.kv_budget_bytes - users * kvUser;
    return {
      users,
      context,
      num_gpus: b.num_gpus,
      gpu: gpu.name,
      memory_bytes: b.memory_bytes,
      usable_bytes: b.usable_bytes,
      reserve_bytes: b.reserve_bytes,
      weights_bytes: b.weights_bytes,
      working_bytes: b.working_bytes,
      kv_budget_bytes: b.kv_budget_bytes,
      kv_per_user_bytes: kvUser,
      kv_used_bytes: users * kvUser,
      left_over_bytes: leftOver > 0n ? leftOver : 0n,
      weights_fit: b.kv_budget_bytes >= 0n,
      max_context: shape.max_context ?? null
      // the message says when context is past it
    };
  }
  function maxContext(shape, gpu, users, o, limit = 2 ** 40) {
    const count = BigInt(checkInt("users", users, 1));
    const b = memoryBudget(shape, gpu, o);
    const fits = (t) => count * kvBytes(shape, t, o.kvBits, b.num_gpus) * b.den <= b.num;
    if (!fits(1)) return 0;
    if (fits(limit)) return null;
    let lo = 1;
    let hi = limit;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (fits(mid)) lo = mid;
      else hi = mid;
    }
    return lo;
  }
  function usersStaircase(shape, gpu, o, lo = 1024, hi = 1048576, exactBelow = 256) {
    const b = memoryBudget(shape, gpu, o);
    const usersAt = (t) => {
      const k = kvBytes(shape, t, o.kvBits, b.num_gpus);
      if (k <= 0n) throw new KVInputError(`context=${t} holds no KV bytes for ${shape.name}; users would be unbounded`);
      const u2 = floorDiv(b.num, b.den * k);
      return u2 < 0n ? 0n : u2;
    };
    const lastWith = (u2, from) => {
      const fits = (t) => u2 * kvBytes(shape, t, o.kvBits, b.num_gpus) * b.den <= b.num;
      let a = from;
      let z = hi + 1;
      for (let step = 1; a + step <= hi; step *= 2) {
        if (!fits(a + step)) {
          z = a + step;
          break;
        }
        a += step;
      }
      if (z > hi && fits(hi)) return hi;
      while (z - a > 1) {
        const mid = Math.floor((a + z) / 2);
        if (fits(mid)) a = mid;
        else z = mid;
      }
      return a;
    };
    const xs = [];
    const ys = [];
    const push = (x, u2) => {
      xs.push(x);
      ys.push(u2);
    };
    const uEnd = usersAt(hi);
    let c = lo;
    let u = usersAt(lo);
    let exactFrom = lo;
    if (u > BigInt(exactBelow)) {
      exactFrom = lastWith(BigInt(exactBelow) + 1n, lo) + 1;
      for (let i = 0; c < Math.min(exactFrom, hi); i++) {
        push(c, usersAt(c));
        c = Math.round(lo * 2 ** ((i + 1) / 32));
      }
      c = Math.min(exactFrom, hi);
      u = usersAt(c);
    }
    push(c, u);
    while (u > uEnd && c < hi) {
      c = lastWith(u, c) + 1;
      u = usersAt(c);
      push(c, u);
    }
    if (xs[xs.length - 1] < hi) push(hi, uEnd);
    return { x: xs, users: ys, exactFrom };
  }
  function fitMessage(f) {
    const n2 = (x) => Number(x).toLocaleString("en-US");
    const past = f.max_context !== null && f.max_context !== void 0 && Number(f.context) > Number(f.max_context);
    if (!f.weights_fit) {
      return `The weights (${fmtGB(f.weights_bytes, 1)} GB) do not fit in the usable ${fmtGB(f.usable_bytes, 1)} GB: the model does not even load.`;
    }
    if (f.users === 0n) {
      return `Loads but cannot serve: ${fmtGB(f.kv_budget_bytes, 2)} GB is left after the weights, less than one ${n2(f.context)}-token conversation needs (${fmtGB(f.kv_per_user_bytes, 2)} GB).` + (past ? ` ${n2(f.context)} tokens is past this model's maximum of ${n2(f.max_context)} anyway.` : "");
    }
    const fit = f.users === 1n ? `1 conversation of ${n2(f.context)} tokens fits at once` : `${n2(f.users)} conversations of ${n2(f.context)} tokens fit at once`;
    return past ? `${fit}, but ${n2(f.context)} tokens is past this model's maximum of ${n2(f.max_context)}.` : `${fit}.`;
  }

  // kvwidgets/widgets/js/calc/allocator_trace.js
  var POLICIES = ["max", "pow2", "oracle", "paged"];
  var POLICY_LABELS = { max: "Orca (Max)", pow2: "Orca (Pow2)", oracle: "Orca (Oracle)", paged: "vLLM (paged)" };
  var n = (x) => Number(x).toLocaleString("en-US");
  function nextPow2(x) {
    let p = 1;
    while (p < x) p *= 2;
    return p;
  }
  var Heap = class {
    /**
     * @param {(x: T, y: T) => boolean} less
     */
    constructor(less) {
      this.a = [];
      this.less = less;
    }
    get size() {
      return this.a.length;
    }
    peek() {
      return this.a[0];
    }
    /**
     * @param {T} x
     */
    push(x) {
      const a = this.a;
      a.push(x);
      let i = a.length - 1;
      while (i > 0) {
        const p = i - 1 >> 1;
        if (!this.less(a[i], a[p])) break;
        [a[i], a[p]] = [a[p], a[i]];
        i = p;
      }
    }
    pop() {
      const a = this.a;
      const top = a[0];
      const last = (
        /** @type {T} */
        a.pop()
      );
      if (a.length) {
        a[0] = last;
        let i = 0;
        for (; ; ) {
          const l = 2 * i + 1;
          const r = l + 1;
          let m = i;
          if (l < a.length && this.less(a[l], a[m])) m = l;
          if (r < a.length && this.less(a[r], a[m])) m = r;
          if (m === i) break;
          [a[i], a[m]] = [a[m], a[i]];
          i = m;
        }
      }
      return top;
    }
  };
  var byEndThenId = (x, y) => x[0] < y[0] || x[0] === y[0] && x[1] < y[1];
  function reservation(policy, p, o, maxLen) {
    if (policy === "max") return maxLen;
    if (policy === "pow2") return Math.min(maxLen, p + nextPow2(o));
    return p + o;
  }
  function addTo(acc, tok, res, inn, rnd, running, steps) {
    acc[0] += tok;
    acc[1] += res;
    acc[2] += inn;
    acc[3] += rnd;
    acc[4] += running;
    acc[5] += steps;
  }
  var Sums = class {
    /**
     * @param {number} capacity
     */
    constructor(capacity) {
      this.cap = capacity;
      this.window = [0, 0, 0, 0, 0, 0];
      this.whole = [0, 0, 0, 0, 0, 0];
    }
    /**
     * @param {number} tok
     * @param {number} res
     * @param {number} inn
     * @param {number} rnd
     * @param {number} running
     * @param {number} steps
     * @param {boolean} saturated
     */
    add(tok, res, inn, rnd, running, steps, saturated) {
      addTo(this.whole, tok, res, inn, rnd, running, steps);
      if (saturated) addTo(this.window, tok, res, inn, rnd, running, steps);
    }
    /**
     * @param {string} policy
     * @param {number[][]} samples
     * @param {number} totalSteps
     * @param {number} preemptions
     */
    run(policy, samples, totalSteps, preemptions) {
      const c = this.cap;
      const cols = { token_states: [], reserved: [], internal: [], rounding: [], free: [] };
      const running = [];
      for (const [tok, res, inn, rnd, k] of samples) {
        cols.token_states.push(tok / c);
        cols.reserved.push(res / c);
        cols.internal.push(inn / c);
        cols.rounding.push(rnd / c);
        cols.free.push((c - tok - res - inn - rnd) / c);
        running.push(k);
      }
      const acc = this.window[5] ? this.window : this.whole;
      const steps = Math.max(1, acc[5]);
      for (const v of [...acc, steps * c]) {
        if (!Number.isSafeInteger(v)) throw new KVInputError("the trace is too large to evaluate exactly in the browser (a sum passes 2^53): give fewer requests or less memory");
      }
      const held = acc[0] + acc[1] + acc[2] + acc[3];
      return {
        policy,
        label: POLICY_LABELS[policy],
        ...cols,
        running,
        mean_token_states: acc[0] / (steps * c),
        mean_reserved: acc[1] / (steps * c),
        mean_internal: acc[2] / (steps * c),
        mean_rounding: acc[3] / (steps * c),
        mean_free: 1 - held / (steps * c),
        mean_running: acc[4] / steps,
        saturated_steps: this.window[5],
        total_steps: totalSteps,
        preemptions
      };
    }
  };
  var Buddy = class {
    /**
     * @param {number} capacity
     */
    constructor(capacity) {
      this.free = /* @__PURE__ */ new Map();
      this.largest = 0;
      const sizes = [];
      for (let s = 1; s <= capacity; s *= 2) sizes.push(s);
      let addr = 0;
      for (const size of sizes.reverse()) {
        if (Math.floor(capacity / size) % 2 === 1) {
          this.free.set(size, /* @__PURE__ */ new Set([addr]));
          this.largest = Math.max(this.largest, size);
          addr += size;
        }
      }
    }
    /**
     * @param {number} size
     */
    alloc(size) {
      let s = size;
      while (!this.free.get(s)?.size) {
        s *= 2;
        if (s > this.largest) return null;
      }
      const set = (
        /** @type {Set<number>} */
        this.free.get(s)
      );
      let addr = Infinity;
      for (const a of set) if (a < addr) addr = a;
      set.delete(addr);
      while (s > size) {
        s /= 2;
        if (!this.free.has(s)) this.free.set(s, /* @__PURE__ */ new Set());
        this.free.get(s).add(addr + s);
      }
      return addr;
    }
    /**
     * @param {number} addr
     * @param {number} size
     */
    release(addr, size) {
      for (; ; ) {
        const buddy = Math.floor(addr / size) % 2 === 0 ? addr + size : addr - size;
        const same = this.free.get(size);
        if (same === void 0 || !same.has(buddy)) {
          if (!this.free.has(size)) this.free.set(size, /* @__PURE__ */ new Set());
          this.free.get(size).add(addr);
          return;
        }
        same.delete(buddy);
        addr = Math.min(addr, buddy);
        size *= 2;
      }
    }
  };
  function checkEveryChunkFits(policy, chunk, capacity, buddy) {
    let room = capacity;
    if (buddy) {
      room = 1;
      while (room * 2 <= capacity) room *= 2;
    }
    chunk.forEach((c, i) => {
      if (c > room) {
        throw new KVInputError(`request ${i} needs a ${n(c)}-slot reservation under ${POLICY_LABELS[policy]}, more than the ${n(room)} contiguous KV slots there are: it could never be admitted (give more memory or shorter requests)`);
      }
    });
  }
  function runReserving(policy, reqs, capacity, maxLen, buddy) {
    const res = reqs.map(([
      /** @type {number} */
      p,
      /** @type {number} */
      o
    ]) => reservation(policy, p, o, maxLen));
    const chunk = buddy ? res.map(nextPow2) : res;
    checkEveryChunkFits(policy, chunk, capacity, buddy);
    const sums = new Sums(capacity);
    const segments = [];
    const queue = reqs.map((_, i) => i);
    let head = 0;
    const ends = new Heap(byEndThenId);
    let t = 0;
    let base = 0;
    let k = 0;
    let final = 0;
    let reserved = 0;
    let held = 0;
    const arena = buddy ? new Buddy(capacity) : null;
    const where = /* @__PURE__ */ new Map();
    while (head < queue.length || ends.size) {
      while (head < queue.length) {
        const i = queue[head];
        if (arena === null) {
          if (held + chunk[i] > capacity) break;
        } else {
          const addr = arena.alloc(chunk[i]);
          if (addr === null) break;
          where.set(i, addr);
        }
        head += 1;
        const [p, o] = reqs[i];
        ends.push([t + o - 1, i]);
        base += p + 1 - t;
        k += 1;
        final += p + o;
        reserved += res[i];
        held += chunk[i];
      }
      const last = ends.peek()[0];
      segments.push([t, last, base, k, final, reserved, held]);
      const m = last - t + 1;
      const tok = base * m + k * Math.floor((t + last) * m / 2);
      sums.add(tok, final * m - tok, (reserved - final) * m, (held - reserved) * m, k * m, m, head < queue.length);
      while (ends.size && ends.peek()[0] === last) {
        const [, i] = ends.pop();
        const [p, o] = reqs[i];
        base -= p + 1 - (last - o + 1);
        k -= 1;
        final -= p + o;
        reserved -= res[i];
        held -= chunk[i];
        if (arena !== null) {
          arena.release(where.get(i), chunk[i]);
          where.delete(i);
        }
      }
      t = last + 1;
    }
    const sample = (grid) => {
      const out = [];
      let j = 0;
      for (const s of grid) {
        while (j < segments.length && segments[j][1] < s) j += 1;
        if (j === segments.length) {
          out.push([0, 0, 0, 0, 0]);
          continue;
        }
        const [, , b, kk, f, r, h] = segments[j];
        const tk = b + kk * s;
        out.push([tk, f - tk, r - f, h - r, kk]);
      }
      return out;
    };
    return { sums, sample, total: t, preemptions: 0 };
  }
  var ceilDivInt = (a, b) => Math.floor((a + b - 1) / b);
  function checkEveryRequestFits(reqs, B, totalBlocks, watermarkBlocks) {
    reqs.forEach(([
      /** @type {number} */
      p,
      /** @type {number} */
      o
    ], i) => {
      const need = ceilDivInt(p + o, B);
      if (need > totalBlocks - watermarkBlocks) {
        throw new KVInputError(`request ${i} needs ${n(need)} blocks of ${B} tokens, more than the ${n(totalBlocks - watermarkBlocks)} a request may take: it could never finish (give more memory or shorter requests)`);
      }
    });
  }
  function pushAt(map, key, v) {
    const list = map.get(key);
    if (list) list.push(v);
    else map.set(key, [v]);
  }
  function admitPaged(R) {
    const { B, t } = R;
    while (R.head < R.queue.length) {
      const i = R.queue[R.head];
      const b = ceilDivInt(R.length[i], B);
      if (R.free - b < R.watermarkBlocks) break;
      R.head += 1;
      R.free -= b;
      R.usedBlocks += b;
      R.blocks[i] = b;
      const L0 = R.startLen[i] = R.length[i];
      R.admittedAt[i] = t;
      R.epoch[i] += 1;
      R.running[i] = true;
      R.k += 1;
      R.tokens += L0;
      R.victims.push(i);
      const rem = R.final[i] - L0;
      for (let j = (-L0 % B + B) % B; j < rem; j += B) pushAt(R.needs, t + j, [i, R.epoch[i]]);
      pushAt(R.ends, t + rem - 1, [i, R.epoch[i]]);
      R.tailCounted[i] = b === ceilDivInt(R.final[i], B);
      if (R.tailCounted[i]) R.never += R.tail[i];
    }
  }
  function preemptFor(R, want) {
    const { t } = R;
    while (want.length > R.free) {
      while (!R.running[R.victims.peek()]) R.victims.pop();
      const v = R.victims.pop();
      const have = R.startLen[v] + (t - R.admittedAt[v]);
      R.running[v] = false;
      R.k -= 1;
      R.tokens -= have;
      R.free += R.blocks[v];
      R.usedBlocks -= R.blocks[v];
      if (R.tailCounted[v]) R.never -= R.tail[v];
      R.length[v] = have;
      if (R.head > 0) {
        R.head -= 1;
        R.queue[R.head] = v;
      } else {
        R.queue = [v, ...R.queue];
      }
      R.preemptions += 1;
      const at = want.indexOf(v);
      if (at >= 0) want.splice(at, 1);
    }
  }
  function wantingBlocks(R) {
    const want = [];
    const asked = R.needs.get(R.t);
    if (asked) {
      for (const [i, e] of asked) if (R.running[i] && R.epoch[i] === e) want.push(i);
      R.needs.delete(R.t);
    }
    return want;
  }
  function growPaged(R, want) {
    for (const i of want) {
      R.blocks[i] += 1;
      if (R.blocks[i] === ceilDivInt(R.final[i], R.B)) {
        R.tailCounted[i] = true;
        R.never += R.tail[i];
      }
    }
    R.free -= want.length;
    R.usedBlocks += want.length;
  }
  function finishPaged(R) {
    for (const [i, e] of R.ends.get(R.t) || []) {
      if (R.running[i] && R.epoch[i] === e) {
        R.running[i] = false;
        R.k -= 1;
        R.tokens -= R.final[i];
        R.free += R.blocks[i];
        R.usedBlocks -= R.blocks[i];
        R.never -= R.tail[i];
      }
    }
    R.ends.delete(R.t);
  }
  function pagedStart(reqs, B, totalBlocks, watermarkBlocks) {
    const N = reqs.length;
    const final = reqs.map(([
      /** @type {number} */
      p,
      /** @type {number} */
      o
    ]) => p + o);
    return {
      B,
      watermarkBlocks,
      length: reqs.map(([
        /** @type {number} */
        p
      ]) => p),
      final,
      tail: final.map((f) => ceilDivInt(f, B) * B - f),
      admittedAt: new Array(N).fill(0),
      startLen: new Array(N).fill(0),
      blocks: new Array(N).fill(0),
      epoch: new Array(N).fill(0),
      tailCounted: new Array(N).fill(false),
      running: new Array(N).fill(false),
      needs: /* @__PURE__ */ new Map(),
      ends: /* @__PURE__ */ new Map(),
      victims: new Heap((x, y) => x > y),
      // the latest arrival first (Python: a heap of -id)
      queue: reqs.map((_, i) => i),
      head: 0,
      free: totalBlocks,
      tokens: 0,
      usedBlocks: 0,
      never: 0,
      k: 0,
      preemptions: 0,
      t: 0
    };
  }
  function runPaged(reqs, capacity, B, watermarkBlocks) {
    const totalBlocks = Math.floor(capacity / B);
    checkEveryRequestFits(reqs, B, totalBlocks, watermarkBlocks);
    const R = pagedStart(reqs, B, totalBlocks, watermarkBlocks);
    const sums = new Sums(capacity);
    const stepTokens = [];
    const stepSlack = [];
    const stepNever = [];
    const stepRunning = [];
    while (R.head < R.queue.length || R.k) {
      admitPaged(R);
      const want = wantingBlocks(R);
      preemptFor(R, want);
      growPaged(R, want);
      R.tokens += R.k;
      const slack = R.usedBlocks * B - R.tokens;
      sums.add(R.tokens, slack - R.never, R.never, 0, R.k, 1, R.head < R.queue.length);
      stepTokens.push(R.tokens);
      stepSlack.push(slack);
      stepNever.push(R.never);
      stepRunning.push(R.k);
      finishPaged(R);
      R.t += 1;
    }
    const sample = (grid) => grid.map((s) => s >= stepTokens.length ? [0, 0, 0, 0, 0] : [stepTokens[s], stepSlack[s] - stepNever[s], stepNever[s], 0, stepRunning[s]]);
    return { sums, sample, total: R.t, preemptions: R.preemptions };
  }
  function roundHalfEven(x) {
    const r = Math.round(x);
    return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }
  function traceGrid(totalSteps, points) {
    if (totalSteps <= points) return Array.from({ length: totalSteps }, (_, i) => i);
    const set = /* @__PURE__ */ new Set();
    for (let j = 0; j < points; j++) set.add(roundHalfEven(j * (totalSteps - 1) / (points - 1)));
    return [...set].sort((a, b) => a - b);
  }
  function kvSlotsFor(shape, gpu, o) {
    const kinds = [...new Set(shape.groups.map((g) => g.kind))].filter((k) => k !== "full" && k !== "mla").sort();
    if (kinds.length) {
      throw new KVInputError(`${shape.name} has ${kinds.join(", ")} layers: a trace counts token slots of one fixed size, which only full-attention and MLA layers have; give kv_slots instead`);
    }
    const b = memoryBudget(shape, gpu, o);
    const perToken = kvBytesPerToken(shape, o.kvBits, b.num_gpus) * BigInt(b.num_gpus);
    if (b.kv_budget_bytes <= 0n) {
      const gb = (Number(b.weights_bytes) / 1e9).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      throw new KVInputError(`${shape.name}'s weights (${gb} GB) leave no KV memory on ${b.num_gpus} x ${gpu.name}: nothing to trace. More GPUs, smaller weights (FP8) or a GPU with more memory would leave some`);
    }
    return Number(floorDiv(b.kv_budget_bytes, perToken));
  }
  function allocatorTrace(reqs, o) {
    const kvSlots = checkInt("kv_slots", o.kvSlots, 1);
    const blockSize = checkInt("block_size", o.blockSize ?? 16, 1);
    const points = checkInt("points", o.points ?? 200, 2);
    const maxLen = checkInt("max_len", o.maxLen ?? 2048, 2);
    const watermark = o.watermark ?? 0.01;
    const buddy = o.buddy ?? true;
    const policies = o.policies ?? POLICIES;
    const bad = policies.filter((p) => !POLICIES.includes(p));
    if (bad.length || !policies.length) throw new KVInputError(`policies must be some of ${POLICIES.join(", ")}; got ${JSON.stringify(policies)}`);
    if (!reqs.length) throw new KVInputError("requests is empty: give at least one (prompt tokens, output tokens) pair");
    const totalBlocks = Math.floor(kvSlots / blockSize);
    const watermarkBlocks = Math.trunc(watermark * totalBlocks);
    const raw = {};
    for (const pol of policies) {
      raw[pol] = pol === "paged" ? runPaged(reqs, kvSlots, blockSize, watermarkBlocks) : runReserving(pol, reqs, kvSlots, maxLen, buddy);
    }
    const grid = traceGrid(Math.max(...Object.values(raw).map((r) => r.total)), points);
    const runs = {};
    for (const [pol, r] of Object.entries(raw)) runs[pol] = r.sums.run(pol, r.sample(grid), r.total, r.preemptions);
    return { kv_slots: kvSlots, block_size: blockSize, max_len: maxLen, buddy, watermark_blocks: watermarkBlocks, steps: grid, runs };
  }

  // kvwidgets/widgets/js/calc/decode.js
  function decodeCeiling(shape, gpu, context, batch, o) {
    context = checkInt("context", context, 1);
    batch = checkInt("batch", batch, 1);
    const n2 = checkInt("num_gpus", o.numGpus, 1);
    const bw = gpu.bandwidth_gbps;
    const allWeights = exactDouble("weights", modelWeightBytes(shape, o.params, o.weightBits)) / n2;
    const weights = shape.moe ? decodeWeightBytes(shape, batch, o.params, o.weightBits) / n2 : allWeights;
    const kvSeq = exactDouble("kv per sequence", kvBytes(shape, context, o.kvBits, n2));
    const kv = exactDouble("kv per step", BigInt(batch) * BigInt(kvSeq));
    const step = (weights + kv) / (bw * 1e9);
    return {
      context,
      batch,
      num_gpus: n2,
      gpu: gpu.name,
      bandwidth_gbps: bw,
      weight_bytes_per_step: weights,
      kv_bytes_per_step: kv,
      step_s: step,
      tokens_per_s_per_user: 1 / step,
      tokens_per_s_total: batch / step,
      kv_share: kv / (weights + kv),
      // against all the weights: a batch large enough to rival them touches every expert
      crossover_batch: kvSeq > 0 ? Math.floor(allWeights / kvSeq) + 1 : null
    };
  }
  function decodeFits(shape, gpu, context, batch, o) {
    batch = checkInt("batch", batch, 1);
    const f = usersThatFit(shape, gpu, context, { ...o, utilization: o.utilization ?? 0.9 });
    return { fits: BigInt(batch) <= f.users, max_batch: f.users };
  }
  function prefillSeconds(shape, gpu, tokens, params, numGpus = 1) {
    tokens = checkInt("tokens", tokens, 1);
    const n2 = checkInt("num_gpus", numGpus, 1);
    return Number(2n * activeParams(shape, params) * BigInt(tokens)) / (gpu.bf16_tflops * 1e12 * n2);
  }

  // kvwidgets/widgets/js/calc/dtypes.js
  function dtypeBits(dtypes, name, field = "kv_dtype") {
    const bits = dtypes[name];
    if (bits === void 0) {
      throw new KVInputError(`unknown ${field} '${name}'. Known ${field}s: ${Object.keys(dtypes).sort().join(", ")}.`);
    }
    return bits;
  }

  // kvwidgets/widgets/js/calc/offload.js
  function tierGbps(tier, speed = "typical") {
    const v = { low: tier.low_gbps, typical: tier.typical_gbps, high: tier.high_gbps }[speed];
    if (v === void 0) throw new KVInputError(`speed must be 'low', 'typical' or 'high', got '${speed}'`);
    return v;
  }
  function reloadSeconds(shape, tokens, bits, gbps) {
    return exactDouble("kv per sequence", kvBytes(shape, tokens, bits)) / (gbps * 1e9);
  }
  function contextGrid(lo = 1024, hi = 1048576, perDoubling = 4) {
    const out = [];
    for (let i = 0; ; i++) {
      const t = Math.min(hi, Math.round(lo * 2 ** (i / perDoubling)));
      if (!out.length || t > out[out.length - 1]) out.push(t);
      if (t >= hi) return out;
    }
  }
  function recomputeCrossover(shape, gpu, tier, bits, speed = "typical", params = void 0, lo = 1024, hi = 1048576) {
    const gbps = tierGbps(tier, speed);
    const reloadFirst = (t) => reloadSeconds(shape, t, bits, gbps) < prefillSeconds(shape, gpu, t, params);
    const grid = contextGrid(lo, hi);
    const start = reloadFirst(grid[0]);
    let prev = grid[0];
    for (const t of grid.slice(1)) {
      if (reloadFirst(t) !== start) {
        let a = prev;
        let b = t;
        while (b - a > 1) {
          const mid = Math.floor((a + b) / 2);
          if (reloadFirst(mid) === start) a = mid;
          else b = mid;
        }
        return b;
      }
      prev = t;
    }
    return null;
  }

  // kvwidgets/widgets/js/calc/paging.js
  function blocksFor(tokens, blockSize) {
    return Math.ceil(tokens / blockSize);
  }
  function blockPlan(shape, gpu, o) {
    const used = checkInt("used_tokens", o.usedTokens, 1);
    const reserved = checkInt("reserved_tokens", o.reservedTokens, used);
    const bs = checkInt("block_size", o.blockSize, 1);
    const users = checkInt("users", o.users, 1);
    const prefix = checkInt("prefix_tokens", o.prefixTokens, 0);
    if (prefix >= used) {
      const n3 = (x) => x.toLocaleString("en-US");
      throw new KVInputError(`prefix_tokens must be less than used_tokens (${n3(used)}): each conversation adds tokens of its own after the shared prefix, got ${n3(prefix)}`);
    }
    const b = memoryBudget(shape, gpu, o);
    const n2 = BigInt(b.num_gpus);
    const blockBytes = kvBytesPerTokenWithinWindows(shape, o.kvBits, b.num_gpus) * n2 * BigInt(bs);
    if (blockBytes <= 0n) throw new KVInputError(`${shape.name} stores nothing per token, so it has no blocks to page`);
    const reservedBlocks = blocksFor(reserved, bs);
    const paged = blocksFor(used, bs);
    const shared = Math.floor(prefix / bs);
    const own = blocksFor(used - shared * bs, bs);
    const budget = b.kv_budget_bytes;
    const fit = (avail, blocks) => avail > 0n ? floorDiv(avail, BigInt(blocks) * blockBytes) : 0n;
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
      users_sharing: fit(budget - BigInt(shared) * blockBytes, own)
    };
  }

  // kvwidgets/widgets/js/calc/step.js
  function decodeStepBytes(shape, prompt, generated, bits) {
    prompt = checkInt("prompt_tokens", prompt, 1);
    generated = checkInt("generated", generated, 0);
    const tokens = prompt + generated;
    const stored = kvBytes(shape, tokens, bits);
    const groups = shape.groups.map((g) => {
      const storesRows = numbersPerToken(g, 1) > 0;
      const held = storesRows ? tokensHeld(g, tokens) : 0;
      return {
        kind: g.kind,
        count: g.count,
        cap: g.cap ?? null,
        held_tokens: held,
        dropped_tokens: storesRows ? tokens - held : 0,
        bytes: ceilDiv(groupBits(g, tokens, bits, 1) - BigInt(g.count) * BigInt(fixedBytes(g, 1)) * 8n, 8n) + BigInt(g.count) * BigInt(fixedBytes(g, 1))
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
    return {
      prompt_tokens: prompt,
      generated,
      tokens,
      phase: generated === 0 ? "prefill" : "decode",
      stored_bytes: stored,
      read_bytes: read,
      written_bytes: written,
      groups
    };
  }

  // kvwidgets/widgets/js/calc/transfer.js
  function getLink(links, name) {
    const key = String(name).trim().toLowerCase();
    const found = links[key];
    if (!found) throw new KVInputError(`unknown link '${name}'. Known links: ${Object.keys(links).sort().join(", ")}.`);
    return { name: key, ...found };
  }
  function interpolateLog(rows, tokens, key = "seconds") {
    for (const r of rows) if (r.tokens === tokens) return r[key];
    for (let i = 0; i + 1 < rows.length; i++) {
      const a = rows[i];
      const b = rows[i + 1];
      if (a.tokens < tokens && tokens < b.tokens) {
        const f = (Math.log(tokens) - Math.log(a.tokens)) / (Math.log(b.tokens) - Math.log(a.tokens));
        return Math.exp(Math.log(a[key]) + f * (Math.log(b[key]) - Math.log(a[key])));
      }
    }
    return null;
  }
  function cacheTransfer(shape, gpu, context, link, o) {
    context = checkInt("context", context, 1);
    const tp = checkInt("tp", o.tp, 1);
    const perRank = kvBytes(shape, context, o.kvBits, tp);
    const step = decodeCeiling(shape, gpu, context, 1, { numGpus: tp, params: o.params, weightBits: o.weightBits, kvBits: o.kvBits });
    const oneCopy = kvBytes(shape, context, o.kvBits, 1);
    const seconds = exactDouble("kv per rank", perRank) / (link.gbps * 1e9);
    const prefill = prefillSeconds(shape, gpu, context, o.params, tp);
    const m = o.measured;
    const measured = m && tp === 1 && gpu.name === m.gpu && m.models.includes(shape.name) ? interpolateLog(m.rows, context) : null;
    return {
      context,
      tp,
      link,
      bytes_per_rank: perRank,
      bytes_all_ranks: perRank * BigInt(tp),
      bytes_one_copy: oneCopy,
      seconds,
      prefill_seconds: prefill,
      decode_step_seconds: step.step_s,
      measured_prefill_seconds: measured,
      vs_prefill: seconds / prefill,
      vs_decode_step: seconds / step.step_s
    };
  }

  // kvwidgets/widgets/js/ui/dom.js
  var KEYED_TAGS = /* @__PURE__ */ new Set(["INPUT", "SELECT", "BUTTON", "TEXTAREA", "SUMMARY"]);
  function element(tag, attrs = {}, children = []) {
    const e = document.createElement(tag);
    if (KEYED_TAGS.has(e.tagName)) e.setAttribute("data-lm-suppress-shortcuts", "true");
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") e.textContent = v;
      else if (k === "class") e.className = v;
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }
  function setTextLines(node, lines) {
    node.replaceChildren(...lines.map((l) => typeof l === "string" ? element("div", { class: "kv-line", text: l }) : element("div", { class: l.cls || "kv-line", text: l.text })));
  }
  var SVG_NS = "http://www.w3.org/2000/svg";
  function svgElement(tag, attrs = {}, children = []) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === void 0 || v === null) continue;
      if (k === "text") e.textContent = v;
      else e.setAttribute(k, String(v));
    }
    for (const c of children) e.append(c);
    return e;
  }
  function markHolds(values, holds) {
    for (const v of values) v.toggleAttribute("data-kv-holds", holds);
  }

  // kvwidgets/widgets/js/ui/diagram.js
  function diagramBox(app) {
    const box = element("div", { class: "kv-diagram" });
    app.plot.replaceWith(box);
    app.diagram = box;
    app.drawnWidth = 0;
  }
  function noteWidth(app, entries) {
    for (const e of entries) if (e.target === app.root) app.contentWidth = e.contentRect.width;
  }
  function diagramWidth(app) {
    if (app.contentWidth > 0) return Math.max(320, app.contentWidth);
    const w = app.root.clientWidth;
    if (!w) return 860;
    const cs = getComputedStyle(app.root);
    return Math.max(320, w - parseFloat(cs.paddingLeft || "0") - parseFloat(cs.paddingRight || "0"));
  }
  function boxesPath(boxes) {
    let d = "";
    for (const [x, y, w, h] of boxes) d += `M${round(x)} ${round(y)}h${round(w)}v${round(h)}h${round(-w)}z`;
    return d;
  }
  function round(v) {
    return Math.round(v * 100) / 100;
  }

  // kvwidgets/widgets/js/ui/host.js
  var warned = /* @__PURE__ */ new Set();
  function tryModelCall(model, method, ...args) {
    if (!model || typeof model[method] !== "function") return false;
    try {
      model[method](...args);
      return true;
    } catch (e) {
      if (!warned.has(method)) {
        warned.add(method);
        console.warn(`kvwidgets: this page's widget model cannot ${method}() (${e && /** @type {Error} */
        e.message ? (
          /** @type {Error} */
          e.message
        ) : e}); the widget keeps working on the page, without a kernel to follow it.`);
      }
      return false;
    }
  }
  function isFocused(el) {
    const root = (
      /** @type {Document | ShadowRoot} */
      el.getRootNode ? el.getRootNode() : document
    );
    return (root.activeElement || document.activeElement) === el;
  }

  // kvwidgets/widgets/js/ui/theme.js
  var PAGE_DARK = ["dark", "dark-theme", "dark-mode", "vscode-dark", "vscode-high-contrast"];
  var PAGE_LIGHT = ["light", "light-theme", "light-mode", "vscode-light", "vscode-high-contrast-light"];
  function pageScheme() {
    for (const e of [document.body, document.documentElement]) {
      if (!e) continue;
      const marks = [e.getAttribute("data-theme"), e.getAttribute("data-mode"), e.getAttribute("theme"), ...e.classList];
      if (marks.some((m) => PAGE_DARK.includes(m))) return "dark";
      if (marks.some((m) => PAGE_LIGHT.includes(m))) return "light";
      if (e.dataset.jpThemeLight === "false") return "dark";
      if (e.dataset.jpThemeLight === "true") return "light";
    }
    return "";
  }
  function themeSource(cs) {
    const has = (name) => (cs.getPropertyValue(name) || "").trim() !== "";
    if (has("--jp-ui-font-color1") && has("--jp-layout-color1")) return "jupyter";
    if (has("--vscode-editor-foreground") && has("--vscode-editor-background")) return "vscode";
    if (has("--colab-primary-text-color") && has("--colab-primary-surface-color")) return "colab";
    if (has("--jp-ui-font-color1") && has("--jp-layout-color2")) return "jupyter-partial";
    const page2 = pageScheme();
    if (page2) return page2;
    const dark = typeof window.matchMedia === "function" && window.matchMedia("(prefers-color-scheme: dark)").matches;
    return dark ? "dark" : "light";
  }
  function readTheme(node) {
    let cs = getComputedStyle(node);
    const source = themeSource(cs);
    if (node.getAttribute("data-kv-theme") !== source) {
      node.setAttribute("data-kv-theme", source);
      cs = getComputedStyle(node);
    }
    const v = (name, fallback) => (cs.getPropertyValue(name) || "").trim() || fallback;
    const darkSource = source === "dark";
    const fg = v("--kv-fg", darkSource ? "#e8e8e8" : "#1f1f1f");
    const bg = v("--kv-bg", darkSource ? "#1e1e1e" : "#ffffff");
    const [lf, lb] = [brightness(fg), brightness(bg)];
    return {
      source,
      // whether the page is dark: light text on a dark background, whoever set them
      dark: lf !== null && lb !== null ? lf > lb : darkSource,
      fg,
      fg2: v("--kv-fg2", darkSource ? "#a8a8a8" : "#616161"),
      bg,
      grid: v("--kv-grid", darkSource ? "#444444" : "#e0e0e0"),
      warn: v("--kv-warn", darkSource ? "#ff8a80" : "#b3261e"),
      font: v("--kv-font", "system-ui, -apple-system, Segoe UI, Roboto, sans-serif")
    };
  }
  function brightness(css) {
    const s = css.trim().toLowerCase();
    if (s === "white") return 1;
    if (s === "black") return 0;
    let rgb = null;
    const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(s);
    if (hex) {
      const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join("") : hex[1];
      rgb = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
    }
    const fn = /^rgba?\(([^)]*)\)$/.exec(s);
    if (fn) rgb = fn[1].split(/[ ,/]+/).slice(0, 3).map(Number);
    if (!rgb || rgb.some((x) => !Number.isFinite(x))) return null;
    return (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255;
  }
  function themeKey(app) {
    return JSON.stringify([pageScheme(), app.theme()]);
  }

  // kvwidgets/widgets/js/ui/app.js
  function makeLookup(app) {
    const m = app.model;
    const shapes = m.get("shapes") || {};
    const name = m.get("model");
    const gpus = m.get("gpus") || {};
    const dtypes = m.get("dtypes") || {};
    return {
      shape(n2 = name) {
        const s = shapes[n2];
        if (!s) throw new KVInputError(`unknown model '${n2}'. Known models: ${Object.keys(shapes).sort().join(", ")}.`);
        return s;
      },
      gpu(n2 = m.get("gpu")) {
        const g = gpus[n2];
        if (!g) throw new KVInputError(`unknown GPU '${n2}'. Known GPUs: ${Object.keys(gpus).sort().join(", ")}.`);
        return g;
      },
      /**
       * @param {string} field
       */
      bits(field) {
        return dtypeBits(dtypes, m.get(field), field);
      },
      /** The weight format: bits of a plain dtype, or a mixed format's parts (calc/model.js modelWeightBytes). */
      weightBits() {
        const format = m.get("weight_dtype");
        const mixed = (m.get("weight_formats") || {})[format];
        return mixed ? { name: format, ...mixed } : dtypeBits(dtypes, format, "weight_dtype");
      },
      dtypes
    };
  }
  function buildFrame({ model, el }, title) {
    const root = element("div", { class: "kv-widget" });
    if (model.get("compact")) root.classList.add("kv-compact");
    root.setAttribute("data-kv-theme", themeSource(getComputedStyle(root)));
    const controls = element("div", { class: "kv-controls" });
    const error = element("div", { class: "kv-error", role: "alert" });
    const plot = element("div", { class: "kv-plot" });
    const description = element("p", { class: "kv-sr-only kv-description", id: uniqueId("kv-figure-point"), "aria-hidden": "true" });
    const failurePanel = element("div", { class: "kv-failure", role: "status" });
    const figure = element("div", { class: "kv-figure" }, [plot, failurePanel]);
    const readouts = element("div", { class: "kv-readouts", "aria-live": "polite" });
    const warnings = element("div", { class: "kv-warnings", "aria-live": "polite" });
    const text = element("div", { class: "kv-text" });
    const how = element("details", { class: "kv-how" }, [
      element("summary", { text: "How this is computed", tabindex: "0", "data-lm-suppress-shortcuts": "true" }),
      text
    ]);
    root.append(titleHeading(el, title), controls, error, figure, description, readouts, warnings, how);
    el.append(root);
    return { root, controls, readouts, text, plot, error, figure, warnings, how, description };
  }
  function drawState() {
    return {
      /** the failure the current draw reported ("" when the figure is true) */
      failed: "",
      localError: "",
      holding: false,
      // true while several traits are set at once (reset): draw once after
      drawn: false,
      // set by redraw(), so set() knows whether a change event already drew
      // While a slider is dragged, at most one draw per animation frame (scheduleDraw).
      continuous: false,
      frameBusy: false,
      stale: false,
      revision: 0,
      // plotly layout.datarevision: bumped on every draw
      /** @type {ReturnType<typeof readTheme> | null} the theme read for the draw under way */
      drawTheme: null,
      /** @type {() => void} the widget's drawing, set by its render function */
      draw: () => {
      },
      /** @type {Array<() => void>} bring each control in line with the model before a draw */
      syncers: [],
      /** @type {Array<[string, (...args: any[]) => void]>} */
      listeners: [],
      /** @type {HTMLElement | null} a diagram's place instead of the plot (diagram.js) */
      diagram: null,
      drawnWidth: 0,
      // the width the diagram was last laid out in
      figureHeight: 0,
      // the figure's height at the last draw that showed it (a failure keeps it)
      contentWidth: 0,
      // the root's content width at the last resize observation (0: not yet)
      /** @type {Record<string, string> | null} PerTokenBytes: the formula's factors last drawn */
      formulaValues: null
    };
  }
  function scheduleDraw(app) {
    if (app.holding) return;
    app.drawn = true;
    if (!app.continuous) {
      app.stale = false;
      app.drawNow();
      return;
    }
    if (app.frameBusy) {
      app.stale = true;
      return;
    }
    app.drawNow();
    app.frameBusy = true;
    const tick = () => {
      if (!app.stale) {
        app.frameBusy = false;
        return;
      }
      app.stale = false;
      app.drawNow();
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }
  function drawOnce(app) {
    for (const s of app.syncers) s();
    app.failed = "";
    app.drawTheme = readTheme(app.root);
    try {
      app.draw();
      app.localError = "";
    } catch (e) {
      app.localError = e && /** @type {Error} */
      e.message ? (
        /** @type {Error} */
        e.message
      ) : String(e);
      if (!(e instanceof KVInputError)) console.error(e);
      app.failed = "The figure waits for inputs it can use: see the message above.";
    } finally {
      app.drawTheme = null;
    }
    showFailure(app);
    app.showError();
  }
  function addReadout(readouts, name, label) {
    const value = element("span", { class: "kv-value", "data-kv-out": name });
    const unavailable = element("span", { class: "kv-sr-only kv-unavailable", text: "not available" });
    readouts.append(element("span", { class: "kv-readout", "aria-atomic": "true" }, [element("span", { class: "kv-label", text: label + " " }), value, unavailable]));
    readouts.style.setProperty("--kv-readout-count", String(readouts.children.length));
    return value;
  }
  function createApp({ model, el }, title) {
    const frame = buildFrame({ model, el }, title);
    const { root, readouts, text, plot, error, warnings, description } = frame;
    const app = {
      model,
      el,
      ...frame,
      ...drawState(),
      /**
       * @param {string} event
       * @param {(...args: any[]) => void} fn
       */
      on(event, fn) {
        model.on(event, fn);
        app.listeners.push([event, fn]);
      },
      /**
       * Set a trait from a control: save it for Python and redraw from the shape now.
       * model.set fires change:<name> synchronously, whose handler redraws; draw here only
       * when it did not (same value, or a model that does not echo its own sets).
       * @param {string} name
       * @param {unknown} value
       */
      set(name, value, { continuous = false } = {}) {
        app.drawn = false;
        app.continuous = continuous;
        try {
          model.set(name, value);
          tryModelCall(model, "save_changes");
          if (!app.drawn) app.redraw();
        } finally {
          app.continuous = false;
        }
      },
      /**
       * @param {string} message
       */
      fail(message) {
        app.localError = message;
        app.showError();
      },
      showError() {
        let msg = app.localError || model.get("error") || "";
        if (msg && msg === app.failed) msg = "";
        error.textContent = msg;
        error.style.display = msg ? "" : "none";
      },
      redraw() {
        scheduleDraw(app);
      },
      drawNow() {
        drawOnce(app);
      },
      /**
       * Called by a draw when the inputs are valid but describe something that cannot
       * happen (the weights do not fit, nothing fits): the figure gives way to `message`
       * and the headline numbers are greyed. The next draw clears it.
       * @param {string} message
       */
      failure(message) {
        app.failed = message;
      },
      /**
       * The text under the figure: warnings (cls "kv-warn") stay in view under the
       * readouts, everything else goes into the closed "How this is computed" fold.
       * @param {Array<string | {text: string, cls?: string}>} lines
       */
      say(lines) {
        const isWarn = (l) => typeof l === "object" && l.cls === "kv-warn";
        setTextLines(warnings, lines.filter(isWarn));
        setTextLines(text, lines.filter((l) => !isWarn(l)));
        reachScrolledWarnings(warnings);
      },
      theme() {
        return app.drawTheme || readTheme(root);
      },
      /** Whether a diagram keeps room for what its inputs may add (a row, a label), so the
       *  page under it does not move as a slider moves. Not on a slide (compact): its frame
       *  is fixed and has no room to spare. */
      keepsHeight() {
        return !model.get("compact");
      },
      scale() {
        const s = Number(model.get("scale"));
        return s > 0 ? s : 1;
      },
      /**
       * Name the plotly chart as an image and give it its point in words, from the same
       * numbers the readouts show (a screen reader otherwise reads its tick labels).
       * @param {string} name what the chart is
       * @param {string} point what it says for these inputs
       */
      describeFigure(name, point) {
        plot.setAttribute("role", "img");
        plot.setAttribute("aria-label", name);
        plot.setAttribute("aria-describedby", description.id);
        description.textContent = point;
      },
      /**
       * @param {string} name
       * @param {string} label
       */
      readout(name, label) {
        return addReadout(readouts, name, label);
      },
      lookup() {
        return makeLookup(app);
      }
    };
    return app;
  }
  function reachScrolledWarnings(warnings) {
    const scrolls = warnings.scrollHeight > warnings.clientHeight + 1;
    if (scrolls === warnings.hasAttribute("tabindex")) return;
    if (scrolls) {
      warnings.setAttribute("tabindex", "0");
      warnings.setAttribute("role", "region");
      warnings.setAttribute("aria-label", "Warnings");
    } else {
      for (const a of ["tabindex", "role", "aria-label"]) warnings.removeAttribute(a);
    }
  }
  function holdFigureHeight(app) {
    const fig = app.figure;
    const held = Boolean(app.failed) && app.figureHeight > 0;
    fig.classList.toggle("kv-figure-held", held);
    fig.style.height = held ? `${app.figureHeight}px` : "";
    if (!app.failed) {
      const drawn = fig.getBoundingClientRect().height;
      if (drawn > 0) app.figureHeight = drawn;
    }
  }
  function showFailure(app) {
    const panel = (
      /** @type {HTMLElement} */
      app.figure.querySelector(".kv-failure")
    );
    panel.textContent = app.failed;
    app.root.classList.toggle("kv-failed", Boolean(app.failed));
    holdFigureHeight(app);
    for (const value of app.readouts.querySelectorAll(".kv-value")) {
      if (app.failed && !value.hasAttribute("data-kv-holds")) value.setAttribute("aria-hidden", "true");
      else value.removeAttribute("aria-hidden");
    }
    if (app.failed && !app.plot.classList.contains("kv-figure-keeps")) app.description.textContent = "";
  }
  var idCount = 0;
  function uniqueId(prefix) {
    idCount += 1;
    return `${prefix}-${idCount}-${Math.random().toString(36).slice(2, 8)}`;
  }
  function titleHeading(el, title) {
    const holder = el.closest ? el.closest("[data-kv-heading-level]") : null;
    const asked = holder ? Number(holder.getAttribute("data-kv-heading-level")) : 3;
    const level = Number.isInteger(asked) && asked >= 1 && asked <= 6 ? asked : 3;
    return element("div", { class: "kv-title", role: "heading", "aria-level": String(level), text: title });
  }
  function inputNames(app) {
    return Object.keys(app.model.get("initial") || {});
  }
  function axisValues(app, name) {
    const axes = app.model.get("axes") || {};
    if (!(name in axes)) throw new Error(`axes.${name} is missing from the widget state`);
    return axes[name];
  }
  function startApp(app) {
    for (const t of [...inputNames(app), "shapes", "gpus", "dtypes", "weight_formats", "presets", "axes"]) app.on(`change:${t}`, () => app.redraw());
    app.on("change:error", () => app.showError());
    app.on("change:scale", () => {
      app.root.style.setProperty("--kv-scale", String(app.scale()));
      app.redraw();
    });
    app.root.style.setProperty("--kv-scale", String(app.scale()));
    const colours = () => themeKey(app);
    let drawnWith = colours();
    const recolour = () => {
      drawnWith = colours();
      app.redraw();
    };
    const recolourIfChanged = () => {
      if (colours() !== drawnWith) recolour();
    };
    const themeWatch = new MutationObserver((records) => {
      if (records.some((r) => (r.attributeName || "").startsWith("data-jp-theme"))) recolour();
      else recolourIfChanged();
    });
    const watched = ["class", "style", "theme", "data-theme", "data-mode", "data-jp-theme-light", "data-jp-theme-name"];
    for (const node of [document.body, document.documentElement]) {
      if (node) themeWatch.observe(node, { attributes: true, attributeFilter: watched });
    }
    const darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
    if (darkQuery) darkQuery.addEventListener("change", recolourIfChanged);
    const onLayout = () => {
      if (!app.root.isConnected) return;
      recolourIfChanged();
      if (app.diagram) {
        if (Math.abs(diagramWidth(app) - app.drawnWidth) > 1) app.redraw();
        return;
      }
      const full = (
        /** @type {any} */
        app.plot._fullLayout
      );
      const width = app.plot.clientWidth;
      if (window.Plotly && full && width > 0 && Math.abs(full.width - width) > 1) {
        window.Plotly.purge(app.plot);
        app.redraw();
      }
    };
    const layoutWatch = typeof ResizeObserver === "function" ? new ResizeObserver((entries) => {
      noteWidth(app, entries);
      onLayout();
    }) : null;
    if (layoutWatch) layoutWatch.observe(app.root);
    app.redraw();
    return () => {
      themeWatch.disconnect();
      if (layoutWatch) layoutWatch.disconnect();
      if (darkQuery) darkQuery.removeEventListener("change", recolourIfChanged);
      for (const [event, fn] of app.listeners) tryModelCall(app.model, "off", event, fn);
      if (window.Plotly) window.Plotly.purge(app.plot);
    };
  }

  // kvwidgets/widgets/js/ui/colours.js
  var CONCEPT_COLORS = {
    weights: "#3b6ea8",
    kv: "#d66e05",
    // the KV cache, and full-attention layers
    full: "#d66e05",
    sliding: "#c38160",
    // a window's worth: lighter, greyer
    chunked: "#a58f7c",
    cross: "#a98660",
    mla: "#b4561a",
    // one latent per token: darker
    latent: "#b4561a",
    compressed: "#a85c2a",
    // DeepSeek-V4's compressed latents: more compact than MLA, darker
    recurrent: "#8b6450",
    // a fixed state: darkest
    state: "#8b6450",
    free: "#4f9a45",
    // memory still free for more conversations (hatched)
    shared: "#1f7a73",
    // blocks stored once for several requests
    reserve: "#7a7a72",
    // held back by the engine (1 - utilization)
    working: "#8494a4",
    // activations and graphs
    waste: "#949494",
    // reserved or inside a block, never written
    reserved: "#7f6c12",
    // held for tokens a request will still write (hatched: not yet written)
    rounding: "#a06b93",
    // lost to the allocator: a reservation rounded up to a power of two
    warning: "#d1345b",
    // past a limit: a bar that overflows, a batch that does not fit
    query: "#7f6fb5",
    // the new token's query: read once, never kept
    other: "#8c8c8c",
    ink: "#1f1f1f",
    // text on one of the lighter fills
    paper: "#ffffff"
    // text on one of the darker fills
  };
  var KIND_NAMES = { full: "full attention", sliding: "sliding window", chunked: "chunked local", cross: "cross-attention", mla: "MLA latent", recurrent: "recurrent state", compressed: "compressed latent" };
  var HATCHED = { free: 45, reserved: -45 };
  function dtypeColor(dtype) {
    return ["bf16", "fp16", "fp32", "fp8", "int8", "int4"].includes(dtype) ? CONCEPT_COLORS.kv : null;
  }
  function dtypeDash(dtype) {
    return { fp8: "dash", int8: "dash", int4: "dot" }[dtype] || "solid";
  }
  function accentColor(app) {
    return getComputedStyle(app.root).getPropertyValue("--kv-accent").trim() || "#1976d2";
  }
  function conceptColor(name) {
    return CONCEPT_COLORS[name] || CONCEPT_COLORS.other;
  }
  function luminance(hex) {
    const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
    const lin = c.map((v) => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  }
  function inkOn(fill) {
    const l = luminance(fill);
    const onInk = (l + 0.05) / (luminance(CONCEPT_COLORS.ink) + 0.05);
    const onPaper = 1.05 / (l + 0.05);
    return onInk >= onPaper ? CONCEPT_COLORS.ink : CONCEPT_COLORS.paper;
  }
  var RAMP = {
    light: ["#9184c2", "#231548"],
    dark: ["#7b6db5", "#f0ecff"]
  };
  function mix(a, b, f) {
    const ch = (h, i) => parseInt(h.slice(i, i + 2), 16);
    const out = [1, 3, 5].map((i) => Math.round(ch(a, i) + (ch(b, i) - ch(a, i)) * f));
    return "#" + out.map((v) => v.toString(16).padStart(2, "0")).join("");
  }
  function rampColor(value, lo, hi, dark = false) {
    const [a, b] = dark ? RAMP.dark : RAMP.light;
    if (!(hi > lo) || !(value > 0)) return b;
    const f = Math.min(1, Math.max(0, Math.log(value / lo) / Math.log(hi / lo)));
    return mix(a, b, f);
  }
  function svgPaint(app, s) {
    let id = paintIds.get(app);
    if (!id) paintIds.set(app, id = `kv-hatch-${++paintCount}`);
    const used = /* @__PURE__ */ new Map();
    return {
      /** @param {string} concept */
      fill(concept) {
        if (!(concept in HATCHED)) return conceptColor(concept);
        const pid = `${id}-${concept}`;
        if (!used.has(concept)) {
          used.set(concept, svgElement(
            "pattern",
            {
              id: pid,
              patternUnits: "userSpaceOnUse",
              width: 5 * s,
              height: 5 * s,
              patternTransform: `rotate(${HATCHED[concept]})`
            },
            [svgElement("rect", { x: 0, y: 0, width: 2 * s, height: 5 * s, fill: conceptColor(concept) })]
          ));
        }
        return `url(#${pid})`;
      },
      defs() {
        return svgElement("defs", {}, [...used.values()]);
      }
    };
  }
  var paintIds = /* @__PURE__ */ new WeakMap();
  var paintCount = 0;
  function barMarker(concept, s) {
    const color = conceptColor(concept);
    if (!(concept in HATCHED)) return { color };
    return { color, pattern: { shape: HATCHED[concept] > 0 ? "/" : "\\", size: 6 * s, solidity: 0.4 } };
  }

  // kvwidgets/widgets/js/ui/controls.js
  var CONTEXT_STEPS = 16;
  function contextToPosition(c) {
    c = Math.min(2 ** 20, Math.max(1024, Number(c)));
    const k = Math.floor(Math.log2(c));
    const j = Math.round((c - 2 ** k) / 2 ** (k - 4));
    return Math.min(10 * CONTEXT_STEPS, (k - 10) * CONTEXT_STEPS + j);
  }
  function positionToContext(pos) {
    const p = Number(pos);
    const k = 10 + Math.floor(p / CONTEXT_STEPS);
    return 2 ** k + p % CONTEXT_STEPS * 2 ** (k - 4);
  }
  function labelled(app, labelText, control) {
    const label = element("label", { class: "kv-control" }, [element("span", { text: labelText }), control]);
    app.controls.append(label);
    return control;
  }
  function isGroup(o) {
    return typeof o === "object" && o !== null && !Array.isArray(o);
  }
  function selectControl(app, name, labelText, options, dependsOn = []) {
    const sel = element("select", { "data-kv": name });
    const option = (o) => {
      const [v, t] = Array.isArray(o) ? o : [o, String(o)];
      return element("option", { value: String(v), text: t });
    };
    const fill = () => {
      const want = app.model.get(name);
      const opts = options();
      const values = opts.flatMap((o) => isGroup(o) ? o.options : [o]).map((o) => Array.isArray(o) ? o[0] : o);
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
  function intBox(app, name, labelText, { min = 1, max = 2 ** 40, field = name } = {}) {
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
  function contextControl(app, labelText = "Context (tokens)") {
    const slider = element("input", {
      type: "range",
      min: "0",
      max: String(10 * CONTEXT_STEPS),
      step: "1",
      "data-kv": "context",
      "aria-label": "context, log scale from 1K to 1M tokens"
    });
    const box = element("input", { type: "number", min: "1", max: String(2 ** 40), step: "1", "data-kv": "context-box", "aria-label": "context in tokens" });
    const shown = element("span", { class: "kv-value", "data-kv-out": "context" });
    const sync = () => {
      const c = app.model.get("context");
      slider.value = String(contextToPosition(c));
      slider.setAttribute("aria-valuetext", `${Number(c).toLocaleString("en-US")} tokens`);
      if (!isFocused(box)) box.value = String(c);
      box.removeAttribute("aria-invalid");
      shown.textContent = fmtTokens(c);
    };
    const refuse = (message) => {
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
  function floatSlider(app, name, labelText, { min, max, step, fmt = (v) => String(v) }) {
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
  function modelSelect(app) {
    const sel = selectControl(app, "model", "Model", () => {
      const shapes = app.model.get("shapes") || {};
      const presets = (app.model.get("presets") || []).filter((p) => p in shapes);
      const series = (app.model.get("series_models") || []).filter((p) => presets.includes(p));
      const extra = Object.keys(shapes).filter((n2) => !presets.includes(n2)).sort();
      const more = (app.model.get("more_models") || []).filter((p) => presets.includes(p) && !series.includes(p));
      const first = [...series, ...extra];
      if (!first.length) return more;
      return more.length ? [...first, { group: "more models", options: more }] : first;
    }, ["shapes", "presets", "series_models", "more_models"]);
    modelRefusal(app);
    return sel;
  }
  function modelRefusal(app) {
    const note = element("div", { class: "kv-model-refusal", role: "alert", "data-kv-note": "model_refusal" });
    const show = () => {
      note.textContent = app.model.get("model_refusal") || "";
    };
    app.on("change:model_refusal", show);
    show();
    app.controls.append(note);
  }
  function gpuSelect(app) {
    return selectControl(app, "gpu", "GPU", () => Object.keys(app.model.get("gpus") || {}), ["gpus"]);
  }
  function gpuCount(app) {
    const counts = () => (app.model.get("axes") || {}).gpu_counts || [1, 2, 4, 8];
    return selectControl(app, "num_gpus", "GPUs", () => counts().map((n2) => [n2, String(n2)]), ["axes"]);
  }
  function dtypeSelect(app, name, labelText) {
    const names = { bf16: "BF16", fp16: "FP16", fp8: "FP8", fp32: "FP32", int8: "INT8", int4: "INT4", mxfp4: "MXFP4 experts" };
    const options = () => [
      ...Object.keys(app.model.get("dtypes") || names),
      ...name === "weight_dtype" ? Object.keys(app.model.get("weight_formats") || {}) : []
    ];
    return selectControl(app, name, labelText, () => options().map((d) => [d, names[d] || d]), ["dtypes", "weight_formats"]);
  }
  function utilizationSlider(app) {
    return floatSlider(app, "utilization", "Utilization", { min: 0.5, max: 1, step: 0.01, fmt: (v) => `${Math.round(v * 100)}%` });
  }
  function paramsOverride(app) {
    const p = checkInt("params", app.model.get("params") ?? 0, 0);
    return p > 0 ? p : void 0;
  }
  function billionsBox(app, name, labelText, { step = "any", ariaLabel, mustBe }) {
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
  function paramsBox(app) {
    return billionsBox(app, "params", "Params (B, 0 = model's)", {
      ariaLabel: "parameters in billions, 0 = the model's own count",
      mustBe: "params must be a number of billions >= 0 (0 = the model's own)"
    });
  }
  function resetButton(app) {
    const btn = element("button", { type: "button", class: "kv-reset", "data-kv": "reset", text: "Reset" });
    btn.addEventListener("click", () => {
      const initial = app.model.get("initial") || {};
      app.holding = true;
      try {
        for (const n2 of Object.keys(initial)) app.model.set(n2, initial[n2]);
      } finally {
        app.holding = false;
      }
      tryModelCall(app.model, "save_changes");
      app.localError = "";
      app.redraw();
    });
    app.controls.append(btn);
    return btn;
  }
  function moreFold(app, build) {
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

  // kvwidgets/widgets/js/ui/end_labels.js
  function endLabels(items, o) {
    const order = items.map((it) => ({ ...it, ly: Math.log10(it.y) })).sort((a, b) => b.ly - a.ly);
    const px = order.map((it) => it.ly * o.pxPerDecade);
    for (let i = 1; i < px.length; i++) if (px[i - 1] - px[i] < o.gap) px[i] = px[i - 1] - o.gap;
    return {
      type: "scatter",
      mode: "text",
      name: "end labels",
      showlegend: false,
      hoverinfo: "skip",
      cliponaxis: false,
      xaxis: o.xaxis || "x",
      yaxis: o.yaxis || "y",
      x: order.map(() => o.x),
      y: px.map((p) => 10 ** (p / o.pxPerDecade)),
      text: order.map((it) => {
        const name = it.bold ? `<b>${it.text}</b>` : it.text;
        return `<span style="color:${it.color}">━━</span> ${name}`;
      }),
      textposition: "middle right",
      textfont: { color: o.ink, size: o.size }
    };
  }

  // kvwidgets/widgets/js/ui/legend.js
  function drawSwatchLegend(app, labels, paint, parts, ly, W, charWidth) {
    const t = app.theme();
    const s = app.scale();
    const fs = 12 * s;
    let lx = 0;
    let rows = 1;
    for (const [concept, text] of labels) {
      const w = 18 * s + text.length * fs * charWidth;
      if (lx > 0 && lx + w > W) {
        lx = 0;
        ly += 18 * s;
        rows += 1;
      }
      parts.push(
        svgElement("rect", { x: lx, y: ly, width: 12 * s, height: 12 * s, fill: paint.fill(concept) }),
        svgElement("text", { x: lx + 16 * s, y: ly + 10.5 * s, "font-size": fs * 0.9, fill: t.fg, text })
      );
      lx += w + 14 * s;
    }
    return { ly, rows };
  }

  // kvwidgets/widgets/js/ui/shadow.js
  var copies = /* @__PURE__ */ new WeakMap();
  function plotlyRules() {
    const rules = [];
    for (const style of document.querySelectorAll('style[id^="plotly.js-style"]')) {
      const sheet = (
        /** @type {HTMLStyleElement} */
        style.sheet
      );
      if (!sheet) continue;
      for (const rule of Array.from(sheet.cssRules)) rules.push(rule.cssText);
    }
    return rules;
  }
  function sharePlotlyStyles(node) {
    const root = node.getRootNode();
    if (typeof ShadowRoot === "undefined" || !(root instanceof ShadowRoot)) return;
    const rules = plotlyRules();
    const known = copies.get(root);
    if (known && known.count === rules.length) return;
    const text = rules.join("\n");
    if (known) {
      if (known.sheet instanceof HTMLStyleElement) known.sheet.textContent = text;
      else known.sheet.replaceSync(text);
      known.count = rules.length;
      return;
    }
    let sheet;
    if ("adoptedStyleSheets" in root && typeof CSSStyleSheet.prototype.replaceSync === "function") {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    } else {
      sheet = document.createElement("style");
      sheet.dataset.kv = "plotly-styles";
      sheet.textContent = text;
      root.prepend(sheet);
    }
    copies.set(root, { sheet, count: rules.length });
  }

  // kvwidgets/widgets/js/ui/plot.js
  function plotLayout(app, extra = {}) {
    const t = app.theme();
    const s = app.scale();
    const axis = (a = {}) => ({ gridcolor: t.grid, zerolinecolor: t.grid, linecolor: t.grid, color: t.fg, ticklabeloverflow: "allow", ...a });
    const { xaxis, yaxis, ...rest } = extra;
    for (const key of Object.keys(rest)) {
      if (/^[xy]axis\d+$/.test(key)) rest[key] = axis(rest[key]);
    }
    return {
      height: Math.round(360 * s),
      margin: { l: 72 * s, r: 20 * s, t: 30 * s, b: 56 * s },
      // a redraw keeps what the reader did (zoom, hidden legend entries)
      uirevision: "kv",
      paper_bgcolor: "rgba(0,0,0,0)",
      plot_bgcolor: "rgba(0,0,0,0)",
      font: { color: t.fg, family: t.font, size: 12 * s },
      legend: { orientation: "h", y: -0.25, font: { color: t.fg }, traceorder: "normal" },
      hoverlabel: { font: { size: 12 * s } },
      xaxis: axis(xaxis),
      yaxis: axis(yaxis),
      ...rest
    };
  }
  var plotlyProblem = "";
  function notePlotlyProblem(why) {
    plotlyProblem = why || "";
  }
  function drawPlot(app, data, layout, dataKey) {
    const Plotly = window.Plotly;
    if (!Plotly) throw new Error(`plotly.js did not load: ${plotlyProblem || "window.Plotly is missing"}`);
    const full = plotLayout(app, layout);
    if (app.root.classList.contains("kv-compact")) full.height = Math.round(0.7 * full.height);
    sharePlotlyStyles(app.plot);
    full.datarevision = dataKey === void 0 ? `draw ${++app.revision}` : JSON.stringify([dataKey, app.scale(), app.theme()]);
    return Plotly.react(app.plot, data, full, { displayModeBar: false, responsive: true });
  }

  // kvwidgets-library:library_binding
  var LIBRARY_HASH = "b309a36328bd4399";
  var inlinedLibrary = library_exports;

  // kvwidgets/widgets/js/loader/page_slots.js
  var PLOTLY_SLOT = "__kvwidgetsPlotly";
  var LIBRARY_SLOT = "__kvwidgetsLibrary";
  function once(table, slot, start) {
    if (!table[slot]) {
      table[slot] = start().catch((e) => {
        delete table[slot];
        throw e;
      });
    }
    return table[slot];
  }
  function plotlyOnce(start) {
    return once(
      /** @type {any} */
      globalThis,
      PLOTLY_SLOT,
      start
    );
  }
  function libraryOnce(hash, start) {
    const g = (
      /** @type {any} */
      globalThis
    );
    const table = g[LIBRARY_SLOT] = g[LIBRARY_SLOT] || {};
    return once(table, hash, start);
  }

  // kvwidgets/widgets/js/loader/standalone_prelude.js
  var page = (
    /** @type {any} */
    globalThis
  );
  if (page.Plotly) plotlyOnce(() => Promise.resolve(page.Plotly));
  libraryOnce(LIBRARY_HASH, () => Promise.resolve(inlinedLibrary));
})();
