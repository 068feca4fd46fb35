import { z } from 'zod';
import { EpochSeconds, MAX_TAG_LENGTH, MAX_TAGS, Metadata, Uid, UserEntity } from './message.js';

/**
 * Contracts of CometChat's users and auth tokens (`/v3/users`, `/v3/users/{uid}/auth_tokens`),
 * and the page-based list envelope they share with groups and conversations.
 */

/** CometChat: names up to 100 characters, URLs up to 3,000, metadata up to 5 KB. */
export const MAX_NAME_LENGTH = 100;
export const MAX_URL_LENGTH = 3000;
export const MAX_METADATA_BYTES = 5 * 1024;

export const DisplayName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`);

export const LinkUrl = z.string().max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`);

const utf8 = new TextEncoder();
export const BoundedMetadata = Metadata.refine(
  (value) => utf8.encode(JSON.stringify(value)).length <= MAX_METADATA_BYTES,
  `must not exceed ${MAX_METADATA_BYTES} bytes`,
);

export const Tags = z
  .array(
    z
      .string()
      .min(1, 'a tag must not be empty')
      .max(MAX_TAG_LENGTH, `a tag is at most ${MAX_TAG_LENGTH} characters`),
  )
  .max(MAX_TAGS, `at most ${MAX_TAGS} tags`);

export const CreateUserRequest = z.object({
  uid: Uid,
  name: DisplayName,
  avatar: LinkUrl.optional(),
  link: LinkUrl.optional(),
  role: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  statusMessage: z.string().max(255).optional(),
  metadata: BoundedMetadata.optional(),
  tags: Tags.optional(),
  withAuthToken: z.boolean().optional(),
});
export type CreateUserRequest = z.infer<typeof CreateUserRequest>;

export const UpdateUserRequest = CreateUserRequest.omit({ uid: true, withAuthToken: true })
  .partial()
  .extend({ unset: z.array(z.enum(['avatar', 'link', 'metadata', 'statusMessage', 'tags'])).optional() });
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

export const ListUsersQuery = z.object({
  searchKey: z.string().optional(),
  status: z.enum(['available', 'offline']).optional(),
  role: z.string().optional(),
  page: z.int().min(1).optional(),
  perPage: z.int().min(1).max(1000).optional(),
});
export type ListUsersQuery = z.infer<typeof ListUsersQuery>;

/** A user as `POST /users` answers it: with `authToken` when `withAuthToken` was asked for. */
export const CreatedUser = UserEntity.extend({ authToken: z.string().optional() });
export type CreatedUser = z.infer<typeof CreatedUser>;

export const CreateAuthTokenRequest = z.object({ force: z.boolean().optional() });
export type CreateAuthTokenRequest = z.infer<typeof CreateAuthTokenRequest>;

export const AuthToken = z.looseObject({ uid: z.string(), authToken: z.string(), createdAt: EpochSeconds });
export type AuthToken = z.infer<typeof AuthToken>;

export const Pagination = z.object({
  total: z.int().nonnegative(),
  count: z.int().nonnegative(),
  per_page: z.int().positive(),
  current_page: z.int().positive(),
  total_pages: z.int().nonnegative(),
});
export type Pagination = z.infer<typeof Pagination>;

/** `{data: [...], meta: {pagination}}`: the page-based list envelope of users, groups, conversations. */
export function pageEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: z.looseObject({ pagination: Pagination }) });
}

/** `{data: {success, message?}}`: the answer of deletes and of settings updates. */
export const SuccessEnvelope = z.object({
  data: z.looseObject({ success: z.boolean(), message: z.string().optional() }),
});
export type SuccessEnvelope = z.infer<typeof SuccessEnvelope>;
