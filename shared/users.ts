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
export const MAX_STATUS_MESSAGE_LENGTH = 255;
export const MAX_SEARCH_KEY_LENGTH = 100;
/** CometChat's page-based lists answer at most 1,000 items per page. */
export const MAX_PAGE_SIZE = 1000;

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

const Role = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`);

const StatusMessage = z
  .string()
  .max(MAX_STATUS_MESSAGE_LENGTH, `must be at most ${MAX_STATUS_MESSAGE_LENGTH} characters`);

/** Unknown members are refused rather than dropped, so a misspelt attribute is named, not lost. */
export const CreateUserRequest = z.strictObject({
  uid: Uid,
  name: DisplayName,
  avatar: LinkUrl.optional(),
  link: LinkUrl.optional(),
  role: Role.optional(),
  statusMessage: StatusMessage.optional(),
  metadata: BoundedMetadata.optional(),
  tags: Tags.optional(),
  withAuthToken: z.boolean().optional(),
});
export type CreateUserRequest = z.infer<typeof CreateUserRequest>;

/** CometChat: "The unsettable user attributes are avatar, link and metadata." */
export const UpdateUserRequest = CreateUserRequest.omit({ uid: true, withAuthToken: true })
  .partial()
  .extend({ unset: z.array(z.enum(['avatar', 'link', 'metadata'])).optional() });
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

export const PageNumber = z.int({ error: 'must be an integer' }).min(1, 'must be at least 1');
export const PageSize = z
  .int({ error: 'must be an integer' })
  .min(1, 'must be at least 1')
  .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`);

export const SearchKey = z
  .string()
  .max(MAX_SEARCH_KEY_LENGTH, `must be at most ${MAX_SEARCH_KEY_LENGTH} characters`);

/** CometChat allows an app 25 roles, so a longer filter can only hold names that match no one. */
export const MAX_ROLES = 25;
export const RoleName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`);

export const ListUsersQuery = z.object({
  searchKey: SearchKey.optional(),
  /** `online` is the SDK's word for `available`. */
  status: z
    .enum(['available', 'online', 'offline'], { error: 'must be available (or online) or offline' })
    .optional(),
  /** `role` and `roles` together name the roles a listed user may have. */
  role: RoleName.optional(),
  roles: z.array(RoleName).max(MAX_ROLES, `must name at most ${MAX_ROLES} roles`).optional(),
  /** Include each user's tags. */
  withTags: z.boolean().optional(),
  page: PageNumber.optional(),
  perPage: PageSize.optional(),
});
export type ListUsersQuery = z.infer<typeof ListUsersQuery>;

/** A user as `POST /users` answers it: with `authToken` when `withAuthToken` was asked for. */
export const CreatedUser = UserEntity.extend({ authToken: z.string().optional() });
export type CreatedUser = z.infer<typeof CreatedUser>;

export const CreateAuthTokenRequest = z.strictObject({ force: z.boolean().optional() });
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
