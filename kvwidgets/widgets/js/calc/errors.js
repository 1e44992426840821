// core/errors.py: the error a bad input raises, and the whole-number check with the core's message.

export class KVInputError extends Error {
  /**
   * @param {string} message
   */
  constructor(message) {
    super(message);
    this.name = "KVInputError";
  }
}

/**
 * @param {string} field
 * @param {unknown} value
 */
export function checkInt(field, value, minimum = 0) {
  // core.errors.check_int: whole numbers only, with the same message.
  if (typeof value === "bigint") value = Number(value);
  if (typeof value !== "number" || !Number.isFinite(value) || !Number.isInteger(value) || value < minimum) {
    throw new KVInputError(`${field} must be a whole number >= ${minimum}, got ${value}`);
  }
  return value;
}
