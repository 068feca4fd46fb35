/** A JSON text column as what it holds; only repositories read stored JSON. */
export const parseJsonColumn = <T>(text: string | null): T | undefined =>
  text === null ? undefined : (JSON.parse(text) as T);

/**
 * Parsed JSON that a repository caches and every answer shares (a user's metadata in each message
 * entity), frozen so that nothing can change one answer's copy for all the others.
 */
export function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) frozen(item);
    Object.freeze(value);
  }
  return value;
}
