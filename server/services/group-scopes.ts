import type { MemberScope } from '../../shared/groups.js';
import { ChatError } from '../errors.js';
import type { Group, GroupMember } from '../repositories/groups.js';

/**
 * Who may do what in a group, by scope: owner > admin > moderator > participant (CometChat's
 * hierarchy; the owner is an admin whom nobody else may touch). The app itself (the server API
 * without `onBehalfOf`) stands above every member, but it too must transfer a group's ownership
 * before it can remove, ban or re-scope its owner.
 */

/** What acts: a member (with their standing in the group) or the app. */
export type Authority =
  { kind: 'app' } | { kind: 'member'; uid: string; scope: MemberScope; isOwner: boolean };

const RANK: Record<MemberScope, number> = { participant: 1, moderator: 2, admin: 3 };
const OWNER_RANK = 4;
const APP_RANK = 5;

/** A user's rank in the group: 0 for someone who is not a member. */
export function rankOf(group: Group, member: GroupMember | undefined): number {
  if (member === undefined) return 0;
  return group.owner === member.uid ? OWNER_RANK : RANK[member.scope];
}

const authorityRank = (group: Group, authority: Authority): number =>
  authority.kind === 'app' ? APP_RANK : authority.isOwner ? OWNER_RANK : RANK[authority.scope];

const refused = (code: string, message: string, details: Record<string, unknown>): ChatError =>
  new ChatError(403, code, message, details);

/** Admin-only changes (adding members, deleting the group) and moderator ones (kick, ban, re-scope, update). */
export function requireScope(group: Group, authority: Authority, needed: 'admin' | 'moderator'): void {
  if (authority.kind === 'app' || authorityRank(group, authority) >= RANK[needed]) return;
  throw refused(
    needed === 'admin' ? 'ERR_GROUP_NO_ADMIN_SCOPE' : 'ERR_GROUP_NO_MODERATOR_SCOPE',
    `The user ${authority.uid} needs the ${needed} scope in the group ${group.guid} for this.`,
    { uid: authority.uid, guid: group.guid, scope: authority.scope },
  );
}

/**
 * A member acts on another user (kick, ban, re-scope) only if that user ranks below them; never on
 * themselves, and nobody acts on the owner. With `peers` (a scope change), an admin may also
 * re-scope another admin, as CometChat's UI Kit offers it.
 */
export function requireAbove(
  group: Group,
  authority: Authority,
  target: string,
  targetRank: number,
  options: { peers?: boolean } = {},
): void {
  if (authority.kind === 'member' && authority.uid === target) {
    throw refused('ERR_GROUP_NO_SELF_ACTION', `The user ${target} cannot do this to themselves.`, {
      uid: target,
      guid: group.guid,
    });
  }
  if (group.owner === target) {
    throw refused(
      'ERR_GROUP_NO_SCOPE_CLEARANCE',
      `The user ${target} owns the group ${group.guid}; transfer the ownership first.`,
      { uid: target, guid: group.guid },
    );
  }
  const rank = authorityRank(group, authority);
  const peer = options.peers === true && rank === RANK.admin && targetRank === RANK.admin;
  if (rank <= targetRank && !peer) {
    throw refused(
      'ERR_GROUP_NO_SCOPE_CLEARANCE',
      `The scope of ${target} in the group ${group.guid} is not below the caller's.`,
      { uid: target, guid: group.guid },
    );
  }
}

/** A member grants scopes up to their own (the owner and the app grant admin). */
export function requireGrantable(group: Group, authority: Authority, scope: MemberScope): void {
  if (Math.min(authorityRank(group, authority), RANK.admin) >= RANK[scope]) return;
  throw refused(
    'ERR_GROUP_NO_SCOPE_CLEARANCE',
    `The caller cannot make anyone ${scope} in the group ${group.guid}.`,
    { guid: group.guid, scope },
  );
}
