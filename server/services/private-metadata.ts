/**
 * CometChat keeps what only the user and the app may read (e-mail addresses, phone numbers, IDs)
 * under this key of a user's `metadata`.
 */
export const PRIVATE_METADATA_KEY = '@private';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `value` as `viewer` may see it: every user entity in it (an object with a `uid`, however deep:
 * message senders and receivers, action entities, conversation partners, frame users) loses
 * `metadata["@private"]` unless it is the viewer's own; with no viewer, every one loses it. The
 * one place user entities pass through on their way to someone other than the app: the client
 * API's answers and every realtime frame. Unchanged parts are shared, nothing is mutated.
 */
export function presentTo<T>(value: T, viewer: string | undefined): T {
  return strip(value, viewer) as T;
}

function strip(value: unknown, viewer: string | undefined): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      const stripped = strip(item, viewer);
      if (stripped !== item) (copy ??= [...value])[index] = stripped;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key in record) {
    const item = record[key];
    let stripped = strip(item, viewer);
    if (key === 'metadata' && typeof record.uid === 'string' && record.uid !== viewer && isRecord(stripped)) {
      if (PRIVATE_METADATA_KEY in stripped) {
        const { [PRIVATE_METADATA_KEY]: _hidden, ...shared } = stripped;
        stripped = shared;
      }
    }
    if (stripped !== item) (copy ??= { ...record })[key] = stripped;
  }
  return copy ?? record;
}
