import { z } from 'zod';
import { EpochSeconds, Guid, Uid } from './message.js';
import { BoundedMetadata, DisplayName, LinkUrl, Tags } from './users.js';

/** Contracts of CometChat's groups and group members (`/v3/groups`, `/v3/groups/{guid}/members`). */

export const GroupType = z.enum(['public', 'private', 'password']);
export type GroupType = z.infer<typeof GroupType>;

export const MemberScope = z.enum(['admin', 'moderator', 'participant']);
export type MemberScope = z.infer<typeof MemberScope>;

export const AddMembersRequest = z
  .object({
    admins: z.array(Uid).optional(),
    moderators: z.array(Uid).optional(),
    participants: z.array(Uid).optional(),
    usersToBan: z.array(Uid).optional(),
  })
  .refine((body) => Object.values(body).some((uids) => (uids?.length ?? 0) > 0), {
    message: 'name at least one UID in admins, moderators, participants or usersToBan',
    path: ['participants'],
  });
export type AddMembersRequest = z.infer<typeof AddMembersRequest>;

export const CreateGroupRequest = z
  .object({
    guid: Guid,
    name: DisplayName,
    type: GroupType,
    password: z.string().min(1).max(100).optional(),
    icon: LinkUrl.optional(),
    description: z.string().max(255).optional(),
    metadata: BoundedMetadata.optional(),
    owner: Uid.optional(),
    tags: Tags.optional(),
    members: z
      .object({
        admins: z.array(Uid).optional(),
        moderators: z.array(Uid).optional(),
        participants: z.array(Uid).optional(),
        usersToBan: z.array(Uid).optional(),
      })
      .optional(),
  })
  .refine((group) => group.type !== 'password' || group.password !== undefined, {
    message: 'a password group needs a password',
    path: ['password'],
  });
export type CreateGroupRequest = z.infer<typeof CreateGroupRequest>;

export const UpdateGroupRequest = z.object({
  name: DisplayName.optional(),
  type: GroupType.optional(),
  password: z.string().min(1).max(100).optional(),
  icon: LinkUrl.optional(),
  description: z.string().max(255).optional(),
  metadata: BoundedMetadata.optional(),
  owner: Uid.optional(),
  tags: Tags.optional(),
  unset: z.array(z.enum(['icon', 'description', 'metadata', 'tags'])).optional(),
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
