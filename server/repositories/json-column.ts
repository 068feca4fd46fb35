/** A JSON text column as what it holds; only repositories read stored JSON. */
export const parseJsonColumn = <T>(text: string | null): T | undefined =>
  text === null ? undefined : (JSON.parse(text) as T);
