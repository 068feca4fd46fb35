import { z } from 'zod';
import { EpochSeconds, Guid, Uid } from './message.js';
import { BoundedMetadata, DisplayName, LinkUrl, Tags } from './users.js';

/** Contracts of CometChat's groups and group members (`/v3/groups`, `/v3/groups/{guid}/members`). */

/** CometChat: a group description is at most 255 characters, a password at most 100. */
export const MAX_DESCRIPTION_LENGTH = 255;
export const MAX_PASSWORD_LENGTH = 100;

export const GroupType = z.enum(['public', 'private', 'password'], {
  error: 'must be public, private or password',
});
export type GroupType = z.infer<typeof GroupType>;

export const MemberScope = z.enum(['admin', 'moderator', 'participant'], {
  error: 'must be admin, moderator or participant',
});
export type MemberScope = z.infer<typeof MemberScope>;

const GroupPassword = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`);

const Description = z
  .string()
  .max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`);

/** UIDs by the scope they join with; `usersToBan` are banned instead. */
export const GroupMembers = z.strictObject({
  admins: z.array(Uid).optional(),
  moderators: z.array(Uid).optional(),
  participants: z.array(Uid).optional(),
  usersToBan: z.array(Uid).optional(),
});
export type GroupMembers = z.infer<typeof GroupMembers>;

/** An empty body is refused, naming `participants`: adding nobody is a mistake, not a no-op. */
export const AddMembersRequest = GroupMembers.refine(
  (members) => Object.values(members).some((uids) => (uids?.length ?? 0) > 0),
  {
    message: 'name at least one UID in admins, moderators, participants or usersToBan',
    path: ['participants'],
  },
);
export type AddMembersRequest = z.infer<typeof AddMembersRequest>;

export const CreateGroupRequest = z
  .strictObject({
    guid: Guid,
    name: DisplayName,
    type: GroupType,
    password: GroupPassword.optional(),
    icon: LinkUrl.optional(),
    description: Description.optional(),
    metadata: BoundedMetadata.optional(),
    owner: Uid.optional(),
    tags: Tags.optional(),
    members: GroupMembers.optional(),
  })
  .refine((group) => group.type !== 'password' || group.password !== undefined, {
    message: 'a password group needs a password',
    path: ['password'],
  });
export type CreateGroupRequest = z.infer<typeof CreateGroupRequest>;

/** CometChat: "The unsettable group attributes are icon, description and metadata." */
export const UpdateGroupRequest = z.strictObject({
  name: DisplayName.optional(),
  type: GroupType.optional(),
  password: GroupPassword.optional(),
  icon: LinkUrl.optional(),
  description: Description.optional(),
  metadata: BoundedMetadata.optional(),
  owner: Uid.optional(),
  tags: Tags.optional(),
  unset: z.array(z.enum(['icon', 'description', 'metadata'])).optional(),
});
export type UpdateGroupRequest = z.infer<typeof UpdateGroupRequest>;

export const GroupMember = z.looseObject({
  uid: z.string(),
  name: z.string(),
  scope: MemberScope,
  joinedAt: EpochSeconds.optional(),
  status: z.string().optional(),
  role: z.string().optional(),
  avatar: z.string().optional(),
});
export type GroupMember = z.infer<typeof GroupMember>;

/** `PUT /groups/{guid}/members/{uid}`: the member's new scope (CometChat's default: participant). */
export const ChangeScopeRequest = z.strictObject({ scope: MemberScope.default('participant') });
export type ChangeScopeRequest = z.infer<typeof ChangeScopeRequest>;

/** The member's scope after a change, as `PUT /groups/{guid}/members/{uid}` answers it. */
export const MemberScopeChange = z.object({
  guid: z.string(),
  uid: z.string(),
  scope: MemberScope,
  joinedAt: EpochSeconds,
});
export type MemberScopeChange = z.infer<typeof MemberScopeChange>;

/** `PATCH /groups/{guid}/owner` (the SDK's `transferGroupOwnership`): the member who becomes the owner. */
export const TransferOwnershipRequest = z.strictObject({ owner: Uid });
export type TransferOwnershipRequest = z.infer<typeof TransferOwnershipRequest>;

/** `PUT /groups/{guid}/promote` and `DELETE /groups/{guid}/demote`: the member moved one scope up or down. */
export const StepScopeRequest = z.strictObject({ uid: Uid });
export type StepScopeRequest = z.infer<typeof StepScopeRequest>;
