import { z } from 'zod';
import { EpochSeconds } from './message.js';

/**
 * The app's API keys (`/apikeys`, the server API): `fullAccess` keys use the server API, `authOnly`
 * keys only log users in. Parley stores a key as its SHA-256: the key itself is answered once, by
 * its creation; everywhere else `apiKey` is the key's id (the first 12 hex digits of its SHA-256,
 * the fingerprint the command line prints), which `/apikeys/{apiKey}` takes as well as the key.
 */
export const ApiKeyScope = z.enum(['fullAccess', 'authOnly'], { error: 'must be fullAccess or authOnly' });
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

const KeyName = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

export const CreateApiKeyRequest = z.object({
  name: KeyName,
  scope: ApiKeyScope.default('authOnly'),
});

export const UpdateApiKeyRequest = z
  .object({ name: KeyName.optional(), scope: ApiKeyScope.optional() })
  .refine((body) => body.name !== undefined || body.scope !== undefined, {
    message: 'name or scope is required',
    path: ['name'],
  });

export const ApiKeyListQuery = z.looseObject({
  scope: ApiKeyScope.optional(),
  searchKey: z.string().max(100, 'must be at most 100 characters').optional(),
});

export const ApiKey = z.object({
  apiKey: z.string(),
  name: z.string(),
  scope: ApiKeyScope,
  createdAt: EpochSeconds,
});
export type ApiKey = z.infer<typeof ApiKey>;
