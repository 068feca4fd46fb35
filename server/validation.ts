import { z } from 'zod';
import { Guid, MAX_MESSAGE_BYTES, Uid } from '../shared/message.js';
import {
  PageNumber as PageNumberValue,
  PageSize as PageSizeValue,
  type Pagination,
} from '../shared/users.js';

/**
 * The server's validation vocabulary: the shared contracts' request pieces, and what the server
 * needs beyond them (lower-cased ids, query strings coerced, byte limits checked by hand).
 */
export { BoundedMetadata as Metadata, DisplayName, LinkUrl, Tags } from '../shared/users.js';

/** UIDs are case-insensitive, so they are compared and stored lower-case (path ids use this too). */
export const EntityId = Uid.toLowerCase();
export const GroupId = Guid.toLowerCase();

/** Limits checked outside a schema, where a body is measured as a whole. */
export const LIMITS = { messageBytes: MAX_MESSAGE_BYTES } as const;

export const byteLength = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/** Query-string booleans arrive as text. */
export const QueryBoolean = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

/** Lists in a query string: the SDK joins arrays with commas and does not URL-encode them. */
export const CommaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== ''),
);

/** Query-string numbers arrive as text; once numbers, the shared page limits apply. */
export const PageNumber = z.coerce.number({ error: 'must be a number' }).pipe(PageNumberValue);
export const PageSize = z.coerce.number({ error: 'must be a number' }).pipe(PageSizeValue);

export function pagination(total: number, count: number, perPage: number, page: number): Pagination {
  return {
    total,
    count,
    per_page: perPage,
    current_page: page,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
  };
}
