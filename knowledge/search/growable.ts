/**
 * Typed arrays that grow by doubling. The index keeps its numbers in a few large typed arrays
 * instead of per-term JS arrays: a JS array costs 8 bytes per element plus an object per list.
 */

type NumberArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** `array` when it already holds `length` elements, otherwise a larger copy of it. */
export function ensureLength<T extends NumberArray>(array: T, length: number): T {
  if (array.length >= length) return array;
  let grown = Math.max(16, array.length);
  while (grown < length) grown *= 2;
  const Constructor = array.constructor as new (length: number) => T;
  const copy = new Constructor(grown);
  copy.set(array);
  return copy;
}

/** A copy trimmed to `length` elements, so snapshots and compacted indexes carry no spare capacity. */
export function trimmed<T extends NumberArray>(array: T, length: number): T {
  return array.slice(0, length) as T;
}
