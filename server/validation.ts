import { z } from 'zod';
import { MAX_MESSAGE_BYTES, MAX_TAG_LENGTH, MAX_TAGS, Uid } from '../shared/message.js';

/**
 * CometChat's documented limits, enforced on input so over-limit requests get a 4xx naming the
 * limit: UIDs/GUIDs up to 100 alpha-dash characters (stored lower-case), names 100 characters,
 * URLs 3000, metadata 5 KB, at most 25 tags of 100 characters.
 */
export const LIMITS = {
  nameLength: 100,
  urlLength: 3000,
  descriptionLength: 255,
  passwordLength: 100,
  metadataBytes: 5 * 1024,
  tags: MAX_TAGS,
  tagLength: MAX_TAG_LENGTH,
  messageBytes: MAX_MESSAGE_BYTES,
  pageSize: 1000,
} as const;

/** UIDs and GUIDs: case-insensitive, so they are compared and stored lower-case. */
export const EntityId = Uid.transform((id) => id.toLowerCase());

export const DisplayName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(LIMITS.nameLength, `must be at most ${LIMITS.nameLength} characters`);

export const LinkUrl = z.string().max(LIMITS.urlLength, `must be at most ${LIMITS.urlLength} characters`);

export const byteLength = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

export const Metadata = z
  .record(z.string(), z.unknown())
  .refine(
    (value) => byteLength(value) <= LIMITS.metadataBytes,
    `must not exceed ${LIMITS.metadataBytes} bytes`,
  );

export const Tags = z
  .array(
    z
      .string()
      .min(1, 'a tag must not be empty')
      .max(LIMITS.tagLength, `a tag is at most ${LIMITS.tagLength} characters`),
  )
  .max(LIMITS.tags, `at most ${LIMITS.tags} tags`);

/** Query-string booleans arrive as text. */
export const QueryBoolean = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

export const PageNumber = z.coerce
  .number({ error: 'must be a number' })
  .int('must be an integer')
  .min(1, 'must be at least 1');

export const PageSize = z.coerce
  .number({ error: 'must be a number' })
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(LIMITS.pageSize, `must be at most ${LIMITS.pageSize}`);

export interface Pagination {
  total: number;
  count: number;
  per_page: number;
  current_page: number;
  total_pages: number;
}

export function pagination(total: number, count: number, perPage: number, page: number): Pagination {
  return {
    total,
    count,
    per_page: perPage,
    current_page: page,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
  };
}

export const parseJsonColumn = <T>(text: string | null): T | undefined =>
  text === null ? undefined : (JSON.parse(text) as T);
