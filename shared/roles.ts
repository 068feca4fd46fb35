import { z } from 'zod';
import { EpochSeconds, Uid } from './message.js';
import { BoundedMetadata } from './users.js';

/**
 * Roles (`/roles`, the server API): every user has one (`default` unless given), and a user's
 * `role` must name a role of the app. CometChat's `settings` restrict listing users and sending to
 * friends only; Parley does not restrict by role, so it takes `all` for both and refuses the rest.
 */
export const DEFAULT_ROLE = 'default';

/**
 * Roles every app has: `default`, CometChat's `@agentic` and Parley's `agent` (the agent registry's),
 * which the UI Kit and the widget show as AI agents. None can be deleted (`why` says so), as
 * CometChat keeps its default roles: what gives users a built-in role (a create without a role,
 * the agent registry) relies on it existing.
 */
export const BUILT_IN_ROLES: ReadonlyArray<{ role: string; name: string; why: string }> = [
  { role: DEFAULT_ROLE, name: 'Default role', why: 'it is the role of users created without one' },
  { role: '@agentic', name: 'AI agent', why: 'it is built in: the UI Kit shows its users as AI agents' },
  { role: 'agent', name: 'Parley agent', why: 'it is built in: the agent registry gives it to every agent' },
];

export const RoleSettings = z.strictObject({
  listUsers: z.literal('all', { error: 'Parley does not restrict by role: only "all"' }).optional(),
  sendMessagesTo: z.literal('all', { error: 'Parley does not restrict by role: only "all"' }).optional(),
});

const RoleName = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const RoleDescription = z.string().max(1000, 'must be at most 1000 characters');

export const CreateRoleRequest = z.strictObject({
  role: Uid,
  name: RoleName,
  description: RoleDescription.optional(),
  metadata: BoundedMetadata.optional(),
  settings: RoleSettings.optional(),
});
export type CreateRoleRequest = z.infer<typeof CreateRoleRequest>;

export const UpdateRoleRequest = CreateRoleRequest.omit({ role: true })
  .partial()
  .extend({ unset: z.array(z.enum(['settings', 'description', 'metadata'])).optional() });
export type UpdateRoleRequest = z.infer<typeof UpdateRoleRequest>;

export const Role = z.object({
  role: z.string(),
  name: z.string(),
  description: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  settings: RoleSettings.optional(),
  createdAt: EpochSeconds,
  updatedAt: EpochSeconds.optional(),
});
export type Role = z.infer<typeof Role>;
