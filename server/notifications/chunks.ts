/** Rows or ids per statement: well under SQLite's limit of bound parameters (32,766). */
export const STATEMENT_CHUNK = 400;

export function chunks<T>(items: readonly T[], size = STATEMENT_CHUNK): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}
